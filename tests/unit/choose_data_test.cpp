// Under test: generator/choose_data (--data auto) and the count it decides on,
// CodeWriter::unrolled_run_time_reads. The forward flowshop on 20x20 lost 2.6x of its GPU
// speed when its values moved to run time (docs/decisions.md, "Data mode auto"): auto
// must compile them in for the device, and keep every spec that reads little at run time.
#include <catch2/catch.hpp>

#include "dsl/diagnostics.hpp"
#include "dsl/load_spec.hpp"
#include "dsl/run_time_data.hpp"
#include "generator/choose_data.hpp"
#include "generator/code_writer.hpp"
#include "generator/generate.hpp"
#include "tests/test_paths.hpp"

using namespace permjit;

namespace {

ProblemSpec load_auto(const std::string& instance, std::vector<std::string> params) {
  LoadOptions o;
  o.spec_path = test::problem("flowshop.toml");
  o.instance_path = test::instance(instance);
  o.params = std::move(params);
  o.data = "auto";
  return load_spec(o);
}

bool reads_at_run_time(const std::string& text) { return text.find("pj::run_time_value(") != std::string::npos; }

}  // namespace

TEST_CASE("unrolled_run_time_reads counts a loop's reads at its unrolled size", "[choose_data]") {
  CodeWriter w("t.inc");
  w.set_unroll_budget(100);
  w.open_loop(10);  // 10 x 2 statements: unrolled
  w.line("a += pj::run_time_value(x[i]) + pj::run_time_value(y[i]);");
  w.line("b += 1;");
  w.close_loop();
  CHECK(w.unrolled_run_time_reads() == 20);
  w.open_loop(1000);  // 1000 x 1 statements: past the budget, rolled
  w.line("c += pj::run_time_value(z[i]);");
  w.close_loop();
  CHECK(w.unrolled_run_time_reads() == 21);
  w.open_loop(4);  // an unrolled loop around a rolled one counts the rolled body once
  w.open_loop(1000);
  w.line("d += pj::run_time_value(z[i]);");
  w.close_loop();
  w.close_loop();
  CHECK(w.unrolled_run_time_reads() == 25);
}

TEST_CASE("auto compiles in the forward flowshop's values on the device, and only there", "[choose_data]") {
  {
    ProblemSpec spec = load_auto("flowshop/ta021.txt", {"branching=1"});
    const DataChoice c = settle_data(spec, DataTarget::device);
    CHECK(c.automatic);
    CHECK(c.run_time_reads >= kCompileDataFromReads);
    CHECK(c.compiled);
    CHECK_FALSE(reads_at_run_time(generate_problem(spec).text));
    CHECK(generate_problem(spec).data.empty());
  }
  {
    ProblemSpec spec = load_auto("flowshop/ta021.txt", {"branching=1"});
    const DataChoice c = settle_data(spec, DataTarget::host);
    CHECK_FALSE(c.compiled);
    CHECK(reads_at_run_time(generate_problem(spec).text));
  }
}

TEST_CASE("auto keeps at run time what reads little: two ends, 20x5 forward", "[choose_data]") {
  for (auto [instance, branching] : {std::pair{"flowshop/ta021.txt", "branching=2"},
                                     std::pair{"flowshop/ta001.txt", "branching=1"}}) {
    ProblemSpec spec = load_auto(instance, {branching});
    const DataChoice c = settle_data(spec, DataTarget::device);
    INFO(instance << " " << branching << ": " << c.run_time_reads << " reads");
    CHECK(c.run_time_reads < kCompileDataFromReads);
    CHECK_FALSE(c.compiled);
    const ProblemSource src = generate_problem(spec);
    CHECK(reads_at_run_time(src.text));
    CHECK_FALSE(src.data.empty());
  }
}

TEST_CASE("a named data mode is left as it is", "[choose_data]") {
  LoadOptions o;
  o.spec_path = test::problem("flowshop.toml");
  o.instance_path = test::instance("flowshop/ta021.txt");
  o.params = {"branching=1"};
  o.data = "run-time";
  ProblemSpec spec = load_spec(o);
  const DataChoice c = settle_data(spec, DataTarget::device);
  CHECK_FALSE(c.automatic);
  CHECK_FALSE(c.compiled);
  CHECK(reads_at_run_time(generate_problem(spec).text));
}

TEST_CASE("generate_problem refuses a spec whose data mode is not settled", "[choose_data]") {
  ProblemSpec spec = load_auto("flowshop/ta001.txt", {});
  CHECK_THROWS_AS(generate_problem(spec), InternalError);
}
