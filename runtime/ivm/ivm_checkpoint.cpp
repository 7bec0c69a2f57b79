#include "runtime/ivm/ivm_checkpoint.hpp"

#include <fstream>
#include <iterator>
#include <string_view>
#include <sstream>
#include <stdexcept>

#include "runtime/compile/cache.hpp"  // write_file_atomic
#include "runtime/distributed/checkpoint_fields.hpp"

namespace permjit {

namespace {
// Format 2: the checksum covers the header too, so that a damaged byte anywhere is
// reported as damage, not as a checkpoint of another run.
constexpr const char* kMagic = "permjit-ivm-checkpoint 2";
constexpr const char* kMagicFormat1 = "permjit-ivm-checkpoint 1";


}  // namespace


void write_checkpoint(const std::string& path, const IvmCheckpoint& c) {
  std::ostringstream h;
  h << kMagic << '\n'
    << "version " << one_line(c.id.version) << '\n'
    << "problem " << one_line(c.id.problem) << '\n'
    << "spec " << one_line(c.id.spec_path) << '\n'
    << "instance " << one_line(c.id.instance_path.empty() ? "-" : c.id.instance_path) << '\n'
    << "source " << c.id.source << '\n'
    << "levels " << c.id.levels << '\n'
    << "explorers " << c.id.explorers << '\n'
    << "mask-bytes " << c.id.mask_bytes << '\n'
    << "goal " << c.id.goal << '\n'
    << "ub " << c.id.ub << '\n'
    << "elapsed " << c.elapsed << '\n'
    << "rounds " << c.rounds << '\n';
  if (c.open_floor) h << "open-floor " << *c.open_floor << '\n';
  h << "results-bytes " << c.results.size() << '\n'
    << "state-bytes " << c.state.size() << '\n';
  // The checksum line is the header's last: it covers every byte before it and the data.
  const std::string data = c.results + c.state;
  const std::string header = h.str() + "checksum " + checkpoint_checksum(h.str(), data) + "\n\n";
  if (!write_file_atomic(path, header + data))
    throw std::runtime_error("cannot write the checkpoint " + path);
}

IvmCheckpoint read_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the checkpoint " + path);
  const std::string file(std::istreambuf_iterator<char>(in), {});
  return parse_checkpoint(file, path);
}

IvmCheckpoint parse_checkpoint(const std::string& file, const std::string& path) {
  CheckpointFields f(path);
  const std::string_view text(file);
  const size_t first_end = text.find('\n');
  const std::string_view first = text.substr(0, first_end);
  if (first == kMagicFormat1)
    throw std::runtime_error(path + ": a checkpoint of an older permjit (format 1), which this one does not read");
  if (first != kMagic)
    throw std::runtime_error(path + ": not a permjit ivm checkpoint, or a damaged one (its first line is not '" +
                             kMagic + "')");
  // Header lines up to the empty one; the checksum line is the last of them.
  size_t at = first_end + 1, checksum_at = std::string::npos, data_at = std::string::npos;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    if (end == std::string_view::npos) break;
    const std::string line(text.substr(at, end - at));
    if (line.empty()) {
      data_at = end + 1;
      break;
    }
    if (line.rfind("checksum ", 0) == 0) checksum_at = at;
    f.add_line(line);
    at = end + 1;
  }
  if (data_at == std::string::npos || checksum_at == std::string::npos) throw f.damaged("its header is incomplete");
  const std::string_view data = text.substr(data_at);
  if (checkpoint_checksum(text.substr(0, checksum_at), data) != f.text("checksum"))
    throw f.damaged("the checksum does not match its contents");
  IvmCheckpoint c;
  c.id.version = f.text("version");
  c.id.problem = f.text("problem");
  c.id.spec_path = f.text("spec");
  c.id.instance_path = f.text("instance") == "-" ? "" : f.text("instance");
  c.id.source = f.text("source");
  c.id.levels = static_cast<int>(f.number("levels"));
  c.id.explorers = f.number("explorers");
  c.id.mask_bytes = static_cast<int>(f.number("mask-bytes"));
  c.id.goal = f.text("goal");
  c.id.ub = f.text("ub");
  c.rounds = f.number("rounds");
  c.elapsed = f.real("elapsed");
  if (f.has("open-floor")) c.open_floor = f.integer("open-floor");
  const unsigned long long results = f.number("results-bytes"), state = f.number("state-bytes");
  if (results > data.size() || state != data.size() - results)
    throw f.damaged("the data is not as long as its header says");
  c.results = std::string(data.substr(0, results));
  c.state = std::string(data.substr(results));
  return c;
}

std::string resume_mismatch(const IvmRunIdentity& saved, const IvmRunIdentity& now) {
  ResumeMismatch m(saved, now);
  m.differs("levels", std::to_string(saved.levels), std::to_string(now.levels));
  m.differs("explorers (--explorers)", std::to_string(saved.explorers), std::to_string(now.explorers));
  m.differs("set size in bytes", std::to_string(saved.mask_bytes), std::to_string(now.mask_bytes));
  return m.lines();
}

}  // namespace permjit
