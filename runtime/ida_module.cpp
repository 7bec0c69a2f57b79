#include "runtime/ida_module.hpp"

#include <dlfcn.h>

#include <cstring>
#include <stdexcept>

#include "dsl/diagnostics.hpp"
#include "runtime/run_time_data.hpp"

namespace permjit {

namespace {
template <class F>
F symbol(void* h, const char* name) {
  return reinterpret_cast<F>(dlsym(h, name));
}

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

IdaModule::IdaModule(const HostModule& compiled) {
  const std::string& so_path = compiled.path;
  handle_ = dlopen(so_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) throw std::runtime_error("cannot load the compiled module " + so_path + ": " + dlerror());
  auto abi = symbol<PjIdaAbiFn>(handle_, "pj_ida_abi");
  search_ = symbol<PjIdaSearchFn>(handle_, "pj_ida_search");
  roots_ = symbol<PjIdaRootsFn>(handle_, "pj_ida_roots");
  upper_ = symbol<PjIdaUpperFn>(handle_, "pj_ida_upper");
  path_ = symbol<PjIdaPathFn>(handle_, "pj_ida_path");
  path_via_ = symbol<PjIdaPathViaFn>(handle_, "pj_ida_path_via");
  roots_free_ = symbol<PjIdaRootsFreeFn>(handle_, "pj_ida_roots_free");
  move_name_ = symbol<PjIdaMoveNameFn>(handle_, "pj_ida_move_name");
  expand_ = symbol<PjIdaExpandFn>(handle_, "pj_ida_expand");
  moves_to_ = symbol<PjIdaMovesToFn>(handle_, "pj_ida_moves_to");
  pdb_count_ = symbol<PjPdbCountFn>(handle_, "pj_pdb_count");
  pdb_entries_ = symbol<PjPdbEntriesFn>(handle_, "pj_pdb_entries");
  pdb_build_ = symbol<PjPdbBuildFn>(handle_, "pj_pdb_build");
  pdb_check_reflection_ = symbol<PjPdbCheckReflectionFn>(handle_, "pj_pdb_check_reflection");
  so_path_ = so_path;
  if (!abi || !search_ || !roots_ || !upper_ || !path_ || !path_via_ || !roots_free_ || !move_name_ || !expand_ ||
      !moves_to_ || !pdb_count_ || !pdb_entries_ || !pdb_build_ || !pdb_check_reflection_ || abi() != PJ_IDA_ABI) {
    dlclose(handle_);
    throw std::runtime_error("the compiled module " + so_path + " does not match this permjit (IDA ABI)");
  }
  fill_host_data(compiled.data, handle_, so_path);
}

IdaModule::~IdaModule() { dlclose(handle_); }

void IdaModule::set_pdb_tables(const std::vector<const unsigned char*>& tables) const {
  if (tables.empty()) return;
  void* at = dlsym(handle_, "pj_pdb_tables");
  PJ_INTERNAL_ASSERT(at != nullptr && static_cast<int>(tables.size()) == pdb_count(),
                     "the compiled module " + so_path_ + " has no table pointers for its pattern databases");
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
