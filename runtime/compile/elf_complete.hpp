// Whether a shared object holds every byte its ELF headers name. The module cache
// checks a file's content against the checksum it stored, but a file truncated and
// summed again (a copy cut short, a full disk during another tool's copy) passes that
// check: dlopen maps the missing pages, and the first read of them is SIGBUS. A
// module that is not complete is recompiled like any damaged entry.
#pragma once
#include <string>

namespace permjit {

bool elf_complete(const std::string& path);

}  // namespace permjit
