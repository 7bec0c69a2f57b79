// Under test: generator/ (generate_problem): constants, #line mapping, branch-free bodies, determinism.
#include <catch2/catch.hpp>
#include <algorithm>
#include <sstream>

#include "generator/generate.hpp"
#include "tests/test_paths.hpp"
#include "unit_helpers.hpp"

using namespace permjit;
using namespace permjit::unit;

namespace {

std::string atsp_instance(int n) {
  std::string s = "NAME: gen\nTYPE: ATSP\nDIMENSION: " + std::to_string(n) +
                  "\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n";
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) s += std::to_string(i == j ? 9999 : 10 * i + j + 1) + " ";
    s += "\n";
  }
  return s + "EOF\n";
}

std::string qap_instance(int n) {
  std::string s = std::to_string(n) + "\n\n";
  for (int m = 0; m < 2; ++m) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) s += std::to_string(m == 0 ? (i + j) % 5 : (i * j) % 7) + " ";
      s += "\n";
    }
    s += "\n";
  }
  return s;
}

ProblemSpec load(const std::string& problem, std::vector<std::string> params, const std::string& instance = "",
                 const std::string& data = "run-time") {
  LoadOptions o;
  o.spec_path = test::problem(problem);
  o.params = std::move(params);
  o.instance_path = instance;
  o.data = data;
  try {
    return load_spec(o);
  } catch (const UserErrors& e) {
    FAIL(e.diags.render());
    throw;
  }
}

// The body of the generated function whose signature starts with `signature`.
std::string body_of(const std::string& text, const std::string& signature) {
  size_t b = text.find(signature);
  REQUIRE(b != std::string::npos);
  size_t e = text.find("\n}\n", b);
  REQUIRE(e != std::string::npos);
  return text.substr(b, e - b);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The 1-based line of the spec file whose text starts with `prefix`.
int spec_line(const ProblemSpec& s, const std::string& prefix) {
  for (int l = 1; l <= s.file->line_count(); ++l)
    if (s.file->line(l).substr(0, prefix.size()) == prefix) return l;
  FAIL("no line starting with " + prefix);
  return 0;
}

// The file and line a compiler gives the first generated line containing `needle`.
std::pair<std::string, int> mapped_line(const std::string& text, const std::string& needle) {
  std::string file = "<generated>";
  int next = 1;
  for (const std::string& l : lines_of(text)) {
    if (l.rfind("#line ", 0) == 0) {
      size_t q = l.find('"');
      next = std::stoi(l.substr(6));
      file = l.substr(q + 1, l.size() - q - 2);
      continue;
    }
    if (l.find(needle) != std::string::npos) return {file, next};
    ++next;
  }
  FAIL("no generated line contains " + needle);
  return {};
}

void check_common(const ProblemSpec& spec, const std::string& source_name) {
  ProblemSource src = generate_problem(spec);
  const std::string& t = src.text;
  CHECK(src.name == source_name);
  CHECK_THAT(t, Catch::Contains("constexpr int kSize = 8;"));
  CHECK_THAT(t, Catch::Contains("using Mask = unsigned int;"));
  // #line directives name the .toml (user code) and return to the generated file.
  CHECK_THAT(t, Catch::Contains("#line "));
  CHECK_THAT(t, Catch::Contains(" \"" + spec.file->path + "\"\n"));
  CHECK_THAT(t, Catch::Contains(" \"" + source_name + "\"\n"));
  // Search code is branch-free: selects and constant-trip loops only. (A bound that
  // solves an assignment is PJ_HEAVY, called rather than inlined: the qualifier is left
  // out of its signature here.)
  for (const char* f : {"PJ_HD void place(", " int bound(const Node& s) {"}) {
    std::string body = body_of(t, f);
    INFO(f << "\n" << body);
    CHECK(body.find("if (") == std::string::npos);
    CHECK(body.find("while") == std::string::npos);
  }
  // Every `#line K "<generated>"` is followed by line K of the generated text.
  auto lines = lines_of(t);
  int returns = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string tail = " \"" + source_name + "\"";
    if (lines[i].rfind("#line ", 0) != 0 || lines[i].size() < tail.size() ||
        lines[i].compare(lines[i].size() - tail.size(), tail.size(), tail) != 0)
      continue;
    ++returns;
    CHECK(std::stoi(lines[i].substr(6)) == static_cast<int>(i + 2));
  }
  CHECK(returns >= 1);
  // Determinism: the same spec gives the same text.
  CHECK(generate_problem(spec).text == t);
}

}  // namespace

TEST_CASE("generate: nqueens n=8", "[generator]") {
  ProblemSpec spec = load("nqueens.toml", {"n=8"});
  REQUIRE(spec.size == 8);
  check_common(spec, "nqueens.problem.inc");
  std::string t = generate_problem(spec).text;
  CHECK_THAT(t, Catch::Contains("constexpr pj::Goal kGoal = pj::Goal::count;"));
  CHECK_THAT(t, Catch::Contains("constexpr Mask kAll = (Mask(1) << kSize) - 1;"));
  // candidates come from the spec line of `candidates =`.
  int l = spec_line(spec, "candidates");
  CHECK_THAT(t, Catch::Contains("#line " + std::to_string(l) + " \"" + spec.file->path + "\"\n"));
  CHECK(mapped_line(t, "m &= ") == std::pair{spec.file->path, l});
  CHECK(mapped_line(t, "c.st_rd = ") == std::pair{spec.file->path, spec_line(spec, "place")});
  CHECK(mapped_line(t, "c.free = ").first == "nqueens.problem.inc");
  CHECK_THAT(body_of(t, "PJ_HD int bound("), Catch::Contains("return 0;"));
  // A fresh load generates the same text.
  CHECK(generate_problem(load("nqueens.toml", {"n=8"})).text == t);
}

TEST_CASE("generate: the parameter value reaches the source", "[generator]") {
  std::string t12 = generate_problem(load("nqueens.toml", {})).text;
  CHECK_THAT(t12, Catch::Contains("constexpr int kSize = 12;"));
  std::string t8 = generate_problem(load("nqueens.toml", {"n=8"})).text;
  CHECK(t8 != t12);
}

TEST_CASE("generate: atsp with a TSPLIB instance of 8 cities", "[generator]") {
  TempFile inst("gen8.atsp", atsp_instance(8));
  ProblemSpec spec = load("atsp.toml", {}, inst.path(), "compiled");
  REQUIRE(spec.size == 8);
  check_common(spec, "atsp.problem.inc");
  std::string t = generate_problem(spec).text;
  CHECK_THAT(t, Catch::Contains("constexpr pj::Goal kGoal = pj::Goal::minimize;"));
  CHECK_THAT(t, Catch::Contains("constexpr int kPrefixLength = 1;"));
  // With --data compiled the instance data are compile-time constants: row 7 of the
  // matrix appears as given.
  CHECK_THAT(t, Catch::Contains("71, 72, 73, 74, 75, 76, 77, 9999"));
  int l = spec_line(spec, "objective");
  CHECK(mapped_line(t, "data_dist[s.last][s.first]") == std::pair{spec.file->path, l});
  CHECK(mapped_line(t, "data_step[p.last][v]") == std::pair{spec.file->path, spec_line(spec, "place")});
}

// TSPLIB's ftv files mark the diagonal with 10^8. A tour never takes it, and atsp.toml's
// partial cost reads the diagonal-free `step` table, so 34 cities of 10^8 markers stay
// 32-bit ints and the GPU skeletons take the instance (before: "this value may reach
// 2200000000", refused for ivm).
TEST_CASE("generate: atsp with ftv's 10^8 diagonal markers computes in 32 bits", "[generator]") {
  const int n = 34;
  std::string text = "NAME: ftvlike\nTYPE: ATSP\nDIMENSION: " + std::to_string(n) +
                     "\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n";
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) text += std::to_string(i == j ? 100000000 : 1 + (7 * i + 3 * j) % 332) + " ";
    text += "\n";
  }
  TempFile inst("ftvlike.atsp", text + "EOF\n");
  ProblemSpec spec = load("atsp.toml", {}, inst.path());
  std::string t = generate_problem(spec).text;
  CHECK_THAT(t, !Catch::Contains("using Int = long long"));
  CHECK_THAT(t, !Catch::Contains("#error"));
}

TEST_CASE("generate: qap with a layout instance of size 8, every bound", "[generator]") {
  TempFile inst("gen8.dat", qap_instance(8));
  for (const char* lb : {"lb=0", "lb=1", "lb=2"}) {
    INFO(lb);
    ProblemSpec spec = load("qap.toml", {lb}, inst.path());
    REQUIRE(spec.size == 8);
    check_common(spec, "qap.problem.inc");
  }
  ProblemSpec spec = load("qap.toml", {}, inst.path());
  std::string t = generate_problem(spec).text;
  // The multi-line place block: `loc[d] = v` is the 2nd line after `place = '''`.
  int l = spec_line(spec, "place");
  CHECK(mapped_line(t, "c.st_cost = ") == std::pair{spec.file->path, l + 1});
  CHECK(mapped_line(t, "c.st_loc[p.d] = v;") == std::pair{spec.file->path, l + 2});
  CHECK(mapped_line(t, "c.free = ").first == "qap.problem.inc");
  CHECK_THAT(t, Catch::Contains("constexpr int param_lb = 2;"));  // Gilmore-Lawler, the default
}

// BUG (generator/emit_expr.hpp:46 tmp() vs emit_expr.cpp local_name()): temporaries are
// named "<op>_<counter>" and locals "<name>_<id>", with separate counters, so a local
// named like a reduction collides: `let sum = 1 in sum + sum(i in free: i)` declares
// `const int sum_0` and `int sum_0` in one scope, and the source does not compile.
TEST_CASE("generate: a local named like a reduction gets its own C++ name", "[generator]") {
  TempFile spec("clash.toml",
                "[problem]\nname = \"clash\"\ngoal = \"minimize\"\nsize = 4\n"
                "[state]\ncost = { type = \"int\", init = \"0\" }\n"
                "[branch]\nplace = { cost = \"cost + v\" }\n"
                "bound = \"let sum = 1 in sum + sum(i in free: i)\"\nobjective = \"cost\"\n");
  LoadOptions o;
  o.spec_path = spec.path();
  std::string body = body_of(generate_problem(load_spec(o)).text, "PJ_HD int bound(");
  std::vector<std::string> declared;
  for (const std::string& l : lines_of(body)) {
    std::istringstream in(l);
    std::string w1, w2, w3;
    in >> w1 >> w2 >> w3;
    if (w1 == "const") w1 = w2, w2 = w3;
    if (w1 == "int" || w1 == "bool" || w1 == "Mask") declared.push_back(w2);
  }
  INFO(body);
  REQUIRE(declared.size() >= 2);
  std::sort(declared.begin(), declared.end());
  CHECK(std::adjacent_find(declared.begin(), declared.end()) == declared.end());
}

TEST_CASE("generate: a range bounded by a let covers its whole value, not only 0..size", "[generator][ranges]") {
  // size 5, but the ranges run to 10 and 45: before value_range, a bound that named a
  // local was treated as known only at the node and clamped to 0..size.
  TempFile spec("range_let.toml", R"TOML([problem]
name = "r"
goal = "count"
size = 5
[params]
m = 10
[branch]
filter = "sum(i in 0..m: sum(j in 0..i: 1)) == 45 && (let k = 10 in sum(i in 0..k: 1)) == 10"
)TOML");
  LoadOptions o;
  o.spec_path = spec.path();
  ProblemSpec s = load_spec(o);
  std::string text = generate_problem(s).text;
  CHECK(text.find("< 10; ++") != std::string::npos);
  CHECK(text.find("< kSize") != std::string::npos);  // the filter's own loop over values
}

TEST_CASE("generate: a range bounded by state is a located user error", "[generator][ranges]") {
  TempFile spec("range_state.toml", R"TOML([problem]
name = "r"
goal = "minimize"
size = 5
[state]
k = "int"
[branch]
place = { k = "k + v" }
bound = "sum(i in 0..k: i)"
objective = "k"
)TOML");
  LoadOptions o;
  o.spec_path = spec.path();
  ProblemSpec s = load_spec(o);
  try {
    generate_problem(s);
    FAIL("no error");
  } catch (const UserErrors& e) {
    const Diagnostic& d = e.diags.all().front();
    CHECK(d.loc.line == 9);
    CHECK(d.loc.col == 22);  // the k of 0..k
    CHECK_THAT(d.message, Catch::Contains("no limit known before the search"));
  }
}

TEST_CASE("division and shifts get the defined form only where the operand is not proven safe", "[generator][arith]") {
  auto source = [](const std::string& place) {
    return generate_problem(load_text("[problem]\nname = \"g\"\ngoal = \"count\"\nsize = 5\n[state]\nx = \"int\"\n"
                                      "[branch]\nfilter = \"x >= 0\"\nplace = { x = \"" + place + "\" }\n"))
        .text;
  };
  // (the filter reads x, so that its updates are emitted.)
  // A known divisor other than 0 and -1, a count in 0..31: the plain, fast form.
  std::string plain = source("x / 3 + x % 7 + (x >> 2) + (x << v) + x / -2");
  CHECK(plain.find("pj::div") == std::string::npos);
  CHECK(plain.find("pj::rem") == std::string::npos);
  CHECK(plain.find("pj::sh") == std::string::npos);
  CHECK(plain.find("/ 3)") != std::string::npos);
  // A divisor that may be 0 or -1, a count that may leave the word.
  std::string guarded = source("x / (d - 1) + x % v + (x >> x) + (x << (v + 30)) + popcount(bit(x))");
  CHECK(guarded.find("pj::div(") != std::string::npos);
  CHECK(guarded.find("pj::rem(") != std::string::npos);
  CHECK(guarded.find("pj::shr(") != std::string::npos);
  CHECK(guarded.find("pj::shl(") != std::string::npos);
  CHECK(guarded.find("pj::bit_any<Mask>(") != std::string::npos);
}
