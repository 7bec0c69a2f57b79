// The files of templates/, embedded in the binary at build time (cmake/EmbedFiles.cmake),
// so that permjit runs the same from any folder.
#pragma once
#include <span>
#include <string_view>

namespace permjit::embedded {

struct File {
  std::string_view name;
  std::string_view text;
};

std::span<const File> files();
// The text of templates/<name>; an internal error if it was not embedded.
std::string_view get(std::string_view name);

}  // namespace permjit::embedded
