#include "runtime/compile/cache.hpp"

#include <unistd.h>
#include <xxhash.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace permjit {

std::string default_cache_dir() {
  if (const char* d = std::getenv("PERMJIT_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/permjit";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/permjit";
  return "/tmp/permjit-cache-" + std::to_string(getuid());
}

namespace {
std::string hex128(XXH128_hash_t h) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return buf;
}
}  // namespace

std::string cache_key(const std::vector<std::string>& parts) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_128bits_reset(st);
  for (const auto& p : parts) {
    uint64_t n = p.size();
    XXH3_128bits_update(st, &n, sizeof n);
    XXH3_128bits_update(st, p.data(), p.size());
  }
  std::string key = hex128(XXH3_128bits_digest(st));
  XXH3_freeState(st);
  return key;
}

std::string file_digest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string bytes = ss.str();
  return hex128(XXH3_128bits(bytes.data(), bytes.size()));
}

bool write_file_atomic(const std::string& path, const std::string& text) {
  static std::atomic<int> counter{0};
  std::string tmp = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) return false;
    out << text;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return false;
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) std::remove(tmp.c_str());
  return !ec;
}

ModuleCache::ModuleCache(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
}

std::optional<std::string> ModuleCache::lookup(const std::string& key, const std::string& ext) const {
  std::string path = dir_ + "/" + key + ext;
  std::string sum = path + ".xxh";
  std::error_code ec;
  if (!fs::exists(path, ec) || !fs::exists(sum, ec)) return std::nullopt;
  std::ifstream in(sum);
  std::string expected;
  in >> expected;
  if (expected.empty() || expected != file_digest(path)) {
    // Corrupt or half-written by a crashed process: drop it and compile again.
    fs::remove(path, ec);
    fs::remove(sum, ec);
    return std::nullopt;
  }
  return path;
}

void ModuleCache::drop(const std::string& key, const std::string& ext) const {
  const std::string path = dir_ + "/" + key + ext;
  std::error_code ec;
  fs::remove(path, ec);
  fs::remove(path + ".xxh", ec);
}

std::string ModuleCache::store(const std::string& key, const std::string& ext, const std::string& tmp_path) const {
  std::string path = dir_ + "/" + key + ext;
  std::string digest = file_digest(tmp_path);
  std::error_code ec;
  fs::rename(tmp_path, path, ec);
  if (ec) return tmp_path;  // still usable, just not cached
  write_file_atomic(path + ".xxh", digest + "\n");
  return path;
}

std::string ModuleCache::temp_path(const std::string& ext) const {
  static std::atomic<int> counter{0};
  return dir_ + "/tmp-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ext;
}

}  // namespace permjit
