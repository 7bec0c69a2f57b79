#include "dsl/pair_ops.hpp"

#include <iterator>

#include "dsl/diagnostics.hpp"

namespace permjit {
namespace {

const PairOpInfo kPairOps[] = {
    {PairOp::assign, "assign", "assign(i in S, j in T: cost)", true},
    {PairOp::arborescence, "arborescence", "arborescence(i in S, j in T: cost)", true},
    {PairOp::minprod, "minprod", "minprod(x in S: a, y in T: b)", false},
    {PairOp::dualassign, "dualassign", "dualassign(i in S, j in T: cost, k, l: pair cost, rounds)", true},
};

}  // namespace

const PairOpInfo* pair_op_named(std::string_view name) {
  for (const PairOpInfo& p : kPairOps)
    if (p.name == name) return &p;
  return nullptr;
}

const PairOpInfo& pair_op_info(PairOp op) {
  for (const PairOpInfo& p : kPairOps)
    if (p.op == op) return p;
  PJ_INTERNAL_ASSERT(false, "a two-set reduction missing from kPairOps");
  return kPairOps[0];
}

const PairOpInfo* pair_ops_begin() { return std::begin(kPairOps); }
const PairOpInfo* pair_ops_end() { return std::end(kPairOps); }

}  // namespace permjit
