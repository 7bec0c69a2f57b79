// Mistakes on the command line are user errors with a place, refused before any work.
#include <catch2/catch.hpp>

#include <fstream>

#include "dsl/diagnostics.hpp"
#include "runtime/device/cuda_driver.hpp"
#include "runtime/skeletons.hpp"
#include "e2e_support.hpp"

using namespace permjit;
using namespace permjit::test;

namespace {
std::string first_error(SolveOptions o) {
  const Diagnostic d = first_user_error([&] { solve(o); });
  CHECK(d.loc.file->path == "<command line>");
  return d.message;
}

SolveOptions nqueens() {
  SolveOptions o;
  o.load.spec_path = problem("nqueens.toml");
  o.cache_dir = cache_dir();
  return o;
}
}  // namespace

TEST_CASE("option --ub on a counting problem is refused", "[e2e][options]") {
  SolveOptions o = nqueens();
  o.ub = 10;
  CHECK_THAT(first_error(o), Catch::Contains("--ub applies to minimize and maximize"));
}

TEST_CASE("an unknown skeleton or backend is refused", "[e2e][options]") {
  SolveOptions o = nqueens();
  o.skeleton = "bfs";
  CHECK_THAT(first_error(o), Catch::Contains("skeleton 'bfs' is not available"));
  o = nqueens();
  o.backend = "tpu";
  CHECK_THAT(first_error(o), Catch::Contains("unknown backend 'tpu'"));
}

TEST_CASE("asking for the GPU backend or a GPU skeleton without a GPU says why, at its place", "[e2e][options]") {
  std::string why;
  cuda::Device dev;
  if (cuda::first_device(dev, &why)) return;  // this machine has one: nothing to refuse
  SolveOptions o = nqueens();
  o.backend = "gpu";
  CHECK_THAT(first_error(o), Catch::Contains("no GPU to run on: " + why));
  o = nqueens();
  o.skeleton = "ivm";  // refused before any compile
  check_command_line_error([&] { solve(o); }, 12, "skeleton 'ivm' needs a GPU");
}

TEST_CASE("the cdp and rec options are checked before any work", "[e2e][options][cdp]") {
  struct Case {
    std::string skeleton;
    void (*set)(SolveOptions&);
    std::string message;
  };
  const Case cases[] = {
      {"dfs", [](SolveOptions& o) { o.dgpu = 5; }, "--dgpu applies to the cdp and rec skeletons; this run uses 'dfs'"},
      {"cdp", [](SolveOptions& o) { o.dcpu = o.dgpu = 4; }, "--dgpu must be deeper than --dcpu"},
      {"cdp", [](SolveOptions& o) { o.dgpu = 12; }, "--dgpu must be below the size 12"},  // n = 12: the leaves
      {"cdp", [](SolveOptions& o) { o.dgpu = -1; }, "--dgpu must be positive"},
      {"cdp", [](SolveOptions& o) { o.child_block_size = 100; }, "--child-block-size must be a multiple of 32"},
      {"cdp", [](SolveOptions& o) { o.block_size = 2048; }, "--block-size must be a multiple of 32 from 32 to 1024"},
      {"rec", [](SolveOptions& o) { o.child_grids = 2; }, "--child-grids applies to the cdp skeleton"},
      {"rec", [](SolveOptions& o) { o.pending_launches = 4096; }, "--pending-launches applies to the cdp skeleton"},
  };
  for (const Case& c : cases) {
    INFO(c.skeleton << ": " << c.message);
    SolveOptions o = nqueens();
    o.skeleton = c.skeleton;
    c.set(o);
    CHECK_THAT(first_error(o), Catch::Contains(c.message));
  }
}

TEST_CASE("the ivm, offload and ida options are checked before any work, with their place", "[e2e][options][ivm]") {
  struct Case {
    std::string skeleton;
    void (*set)(SolveOptions&);
    int col;  // where the caret points on the shown command line
    std::string message;
  };
  const Case cases[] = {
      {"ivm", [](SolveOptions& o) { o.ivm_rows = "global"; }, 12, "unknown value 'global' of --ivm-rows"},
      {"ivm", [](SolveOptions& o) { o.checkpoint_every = 0; }, 20, "--checkpoint-every must be a positive number"},
      {"dfs", [](SolveOptions& o) { o.trigger = 5; }, 1, "--trigger applies to the ivm skeleton; this run uses 'dfs'"},
      {"dfs", [](SolveOptions& o) { o.resume = "x.ckpt"; }, 1, "--resume applies to the cpu and ivm skeletons"},
      {"ivm", [](SolveOptions& o) { o.offload = "bound"; }, 1, "--offload applies to the offload skeleton; this run uses 'ivm'"},
      {"offload", [](SolveOptions& o) { o.offload = "both"; }, 11, "unknown value 'both' of --offload"},
      {"ivm", [](SolveOptions& o) { o.pool_max = 1000; }, 1, "--pool-max applies to the offload skeleton; this run uses 'ivm'"},
      {"dfs", [](SolveOptions& o) { o.block_size = 100; }, 14, "--block-size must be a multiple of 32"},
      {"cpu", [](SolveOptions& o) { o.block_size = 128; }, 1, "--block-size applies to the dfs, ivm, cdp, rec and offload skeletons"},
      {"cpu", [](SolveOptions& o) { o.ida_stack = 100; }, 1, "--ida-stack applies to path problems; 'nqueens'"},
      {"ida-thread", [](SolveOptions& o) { o.ida_stack = 100; }, 1,
       "--ida-stack applies to the ida skeleton; this run uses 'ida-thread'"},
      // On a path problem, refused before the device is opened.
      {"ida", [](SolveOptions& o) { o.ida_balance = "sideways"; }, 11, "unknown value 'sideways' of --balance"},
      {"ida-thread", [](SolveOptions& o) { o.ida_balance = "donate"; }, 11,
       "--balance donate applies to the ida skeleton; skeleton 'ida-thread' takes static or dynamic"},
      {"ida", [](SolveOptions& o) { o.ida_stack = 3; }, 13, "a stack of 3 entries is too small: at least 8"},
      {"ida",
       [](SolveOptions& o) {
         o.ida_balance = "dynamic";
         o.donate_after = 64;
       },
       16, "--donate-after applies to the ida skeleton with --balance donate"},
      {"ida-thread", [](SolveOptions& o) { o.donate_after = 64; }, 1,
       "--donate-after applies to the ida skeleton; this run uses 'ida-thread'"},
  };
  for (const Case& c : cases) {
    INFO(c.skeleton << ": " << c.message);
    SolveOptions o = nqueens();
    if (c.skeleton.rfind("ida", 0) == 0) {  // ida, ida-thread: a path problem
      o.load.spec_path = problem("puzzle15.toml");
      o.load.instance_path = temp_file("options8.txt", "1 2 5 3 4 0 6 7 8\n");
      o.load.params = {"w=3"};
    }
    o.skeleton = c.skeleton;
    c.set(o);
    const Diagnostic d = first_user_error([&] { solve(o); });
    CHECK(d.loc.file->path == "<command line>");
    CHECK(d.loc.line == 1);
    CHECK(d.loc.col == c.col);
    CHECK_THAT(d.message, Catch::Contains(c.message));
  }
}

// Donation is ida's default balancing: --donate-after needs no --balance donate beside it
// (it once did, and `--skeleton ida --donate-after N` was refused).
TEST_CASE("ida's default balancing takes --donate-after, any value", "[e2e][options]") {
  for (unsigned steps : {0u, 64u}) {
    SolveOptions o;
    o.load.spec_path = problem("puzzle15.toml");
    o.load.instance_path = temp_file("options8.txt", "1 2 5 3 4 0 6 7 8\n");
    o.load.params = {"w=3"};
    o.skeleton = "ida";
    o.donate_after = steps;
    CHECK_NOTHROW(prepare_solve(o));
    o.ida_balance = "donate";
    CHECK_NOTHROW(prepare_solve(o));
  }
}

// The 1-based line of `path` that starts with `text` (after indentation), or 0.
static int spec_line_of(const std::string& path, const std::string& text) {
  std::ifstream in(path);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.find_first_not_of(' ') != std::string::npos && line.compare(line.find_first_not_of(' '), text.size(), text) == 0)
      return n;
  }
  return 0;
}

// A GPU skeleton that places values from the left only, named for a spec with
// branch.ends = 2, is refused at the spec's `ends`, before any driver or compile; `ivm`
// takes it; with no skeleton named and no GPU, auto picks cpu.
TEST_CASE("two ends: a one-end GPU skeleton is refused at the spec, ivm takes it", "[e2e][options][two_ends]") {
  SolveOptions o;
  o.load.spec_path = problem("flowshop.toml");
  o.load.instance_path = instance("flowshop/ta001.txt");
  o.load.params = {"branching=2"};
  o.cache_dir = cache_dir();
  o.skeleton = "ivm";
  CHECK(std::string(prepare_solve(o).skeleton->name) == "ivm");
  for (const char* sk : {"dfs", "offload", "cdp"}) {
    o.skeleton = sk;
    try {
      prepare_solve(o);
      FAIL("skeleton " << sk << " accepted a two-ended spec");
    } catch (const UserErrors& e) {
      const Diagnostic& d = e.diags.all().front();
      INFO(sk);
      CHECK(d.loc.file->path == problem("flowshop.toml"));
      CHECK(d.loc.line == spec_line_of(problem("flowshop.toml"), "ends = \"branching\""));
      CHECK_THAT(d.message, Catch::Contains("places them from the left only"));
      CHECK_THAT(d.hint, Catch::Contains("add --param branching=1 for one end"));
    }
  }
  o.skeleton.clear();
  o.backend = "auto";
  CHECK(std::string(prepare_solve(o).skeleton->name) == "cpu");
}

TEST_CASE("the time limit option: the cpu, dfs, ivm, IDA* and offload skeletons', above 0, for placement and path "
          "problems",
          "[e2e][options][time_limit]") {
  SolveOptions o = nqueens();
  o.time_limit = 5;
  o.skeleton = "cdp";
  const std::string cdp = first_error(o);
  CHECK_THAT(cdp, Catch::Contains("--time-limit applies to the cpu, dfs, ivm, offload, ida and ida-thread"));
  CHECK_THAT(cdp, Catch::Contains("; this run uses 'cdp'"));
  o.skeleton = "cpu";
  o.time_limit = -1;
  CHECK_THAT(first_error(o), Catch::Contains("--time-limit takes a number of seconds above 0"));
  SolveOptions path;
  path.load.spec_path = problem("puzzle15.toml");
  path.load.instance_path = instance("15puzzle/korf100.txt");
  path.load.instance_record = 1;
  path.skeleton = "cpu";
  path.time_limit = -1;  // a path problem takes it (tests/e2e/partial_answers_test.cpp runs it), above 0
  path.cache_dir = cache_dir();
  CHECK_THAT(first_error(path), Catch::Contains("--time-limit takes a number of seconds above 0"));
}

// emit shows what solve compiles: both take their units from the skeleton's registry
// row through one function, with the same options.
TEST_CASE("the units a solve compiles are the units emit shows, for every skeleton", "[e2e][options][units]") {
  SolveOptions path;
  path.load.spec_path = problem("puzzle15.toml");
  path.load.instance_path = temp_file("options8.txt", "1 2 5 3 4 0 6 7 8\n");
  path.load.params = {"w=3"};
  SolveOptions optimise;
  optimise.load.spec_path = problem("atsp.toml");
  optimise.load.instance_path = instance("atsp/br17.atsp");
  int compared = 0;
  for (const Skeleton& sk : skeletons()) {
    if (!sk.run) continue;  // emit only
    for (SolveOptions o : {path, optimise}) {
      o.cache_dir = cache_dir();
      o.skeleton = std::string(sk.name);
      PreparedSolve p = [&] {
        try {
          return prepare_solve(o);
        } catch (const UserErrors&) {
          return PreparedSolve{};  // this skeleton searches the other shape
        }
      }();
      if (!p.skeleton) continue;
      INFO(sk.name << " on " << p.spec.name);
      SkeletonUnits shown = emit_units(o, sk, p.spec, p.source);
      for (auto [ran, emitted] : {std::pair{&p.units.host, &shown.host}, std::pair{&p.units.device, &shown.device},
                                  std::pair{&p.units.deferred, &shown.deferred}}) {
        REQUIRE(ran->has_value() == emitted->has_value());
        if (!ran->has_value()) continue;
        CHECK((*ran)->text == (*emitted)->text);
        CHECK((*ran)->options == (*emitted)->options);
        CHECK((*ran)->name == (*emitted)->name);
        CHECK((*ran)->device_runtime == (*emitted)->device_runtime);
        ++compared;
      }
      CHECK((p.units.host || p.units.device));
    }
  }
  CHECK(compared >= 13);  // cpu x2, dfs, ivm (and its deferred unit), cdp, rec, offload: host and device; ida, ida-thread
}

// The GPU skeletons keep a 32-bit incumbent: a --ub outside it is refused at its value
// before any compile; the cpu skeleton's is 64-bit.
TEST_CASE("a --ub outside the skeleton's incumbent is refused before any work", "[e2e][options]") {
  SolveOptions o;
  o.load.spec_path = problem("atsp.toml");
  o.load.instance_path = instance("atsp/br17.atsp");
  o.cache_dir = cache_dir();
  o.ub = 5000000000LL;
  for (const char* name : {"dfs", "ivm", "cdp", "rec", "offload"}) {
    INFO(name);
    o.skeleton = name;
    check_command_line_error([&] { prepare_solve(o); }, 6, "does not fit the 32-bit incumbent");
  }
  o.skeleton = "cpu";
  CHECK_NOTHROW(prepare_solve(o));
}

// --warm-start belongs to the GPU skeletons (the cpu skeleton is the warm start), and
// takes seconds, 0 for none.
TEST_CASE("the warm start option: placement skeletons, seconds from 0", "[e2e][options][warm_start]") {
  SolveOptions o;
  o.load.spec_path = problem("flowshop.toml");
  o.load.instance_path = instance("flowshop/ta001.txt");
  o.cache_dir = cache_dir();
  o.backend = "cpu";
  o.warm_start = -1;
  CHECK_THAT(first_error(o), Catch::Contains("--warm-start takes a number of seconds"));
  o.backend = "auto";
  o.skeleton = "ivm";
  CHECK_THAT(first_error(o), Catch::Contains("--warm-start takes a number of seconds"));
  SolveOptions path;
  path.load.spec_path = problem("puzzle15.toml");
  path.load.instance_path = instance("15puzzle/korf100.txt");
  path.load.instance_record = 1;
  path.warm_start = 0.5;
  path.cache_dir = cache_dir();
  CHECK_THAT(first_error(path), Catch::Contains("--warm-start applies to placement problems"));
}
