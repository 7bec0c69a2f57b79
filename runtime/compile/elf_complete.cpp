#include "runtime/compile/elf_complete.hpp"

#include <elf.h>

#include <cstring>
#include <fstream>

namespace permjit {

bool elf_complete(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return false;
  const auto size = static_cast<unsigned long long>(in.tellg());
  Elf64_Ehdr h{};
  in.seekg(0);
  if (size < sizeof h || !in.read(reinterpret_cast<char*>(&h), sizeof h)) return false;
  if (std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0 || h.e_ident[EI_CLASS] != ELFCLASS64) return false;
  auto within = [&](unsigned long long at, unsigned long long n) { return at <= size && n <= size - at; };
  if (h.e_phentsize != sizeof(Elf64_Phdr) || !within(h.e_phoff, 1ull * h.e_phnum * h.e_phentsize)) return false;
  if (h.e_shnum && !within(h.e_shoff, 1ull * h.e_shnum * h.e_shentsize)) return false;
  for (unsigned i = 0; i < h.e_phnum; ++i) {
    Elf64_Phdr p{};
    in.seekg(static_cast<std::streamoff>(h.e_phoff + 1ull * i * sizeof p));
    if (!in.read(reinterpret_cast<char*>(&p), sizeof p)) return false;
    if (p.p_type == PT_LOAD && !within(p.p_offset, p.p_filesz)) return false;
  }
  return true;
}

}  // namespace permjit
