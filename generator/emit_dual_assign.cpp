// dualassign(i in S, j in T: cost, k, l: pair cost, rounds) lowered to
// templates/pair_dual.h. Each side is listed as for assign() (emit_pair_reduce.cpp);
// the costs fill a K x K table and the pair costs a K x K x K x K table over the listed
// elements, K the larger side's capacity, then the solver runs on the first m = max(|S|,
// |T|) rows and columns, the smaller side padded with zeros (costs and pair costs 0: the
// padded problem's bijections are the injections of the smaller side, at the same
// cost). The pair cost is evaluated for every two distinct listed elements of each side
// (k != i, l != j): m^2 (m - 1)^2 evaluations per node.
//
// In block mode (ExprEmitter::block_scratch, for refine_block: generator/emit_branch.cpp)
// the function is run by every thread of a block on one node: the tables lie in the
// block's scratch (global memory), their entries are filled one per thread in turn, and
// templates/pair_dual_block.h's solver runs on them. Everything else (the sides' lists)
// every thread computes for itself.
#include "dsl/diagnostics.hpp"
#include "generator/emit_expr.hpp"

namespace permjit {

namespace {
// The pair table's size per node: on the host it is on the search thread's stack, on the
// GPU in the thread's local memory (whose limit is 512 KiB).
constexpr int64_t kMaxPairTableBytes = int64_t(2) << 20;
}  // namespace

std::string ExprEmitter::dual_assign(const Expr& e) {
  const size_t b_at = side_b(e), body = first_body(e);
  const std::string type = cxx_type(Type::int_, wide_);
  const int64_t bytes = wide_ ? 8 : 4;
  std::string la, na, lb, nb;
  const int64_t ca = gather_side(e, 0, e.over_range, e.sym, la, na);
  const int64_t cb = gather_side(e, b_at, e.over_range2, e.sym2, lb, nb);
  const int64_t k = std::max(ca, cb);
  if (k * k * k * k * bytes > kMaxPairTableBytes) {
    Diagnostics d;
    d.error(e.loc,
            "dualassign() over sides of up to " + std::to_string(k) + " elements needs a pair table of " +
                std::to_string(k * k * k * k * bytes / 1024) + " KiB per node; at most " +
                std::to_string(kMaxPairTableBytes / 1024) + " KiB are allowed",
            "a side's capacity is the shape's size for a set and the proven width of a range");
    throw UserErrors(std::move(d));
  }
  const std::string ks = std::to_string(k);
  const std::string rounds = tmp("rounds");
  out_.line("const int " + rounds + " = int(" + emit(*e.args[body + 2]) + ");");
  const std::string cost = tmp("cost"), pair = tmp("pair"), m = tmp("m");
  if (block_scratch_.empty()) {
    out_.line(type + " " + cost + "[" + ks + "][" + ks + "];");
    out_.line(type + " " + pair + "[" + ks + "][" + ks + "][" + ks + "][" + ks + "];");
  } else {
    // The block's tables, at the next free place of its scratch (8-byte aligned).
    const int64_t at = block_scratch_bytes_, cost_bytes = (k * k * bytes + 7) / 8 * 8;
    block_scratch_bytes_ += cost_bytes + (k * k * k * k * bytes + 7) / 8 * 8;
    out_.line(type + " (&" + cost + ")[" + ks + "][" + ks + "] = *reinterpret_cast<" + type + " (*)[" + ks + "][" + ks +
              "]>(" + block_scratch_ + " + " + std::to_string(at) + ");");
    out_.line(type + " (&" + pair + ")[" + ks + "][" + ks + "][" + ks + "][" + ks + "] = *reinterpret_cast<" + type +
              " (*)[" + ks + "][" + ks + "][" + ks + "][" + ks + "]>(" + block_scratch_ + " + " +
              std::to_string(at + cost_bytes) + ");");
  }
  out_.line("const int " + m + " = " + na + " > " + nb + " ? " + na + " : " + nb + ";");
  // Zeros where a side is padded (only then: the listed part is written below).
  const std::string x = tmp("x"), y = tmp("y"), z = tmp("z"), w = tmp("w");
  out_.line("if (" + na + " != " + nb + ") {");
  out_.indent();
  if (block_scratch_.empty()) {
    out_.line("for (int " + x + " = 0; " + x + " < " + m + "; ++" + x + ")");
    out_.line("  for (int " + y + " = 0; " + y + " < " + m + "; ++" + y + ") {");
    out_.line("    " + cost + "[" + x + "][" + y + "] = " + type + "(0);");
    out_.line("    for (int " + z + " = 0; " + z + " < " + m + "; ++" + z + ")");
    out_.line("      for (int " + w + " = 0; " + w + " < " + m + "; ++" + w + ") " + pair + "[" + x + "][" + y + "][" +
              z + "][" + w + "] = " + type + "(0);");
    out_.line("  }");
  } else {
    // Spread over the block's threads: entry w of the m^4, w = ((x m + y) m + z) m + l.
    out_.line("for (int " + w + " = int(threadIdx.x); " + w + " < " + m + " * " + m + " * " + m + " * " + m + "; " + w +
              " += int(blockDim.x)) {");
    out_.line("  const int " + x + " = " + w + " / (" + m + " * " + m + " * " + m + "), " + y + " = " + w + " / (" + m +
              " * " + m + ") % " + m + ", " + z + " = " + w + " / " + m + " % " + m + ";");
    out_.line("  if (" + z + " == 0 && " + w + " % " + m + " == 0) " + cost + "[" + x + "][" + y + "] = " + type +
              "(0);");
    out_.line("  " + pair + "[" + x + "][" + y + "][" + z + "][" + w + " % " + m + "] = " + type + "(0);");
    out_.line("}");
    out_.line("__syncthreads();  // the zeros before the listed part");
  }
  out_.dedent();
  out_.line("}");
  // The listed values keep the ranges the gathering loops proved for them; the pair
  // cost's second names range like the first.
  env_.locals[e.sym3] = env_.locals[e.sym];
  env_.locals[e.sym4] = env_.locals[e.sym2];
  const std::string a = tmp("a"), b = tmp("b"), c = tmp("c"), f = tmp("f");
  if (!block_scratch_.empty()) return dual_assign_block(e, DualTables{la, na, lb, nb, cost, pair, m, rounds, ks});
  out_.line("for (int " + a + " = 0; " + a + " < " + na + "; ++" + a + ") {");
  out_.indent();
  out_.line("const int " + local_name(e.sym) + " = " + la + "[" + a + "];");
  out_.line("for (int " + b + " = 0; " + b + " < " + nb + "; ++" + b + ") {");
  out_.indent();
  out_.line("const int " + local_name(e.sym2) + " = " + lb + "[" + b + "];");
  out_.line(cost + "[" + a + "][" + b + "] = " + emit(*e.args[body]) + ";");
  out_.line("for (int " + c + " = 0; " + c + " < " + na + "; ++" + c + ") {");
  out_.indent();
  out_.line("if (" + c + " == " + a + ") continue;");
  out_.line("const int " + local_name(e.sym3) + " = " + la + "[" + c + "];");
  out_.line("for (int " + f + " = 0; " + f + " < " + nb + "; ++" + f + ") {");
  out_.indent();
  out_.line("if (" + f + " == " + b + ") continue;");
  out_.line("const int " + local_name(e.sym4) + " = " + lb + "[" + f + "];");
  out_.line(pair + "[" + a + "][" + b + "][" + c + "][" + f + "] = " + emit(*e.args[body + 1]) + ";");
  for (int i = 0; i < 4; ++i) {
    out_.dedent();
    out_.line("}");
  }
  const std::string acc = tmp(e.text);
  out_.require_call();
  out_.line("const " + type + " " + acc + " = pj::dual_assign_bound<" + type + ", " + ks + ">(" + cost + ", " + pair +
            ", " + m + ", " + rounds + ");");
  return acc;
}

std::string ExprEmitter::dual_assign_block(const Expr& e, const DualTables& t) {
  const size_t body = first_body(e);
  const std::string type = cxx_type(Type::int_, wide_);
  const std::string &la = t.la, &na = t.na, &lb = t.lb, &nb = t.nb, &cost = t.cost, &pair = t.pair;
  const std::string a = tmp("a"), b = tmp("b"), c = tmp("c"), f = tmp("f");
  // The costs: entry x = a nb + b, one per thread in turn.
  const std::string x = tmp("x");
  out_.line("for (int " + x + " = int(threadIdx.x); " + x + " < " + na + " * " + nb + "; " + x +
            " += int(blockDim.x)) {");
  out_.indent();
  out_.line("const int " + a + " = " + x + " / " + nb + ", " + b + " = " + x + " % " + nb + ";");
  out_.line("const int " + local_name(e.sym) + " = " + la + "[" + a + "];");
  out_.line("const int " + local_name(e.sym2) + " = " + lb + "[" + b + "];");
  out_.line(cost + "[" + a + "][" + b + "] = " + emit(*e.args[body]) + ";");
  out_.dedent();
  out_.line("}");
  // The pair costs: entry x = ((a nb + b) na + c) nb + f, those with c != a and f != b.
  out_.line("for (int " + x + " = int(threadIdx.x); " + x + " < " + na + " * " + nb + " * " + na + " * " + nb + "; " +
            x + " += int(blockDim.x)) {");
  out_.indent();
  out_.line("const int " + f + " = " + x + " % " + nb + ", " + c + " = " + x + " / " + nb + " % " + na + ", " + b +
            " = " + x + " / (" + nb + " * " + na + ") % " + nb + ", " + a + " = " + x + " / (" + nb + " * " + na +
            " * " + nb + ");");
  out_.line("if (" + c + " == " + a + " || " + f + " == " + b + ") continue;");
  out_.line("const int " + local_name(e.sym) + " = " + la + "[" + a + "];");
  out_.line("const int " + local_name(e.sym2) + " = " + lb + "[" + b + "];");
  out_.line("const int " + local_name(e.sym3) + " = " + la + "[" + c + "];");
  out_.line("const int " + local_name(e.sym4) + " = " + lb + "[" + f + "];");
  out_.line(pair + "[" + a + "][" + b + "][" + c + "][" + f + "] = " + emit(*e.args[body + 1]) + ";");
  out_.dedent();
  out_.line("}");
  out_.line("__syncthreads();  // the tables before the solver reads them");
  const std::string acc = tmp(e.text);
  out_.require_call();
  out_.line("const " + type + " " + acc + " = pj::dual_assign_bound_block<" + type + ", " + t.ks + ">(" + cost + ", " +
            pair + ", " + t.m + ", " + t.rounds + ");");
  return acc;
}

}  // namespace permjit
