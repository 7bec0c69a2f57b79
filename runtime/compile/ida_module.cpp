#include "runtime/compile/ida_module.hpp"

#include <cstring>
#include <stdexcept>

#include "dsl/diagnostics.hpp"

namespace permjit {

namespace {
// A failure code of the module: a start that does not match the compiled root() is our
// mistake (the start data were checked against the spec), the others the machine's.
[[noreturn]] void fail(const char* what, int rc) {
  PJ_INTERNAL_ASSERT(rc != PJ_IDA_BAD_START,
                     std::string(what) + ": the start data does not match the compiled module's root()");
  throw std::runtime_error(std::string(what) + " failed (code " + std::to_string(rc) + ")");
}
}  // namespace

IdaStart::IdaStart(StartValues values) : values_(std::move(values)) {
  for (const auto& v : values_) {
    data_.push_back(v.data());
    lengths_.push_back(static_cast<int>(v.size()));
  }
  s_ = PjIdaStart{static_cast<int>(values_.size()), data_.data(), lengths_.data()};
}

IdaModule::IdaModule(const HostModule& compiled)
    : lib_(compiled, "IDA", "pj_ida_abi", PJ_IDA_ABI),
      search_(lib_.entry<PjIdaSearchFn>("pj_ida_search")),
      roots_(lib_.entry<PjIdaRootsFn>("pj_ida_roots")),
      upper_(lib_.entry<PjIdaUpperFn>("pj_ida_upper")),
      path_(lib_.entry<PjIdaPathFn>("pj_ida_path")),
      path_via_(lib_.entry<PjIdaPathViaFn>("pj_ida_path_via")),
      roots_free_(lib_.entry<PjIdaRootsFreeFn>("pj_ida_roots_free")),
      move_name_(lib_.entry<PjIdaMoveNameFn>("pj_ida_move_name")),
      expand_(lib_.entry<PjIdaExpandFn>("pj_ida_expand")),
      moves_to_(lib_.entry<PjIdaMovesToFn>("pj_ida_moves_to")),
      pdb_count_(lib_.entry<PjPdbCountFn>("pj_pdb_count")),
      pdb_entries_(lib_.entry<PjPdbEntriesFn>("pj_pdb_entries")),
      pdb_build_(lib_.entry<PjPdbBuildFn>("pj_pdb_build")),
      pdb_check_reflection_(lib_.entry<PjPdbCheckReflectionFn>("pj_pdb_check_reflection")) {}

void IdaModule::set_pdb_tables(const std::vector<const unsigned char*>& tables) const {
  if (tables.empty()) return;
  void* at = lib_.optional_symbol("pj_pdb_tables");
  PJ_INTERNAL_ASSERT(at != nullptr && static_cast<int>(tables.size()) == pdb_count(),
                     "the compiled module " + lib_.path() + " has no table pointers for its pattern databases");
  std::memcpy(at, tables.data(), tables.size() * sizeof(const unsigned char*));
}

PjIdaResult IdaModule::search(const PjIdaArgs& args) const {
  auto* r = new PjIdaResult{};  // large: keep it off the stack
  int rc = search_(&args, r);
  PjIdaResult out = *r;
  delete r;
  if (rc != 0) fail("the CPU IDA* search", rc);
  return out;
}

std::vector<int> IdaModule::moves_to(const void* from, int g, int last, const void* to, int to_g, int limit) const {
  std::vector<int> moves(PJ_IDA_MAX_PATH);
  int n = 0;
  const bool found = moves_to_(from, g, last, to, to_g, limit, moves.data(), &n) == 0;
  PJ_INTERNAL_ASSERT(found, "no path of cost " + std::to_string(to_g - g) +
                                " within the limit to a node handed between warps");
  moves.resize(n);
  return moves;
}

IdaModule::Roots::Roots(const IdaModule& m, const IdaStart& start, unsigned long long min_roots) : m_(m) {
  if (int rc = m_.roots_(&start.get(), min_roots, &r_); rc != 0)
    fail("building the IDA* upper tree", rc);
}

IdaModule::Roots::~Roots() { m_.roots_free_(&r_); }

PjIdaCounts IdaModule::Roots::upper(int limit, std::vector<unsigned char>& alive, long long& upper_goal) const {
  alive.assign(r_.count, 0);
  PjIdaCounts c{};
  m_.upper_(&r_, limit, &c, alive.data(), &upper_goal);
  return c;
}

std::vector<int> IdaModule::Roots::path(long long root, long long upper_goal, int limit) const {
  std::vector<int> moves(PJ_IDA_MAX_PATH);
  int n = 0;
  const bool found = m_.path_(&r_, root, upper_goal, limit, moves.data(), &n) == 0;
  PJ_INTERNAL_ASSERT(found, "no path of cost " + std::to_string(limit) + " below root " + std::to_string(root) +
                                ", where the search found one");
  moves.resize(n);
  return moves;
}

std::vector<int> IdaModule::Roots::path_via(long long root, const std::vector<int>& via, const void* node, int g,
                                            int last, int limit) const {
  std::vector<int> moves(PJ_IDA_MAX_PATH);
  int n = 0;
  const bool found =
      m_.path_via_(&r_, root, via.data(), static_cast<int>(via.size()), node, g, last, limit, moves.data(), &n) == 0;
  PJ_INTERNAL_ASSERT(found, "no path of cost " + std::to_string(limit) + " below a piece of root " +
                                std::to_string(root) + ", where the search found one");
  moves.resize(n);
  return moves;
}

}  // namespace permjit
