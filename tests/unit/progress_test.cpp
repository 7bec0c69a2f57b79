// Progress lines: what they say, and that a meter prints at most once a period.
#include <catch2/catch.hpp>

#include "runtime/core/progress.hpp"

using namespace permjit;

TEST_CASE("a progress line says share, rate, incumbent, bound, gap and elapsed, and no time left", "[progress]") {
  ProgressSample s{12.0, 0.25, 1000, 39};
  std::string line = format_progress("ivm", s, 2.5e9);
  CHECK_THAT(line, Catch::StartsWith("ivm"));
  CHECK_THAT(line, Catch::Contains("25.0% explored"));
  CHECK_THAT(line, Catch::Contains("2.5e+09 nodes/s"));
  CHECK_THAT(line, Catch::Contains("incumbent 39"));
  CHECK_THAT(line, Catch::Contains("12.0 s elapsed"));
  // The share counts pruned ranges as explored: a time estimate from it is not given.
  CHECK_THAT(line, !Catch::Contains("left"));
  CHECK_THAT(line, !Catch::Contains("bound"));
  s.bound = 35;
  line = format_progress("ivm", s, 2.5e9);
  CHECK_THAT(line, Catch::Contains("incumbent 39  bound 35  gap 4"));
  CHECK(format_progress_json("ivm", s) ==
        "{\"progress\":\"ivm\",\"elapsed_s\":12.000,\"explored\":0.250000000,\"evaluated\":1000,"
        "\"incumbent\":39,\"bound\":35,\"gap\":4}");
  // The idle share where the skeleton measures it (ivm), after the elapsed time.
  s.idle = 0.08;
  CHECK_THAT(format_progress("ivm", s, 2.5e9), Catch::EndsWith("12.0 s elapsed  idle 8%"));
  CHECK_THAT(format_progress_json("ivm", s), Catch::EndsWith(",\"gap\":4,\"idle\":0.0800}"));
  s.idle.reset();
  s.bound.reset();
  s.incumbent.reset();
  s.explored = 0;
  line = format_progress("ivm", s, 0);
  CHECK_THAT(line, !Catch::Contains("incumbent"));
  CHECK_THAT(line, !Catch::Contains("left"));  // nothing done: no estimate
}

TEST_CASE("a progress line never rounds what is left to 100%", "[progress]") {
  ProgressSample s{1.0, 0.9999996, 1000, std::nullopt};
  CHECK_THAT(format_progress("ivm", s, 0), Catch::Contains("99.99996% explored"));
  s.explored = 0.9995;
  CHECK_THAT(format_progress("ivm", s, 0), Catch::Contains("99.95% explored"));
  s.explored = 0.5;
  CHECK_THAT(format_progress("ivm", s, 0), Catch::Contains(" 50.0% explored"));
  s.explored = 1.0;
  CHECK_THAT(format_progress("ivm", s, 0), Catch::Contains("100.0% explored"));
}

TEST_CASE("a meter is due once a period, and never when disabled", "[progress]") {
  ProgressMeter off("ivm", false);
  CHECK_FALSE(off.due(100.0));
  ProgressMeter on("ivm", true, 1.0);
  on.start(5.0);  // a resumed search starts at its checkpoint's elapsed time
  CHECK_FALSE(on.due(5.5));
  CHECK(on.due(6.0));
  CHECK(on.next_due() == 6.0);
}
