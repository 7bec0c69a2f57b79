// What the checkpoint formats share (runtime/ivm/ivm_checkpoint.cpp, range_checkpoint.cpp):
// the digests that name the run a checkpoint belongs to, its checksum, and header lines
// "key value", written one value per line and read back with every missing key or
// malformed number reported as damage, naming the file.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "generator/generate.hpp"

namespace permjit {

// A header value on one line: a newline in it (a path) would end the line early.
std::string one_line(const std::string& value);

// A digest of the generated code without comments or #line directives: it names the
// spec, the parameters and the sizes (and the instance data, when they are compiled
// in), not where files lie.
std::string source_identity(const std::string& generated_text);
// A digest of the run-time data arrays: with source_identity, the instance.
std::string data_identity(const std::vector<RunTimeArray>& data);

// The checksum line's value: XXH3 of the header before that line and of the data.
std::string checkpoint_checksum(std::string_view header, std::string_view data);

class CheckpointFields {
 public:
  explicit CheckpointFields(std::string path) : path_(std::move(path)) {}
  // One header line, "key value" (a key alone has the empty value).
  void add_line(const std::string& line);
  const std::string& text(const std::string& key) const;
  bool has(const std::string& key) const { return kv_.count(key) != 0; }
  unsigned long long number(const std::string& key) const;
  long long integer(const std::string& key) const;
  double real(const std::string& key) const;
  // "PATH: damaged checkpoint: why".
  std::runtime_error damaged(const std::string& why) const;

 private:
  std::string path_;
  std::map<std::string, std::string> kv_;
};

// How a run differs from the one that wrote a checkpoint, a line per field: first the
// fields every run identity has (permjit's version, the problem, the generated code,
// the goal, the start incumbent), then what a format adds with differs().
class ResumeMismatch {
 public:
  template <class Id>
  ResumeMismatch(const Id& saved, const Id& now) {
    differs("permjit version", saved.version, now.version);
    differs("problem", saved.problem, now.problem);
    if (saved.source != now.source)
      why_ += "  the generated code differs: another spec, instance or --param (the checkpoint was written for " +
              saved.spec_path + (saved.instance_path.empty() ? "" : " with " + saved.instance_path) + ")\n";
    differs("goal", saved.goal, now.goal);
    differs("--ub", saved.ub, now.ub);
  }
  void differs(const std::string& what, const std::string& saved, const std::string& now) {
    if (saved != now) why_ += "  " + what + ": the checkpoint has " + saved + ", this run " + now + "\n";
  }
  // Empty when the checkpoint continues this run.
  const std::string& lines() const { return why_; }

 private:
  std::string why_;
};

}  // namespace permjit
