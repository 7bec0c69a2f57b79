#include "runtime/distributed/range_checkpoint.hpp"

#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "runtime/compile/cache.hpp"
#include "runtime/distributed/checkpoint_fields.hpp"

namespace permjit {

namespace {
constexpr const char* kMagic = "permjit cpu-ranges checkpoint 1";
}  // namespace

void write_range_checkpoint(const std::string& path, const RangeCheckpoint& c) {
  std::ostringstream h;
  h << kMagic << '\n'
    << "version " << one_line(c.id.version) << '\n'
    << "problem " << one_line(c.id.problem) << '\n'
    << "spec " << one_line(c.id.spec_path) << '\n'
    << "instance " << one_line(c.id.instance_path) << '\n'
    << "source " << c.id.source << '\n'
    << "goal " << c.id.goal << '\n'
    << "ub " << c.id.ub << '\n'
    << "split_depth " << c.id.split_depth << '\n'
    << "frontier_nodes " << c.id.frontier_nodes << '\n'
    << "elapsed " << c.elapsed << '\n'
    << "expanded " << c.expanded << '\n'
    << "evaluated " << c.evaluated << '\n'
    << "solutions " << c.solutions << '\n'
    << "found " << (c.found ? 1 : 0) << '\n'
    << "best " << c.best << '\n'
    << "perm";
  for (int v : c.perm) h << ' ' << v;
  h << "\ndone " << c.done.size();
  for (const Range& r : c.done) h << ' ' << r.begin << ' ' << r.end;
  h << '\n';
  const std::string text = h.str() + "checksum " + checkpoint_checksum(h.str(), "") + "\n";
  if (!write_file_atomic(path, text)) throw std::runtime_error("cannot write the checkpoint " + path);
}

RangeCheckpoint read_range_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the checkpoint " + path);
  const std::string file(std::istreambuf_iterator<char>(in), {});
  CheckpointFields f(path);
  if (file.rfind(std::string(kMagic) + "\n", 0) != 0)
    throw std::runtime_error(path + ": not a permjit cpu checkpoint (its first line is not '" + kMagic + "')");
  const size_t checksum_at = file.rfind("checksum ");
  if (checksum_at == std::string::npos) throw f.damaged("no checksum line");
  std::string sum = file.substr(checksum_at + 9);
  while (!sum.empty() && (sum.back() == '\n' || sum.back() == '\r')) sum.pop_back();
  if (checkpoint_checksum(std::string_view(file).substr(0, checksum_at), "") != sum)
    throw f.damaged("the checksum does not match its contents");

  std::istringstream lines(file.substr(0, checksum_at));
  std::string line;
  std::getline(lines, line);  // the magic line
  while (std::getline(lines, line)) f.add_line(line);
  RangeCheckpoint c;
  c.id.version = f.text("version");
  c.id.problem = f.text("problem");
  c.id.spec_path = f.text("spec");
  c.id.instance_path = f.text("instance");
  c.id.source = f.text("source");
  c.id.goal = f.text("goal");
  c.id.ub = f.text("ub");
  // A checkpoint is input: every field a resume computes with is checked here, where
  // its damage is reported with the file's name, not later as an internal error.
  if (c.id.ub != "none") (void)f.integer("ub");
  c.id.split_depth = static_cast<int>(f.number("split_depth"));
  c.id.frontier_nodes = f.number("frontier_nodes");
  c.elapsed = f.real("elapsed");
  c.expanded = f.number("expanded");
  c.evaluated = f.number("evaluated");
  c.solutions = f.number("solutions");
  c.found = f.number("found") != 0;
  c.best = f.integer("best");
  std::istringstream perm(f.text("perm"));
  for (int v; perm >> v;) c.perm.push_back(v);
  if (!perm.eof()) throw f.damaged("'perm' is not a list of values");
  std::istringstream done(f.text("done"));
  size_t n = 0;
  if (!(done >> n)) throw f.damaged("'done' has no count");
  for (size_t i = 0; i < n; ++i) {
    Range r;
    if (!(done >> r.begin >> r.end) || r.begin >= r.end || r.end > c.id.frontier_nodes)
      throw f.damaged("a finished range is not within the frontier");
    if (!c.done.empty() && r.begin < c.done.back().end) throw f.damaged("the finished ranges overlap or are out of order");
    c.done.push_back(r);
  }
  return c;
}

std::string range_resume_mismatch(const RangeRunIdentity& saved, const RangeRunIdentity& now) {
  return ResumeMismatch(saved, now).lines();  // the split depth and frontier are the checkpoint's
}

}  // namespace permjit
