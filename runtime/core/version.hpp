#pragma once
namespace permjit {
// Part of every cache key: a new version never reuses an older build's modules.
inline constexpr const char* kPermjitVersion = "0.1.0";
}  // namespace permjit
