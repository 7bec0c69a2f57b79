#include "runtime/range_checkpoint.hpp"

#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>

#include "runtime/cache.hpp"
#include "runtime/ivm_checkpoint.hpp"

namespace permjit {

namespace {
constexpr const char* kMagic = "permjit cpu-ranges checkpoint 1";

// Values are single words or paths; a newline would end the line early.
std::string one_line(const std::string& v) {
  std::string s = v;
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}
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
  auto damaged = [&](const std::string& why) { return std::runtime_error(path + ": damaged checkpoint: " + why); };
  if (file.rfind(std::string(kMagic) + "\n", 0) != 0)
    throw std::runtime_error(path + ": not a permjit cpu checkpoint (its first line is not '" + kMagic + "')");
  const size_t checksum_at = file.rfind("checksum ");
  if (checksum_at == std::string::npos) throw damaged("no checksum line");
  std::string sum = file.substr(checksum_at + 9);
  while (!sum.empty() && (sum.back() == '\n' || sum.back() == '\r')) sum.pop_back();
  if (checkpoint_checksum(std::string_view(file).substr(0, checksum_at), "") != sum)
    throw damaged("the checksum does not match its contents");

  std::map<std::string, std::string> kv;
  std::istringstream lines(file.substr(0, checksum_at));
  std::string line;
  std::getline(lines, line);  // the magic line
  while (std::getline(lines, line)) {
    const size_t sp = line.find(' ');
    kv[line.substr(0, sp)] = sp == std::string::npos ? "" : line.substr(sp + 1);
  }
  auto field = [&](const std::string& k) {
    auto it = kv.find(k);
    if (it == kv.end()) throw damaged("no '" + k + "' line");
    return it->second;
  };
  auto number = [&](const std::string& k) {
    try {
      return std::stoull(field(k));
    } catch (const std::logic_error&) {
      throw damaged("'" + k + "' is not a number");
    }
  };
  RangeCheckpoint c;
  c.id.version = field("version");
  c.id.problem = field("problem");
  c.id.spec_path = field("spec");
  c.id.instance_path = field("instance");
  c.id.source = field("source");
  c.id.goal = field("goal");
  c.id.ub = field("ub");
  c.id.split_depth = static_cast<int>(number("split_depth"));
  c.id.frontier_nodes = number("frontier_nodes");
  c.elapsed = std::stod(field("elapsed"));
  c.expanded = number("expanded");
  c.evaluated = number("evaluated");
  c.solutions = number("solutions");
  c.found = number("found") != 0;
  c.best = std::stoll(field("best"));
  std::istringstream perm(field("perm"));
  for (int v; perm >> v;) c.perm.push_back(v);
  std::istringstream done(field("done"));
  size_t n = 0;
  if (!(done >> n)) throw damaged("'done' has no count");
  for (size_t i = 0; i < n; ++i) {
    Range r;
    if (!(done >> r.begin >> r.end) || r.begin >= r.end || r.end > c.id.frontier_nodes)
      throw damaged("a finished range is not within the frontier");
    if (!c.done.empty() && r.begin < c.done.back().end) throw damaged("the finished ranges overlap or are out of order");
    c.done.push_back(r);
  }
  return c;
}

std::string range_resume_mismatch(const RangeRunIdentity& saved, const RangeRunIdentity& now) {
  std::string why;
  auto differs = [&](const std::string& what, const std::string& a, const std::string& b) {
    if (a != b) why += "  " + what + ": the checkpoint has " + a + ", this run " + b + "\n";
  };
  differs("permjit version", saved.version, now.version);
  differs("problem", saved.problem, now.problem);
  if (saved.source != now.source)
    why += "  the generated code differs: another spec, instance or --param (the checkpoint was written for " +
           saved.spec_path + (saved.instance_path.empty() ? "" : " with " + saved.instance_path) + ")\n";
  differs("goal", saved.goal, now.goal);
  differs("--ub", saved.ub, now.ub);
  return why;
}

}  // namespace permjit
