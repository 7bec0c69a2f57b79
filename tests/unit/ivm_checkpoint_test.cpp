// Checkpoints of the ivm skeleton: written atomically, read back bit for bit, refused
// when damaged or when they belong to another run.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "runtime/ivm/ivm_checkpoint.hpp"
#include "unit_helpers.hpp"

using namespace permjit;

namespace {
IvmCheckpoint sample() {
  IvmCheckpoint c;
  c.id = IvmRunIdentity{"0.1.0", "atsp", "problems/atsp.toml", "br17.atsp", "abc123", 16, 4096, 4, "minimize", "39"};
  c.elapsed = 12.5;
  c.rounds = 77;
  c.results = std::string("\x01\x00\x02\n\xff", 5);
  c.state = std::string(1000, '\0') + "\n\nend";
  return c;
}
std::string temp_path(const std::string& name) {
  // This process's own folder: test cases run at once in other processes (ctest -j).
  auto dir = std::filesystem::temp_directory_path() / ("permjit-unit-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

TEST_CASE("a checkpoint reads back as written", "[ivm][checkpoint]") {
  std::string path = temp_path("round-trip.ckpt");
  IvmCheckpoint c = sample();
  write_checkpoint(path, c);
  IvmCheckpoint r = read_checkpoint(path);
  CHECK(r.id.source == c.id.source);
  CHECK(r.id.explorers == c.id.explorers);
  CHECK(r.id.ub == "39");
  CHECK(r.elapsed == 12.5);
  CHECK(r.rounds == 77);
  CHECK(r.results == c.results);
  CHECK(r.state == c.state);
  CHECK(resume_mismatch(r.id, c.id).empty());
  // Rewriting leaves no temporary file beside it.
  write_checkpoint(path, c);
  for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    CHECK(f.path().filename().string().find("round-trip.ckpt.") == std::string::npos);
}

TEST_CASE("a stopped search's checkpoint carries its bound's floor", "[ivm][checkpoint][partial]") {
  std::string path = temp_path("floor.ckpt");
  IvmCheckpoint c = sample();
  write_checkpoint(path, c);
  CHECK_FALSE(read_checkpoint(path).open_floor);  // none written: none read
  c.open_floor = -3602;
  write_checkpoint(path, c);
  IvmCheckpoint r = read_checkpoint(path);
  REQUIRE(r.open_floor);
  CHECK(*r.open_floor == -3602);
  CHECK(r.state == c.state);
  // The floor is under the checksum: changed, the file is refused.
  std::string bytes = slurp(path);
  const size_t at = bytes.find("open-floor -3602");
  REQUIRE(at != std::string::npos);
  bytes[at + 12] = '4';
  std::ofstream(path, std::ios::binary) << bytes;
  CHECK_THROWS_WITH(read_checkpoint(path), Catch::Contains("damaged"));
}

TEST_CASE("a damaged or foreign file is refused with its name", "[ivm][checkpoint]") {
  std::string path = temp_path("damaged.ckpt");
  write_checkpoint(path, sample());
  std::string bytes = slurp(path);

  std::string flipped = bytes;
  flipped[flipped.size() - 2] ^= 1;
  std::ofstream(path, std::ios::binary) << flipped;
  CHECK_THROWS_WITH(read_checkpoint(path), Catch::Contains(path) && Catch::Contains("checksum"));

  std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() - 10);
  CHECK_THROWS_WITH(read_checkpoint(path), Catch::Contains("damaged checkpoint"));

  std::ofstream(path, std::ios::binary) << "[problem]\nname = \"x\"\n";
  CHECK_THROWS_WITH(read_checkpoint(path), Catch::Contains("not a permjit ivm checkpoint"));

  CHECK_THROWS_WITH(read_checkpoint(temp_path("absent.ckpt")), Catch::Contains("cannot read the checkpoint"));
}

TEST_CASE("one byte changed anywhere, header included, is reported as damage", "[ivm][checkpoint]") {
  // A changed byte in the header's source digest used to read as "the generated code
  // differs: another spec, instance or --param".
  std::string path = temp_path("flipped.ckpt");
  write_checkpoint(path, sample());
  const std::string bytes = slurp(path);
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string flipped = bytes;
    flipped[i] ^= 0x04;
    std::ofstream(path, std::ios::binary) << flipped;
    INFO("byte " << i << " of " << bytes.size());
    CHECK_THROWS_WITH(read_checkpoint(path), Catch::Contains(path) && Catch::Contains("damaged"));
  }
}

TEST_CASE("a checkpoint of another spec, instance, version or setting is refused", "[ivm][checkpoint]") {
  IvmRunIdentity saved = sample().id;
  IvmRunIdentity now = saved;
  CHECK(resume_mismatch(saved, now).empty());
  now.source = "other";
  CHECK_THAT(resume_mismatch(saved, now), Catch::Contains("another spec, instance or --param") &&
                                              Catch::Contains("problems/atsp.toml with br17.atsp"));
  now = saved;
  now.version = "0.2.0";
  CHECK_THAT(resume_mismatch(saved, now), Catch::Contains("permjit version: the checkpoint has 0.1.0, this run 0.2.0"));
  now = saved;
  now.explorers = 8192;
  CHECK_THAT(resume_mismatch(saved, now), Catch::Contains("explorers"));
  now = saved;
  now.ub = "40";
  CHECK_THAT(resume_mismatch(saved, now), Catch::Contains("--ub: the checkpoint has 39, this run 40"));
}

TEST_CASE("the source identity ignores comments and #line, not code", "[ivm][checkpoint]") {
  std::string a = "#line 3 \"a.toml\"\n// banner a\nint x = 1;  // from line 3\n";
  std::string b = "#line 9 \"moved/b.toml\"\n// banner b\nint x = 1;  // from line 9\n";
  std::string c = "#line 3 \"a.toml\"\n// banner a\nint x = 2;  // from line 3\n";
  CHECK(source_identity(a) == source_identity(b));
  CHECK(source_identity(a) != source_identity(c));
}
