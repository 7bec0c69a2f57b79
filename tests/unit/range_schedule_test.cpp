// The frontier ranges of the cpu skeleton run range by range (runtime/distributed/range_schedule.hpp,
// runtime/distributed/range_checkpoint.hpp): every subtree handed out once, chunks that shrink,
// finished ranges merged, and a checkpoint that reads back what was written.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "runtime/distributed/range_checkpoint.hpp"
#include "runtime/distributed/range_schedule.hpp"
#include "runtime/ivm/ivm_checkpoint.hpp"  // checkpoint_checksum

using namespace permjit;

TEST_CASE("a range schedule hands out every subtree once, in shrinking chunks", "[ranges]") {
  RangeSchedule s(1000, {}, 4);
  uint64_t at = 0, last = 1000;
  int n = 0;
  while (auto r = s.next()) {
    CHECK(r->begin == at);
    CHECK(r->size() <= last);  // never larger than the one before
    CHECK(r->size() <= 1000 / (RangeSchedule::kCap * 4));
    last = r->size();
    at = r->end;
    s.finish(*r);
    ++n;
  }
  CHECK(at == 1000);
  CHECK(s.all_finished());
  CHECK(s.done() == std::vector<Range>{{0, 1000}});
  CHECK(n > 16);     // the end is handed out in small pieces
  CHECK(n < 1000);   // the start in large ones
  CHECK(n > 64);     // none above 1/(kCap W) of the frontier: 1000 / 64
}

TEST_CASE("a resumed schedule hands out what its checkpoint had not finished", "[ranges]") {
  RangeSchedule s(100, {{10, 20}, {50, 60}}, 2);
  CHECK(s.finished() == 20);
  std::vector<Range> out;
  while (auto r = s.next()) out.push_back(*r);
  uint64_t covered = 0;
  for (const Range& r : out) {
    CHECK((r.end <= 10 || (r.begin >= 20 && r.end <= 50) || r.begin >= 60));
    covered += r.size();
  }
  CHECK(covered == 80);
  CHECK(ranges_left(100, {{0, 10}, {20, 100}}) == std::vector<Range>{{10, 20}});
}

TEST_CASE("finished ranges merge with their neighbours, in any order", "[ranges]") {
  std::vector<Range> done;
  merge_range(done, {5, 7});
  merge_range(done, {0, 2});
  merge_range(done, {2, 5});
  merge_range(done, {9, 10});
  CHECK(done == std::vector<Range>{{0, 7}, {9, 10}});
  merge_range(done, {7, 9});
  CHECK(done == std::vector<Range>{{0, 10}});
}

TEST_CASE("a range checkpoint reads back what was written, and a damaged one is refused", "[ranges]") {
  const std::string path = "range_checkpoint_test.ckpt";
  RangeCheckpoint c;
  c.id = {"v", "atsp", "atsp.toml", "r.atsp", "abc", "minimize", "39", 4, 5040};
  c.elapsed = 1.5;
  c.expanded = 10;
  c.evaluated = 20;
  c.found = true;
  c.best = 38;
  c.perm = {0, 2, 1};
  c.done = {{0, 100}, {200, 300}};
  write_range_checkpoint(path, c);
  RangeCheckpoint back = read_range_checkpoint(path);
  CHECK(back.id.split_depth == 4);
  CHECK(back.id.frontier_nodes == 5040);
  CHECK(back.id.ub == "39");
  CHECK(back.evaluated == 20);
  CHECK(back.best == 38);
  CHECK(back.perm == c.perm);
  CHECK(back.done == c.done);
  CHECK(range_resume_mismatch(back.id, c.id).empty());
  RangeRunIdentity other = c.id;
  other.ub = "none";
  CHECK_THAT(range_resume_mismatch(back.id, other), Catch::Contains("--ub"));
  {
    std::ofstream out(path, std::ios::app);
    out << "x";
  }
  CHECK_THROWS_WITH(read_range_checkpoint(path), Catch::Contains("checksum"));
  std::remove(path.c_str());
}

// A field that is not a number, behind a checksum made right (as by hand): refused as
// damage, never escaping as another exception.
TEST_CASE("a range checkpoint whose numbers are not numbers is refused as damaged", "[ranges]") {
  const std::string path = "range_checkpoint_fields.ckpt";
  RangeCheckpoint c;
  c.id = {"v", "atsp", "atsp.toml", "r.atsp", "abc", "minimize", "39", 4, 5040};
  c.best = 38;
  for (const auto& [from, to] : {std::pair{"best 38", "best x38"}, std::pair{"elapsed 0", "elapsed zero"},
                                 std::pair{"expanded 0", "expanded -1"}}) {
    INFO(to);
    write_range_checkpoint(path, c);
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    in.close();
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, std::string(from).size(), to);
    const std::string header = text.substr(0, text.rfind("checksum "));
    std::ofstream(path) << header << "checksum " << checkpoint_checksum(header, "") << "\n";
    CHECK_THROWS_WITH(read_range_checkpoint(path), Catch::Contains("damaged checkpoint") && Catch::Contains("not a number"));
  }
  std::remove(path.c_str());
}
