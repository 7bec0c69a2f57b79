// The on-disk cache of compiled modules. The key names everything that changes the
// binary; files are written under a temporary name and renamed, and an entry whose
// content hash does not match is recompiled, never trusted.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace permjit {

// $PERMJIT_CACHE_DIR, else $XDG_CACHE_HOME/permjit, else ~/.cache/permjit.
std::string default_cache_dir();

// A hex digest of all parts (each length-prefixed, so parts cannot run together).
std::string cache_key(const std::vector<std::string>& parts);

class ModuleCache {
 public:
  explicit ModuleCache(std::string dir);
  const std::string& dir() const { return dir_; }
  // The path of a valid entry, or nullopt (absent, or corrupt: then it is removed).
  std::optional<std::string> lookup(const std::string& key, const std::string& ext) const;
  // Removes the entry for key (one found damaged by a check lookup cannot make).
  void drop(const std::string& key, const std::string& ext) const;
  // Moves `tmp_path` into the cache as the entry for key and records its hash.
  std::string store(const std::string& key, const std::string& ext, const std::string& tmp_path) const;
  // A fresh temporary path inside the cache directory (same file system: rename works).
  std::string temp_path(const std::string& ext) const;

 private:
  std::string dir_;
};

// The digest of a file's bytes, or empty if it cannot be read.
std::string file_digest(const std::string& path);
// Writes text atomically (temporary file + rename). Returns false on failure.
bool write_file_atomic(const std::string& path, const std::string& text);

}  // namespace permjit
