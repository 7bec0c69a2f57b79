// The option table (runtime/option_table.hpp) and the registry's ids: what every reader
// of the table relies on.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <type_traits>

#include "runtime/option_table.hpp"
#include "runtime/skeletons.hpp"

using namespace permjit;

TEST_CASE("every registry row's id is its place, so an id names one row", "[options][registry]") {
  unsigned i = 0;
  for (const Skeleton& sk : skeletons()) CHECK(static_cast<unsigned>(sk.id) == i++);
}

TEST_CASE("every option row has a flag, help and a field of its own", "[options]") {
  std::set<std::string> flags, python;
  for (const SolveOption& o : solve_option_table()) {
    INFO(std::string(o.flag));
    CHECK(o.flag.starts_with("--"));
    CHECK(!o.help.empty());
    CHECK(flags.insert(std::string(o.flag)).second);
    CHECK(python.insert(python_name(o)).second);
    CHECK(&solve_option(o.field) == &o);  // no other row holds its field
    CHECK(python_name(o).find('-') == std::string::npos);
    // Narrowed values are a subset of a row's skeletons and of its values.
    CHECK((o.narrowed_for.bits & ~o.taken_by.bits) == 0);
    if (o.narrowed_for.empty()) CHECK(o.narrowed_values.empty());
    // The flag alone stands for 0 only where "not given" is an empty optional.
    if (o.value_optional)
      CHECK(std::visit([](auto m) { return !std::is_same_v<std::decay_t<decltype(SolveOptions{}.*m)>, bool>; },
                       o.field));
  }
  CHECK(python_name(solve_option(&SolveOptions::time_limit)) == "time_limit");
  CHECK(solve_option(&SolveOptions::ida_balance).flag == "--balance");
}

TEST_CASE("an option is given when it differs from its default, and is shown as typed", "[options]") {
  SolveOptions o;
  CHECK_FALSE(given_value(solve_option(&SolveOptions::time_limit), o));
  o.time_limit = 2.5;
  CHECK(given_value(solve_option(&SolveOptions::time_limit), o) == "2.5");
  o.list = 0;  // --list alone: every solution
  CHECK(given_value(solve_option(&SolveOptions::list), o) == "");
  o.list = 7;
  CHECK(given_value(solve_option(&SolveOptions::list), o) == "7");
  o.all_optimal = true;
  CHECK(given_value(solve_option(&SolveOptions::all_optimal), o) == "");
  o.ida_balance = "static";
  CHECK(given_value(solve_option(&SolveOptions::ida_balance), o) == "static");
}

TEST_CASE("which skeletons take an option, and which of its values", "[options][registry]") {
  const SolveOption& balance = solve_option(&SolveOptions::ida_balance);
  const Skeleton& ida = *find_skeleton("ida");
  const Skeleton& thread = *find_skeleton("ida-thread");
  CHECK(takes(ida, balance, "donate"));
  CHECK(takes(thread, balance, "dynamic"));
  CHECK_FALSE(takes(thread, balance, "donate"));
  CHECK_FALSE(takes(*find_skeleton("cpu"), balance));
  // A general option is every skeleton's.
  for (const Skeleton& sk : skeletons()) CHECK(takes(sk, solve_option(&SolveOptions::threads)));
}
