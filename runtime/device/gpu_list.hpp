// `--gpus all|N|LIST`: which GPUs of this host a run uses (the `ivm`, `ida` and `ida-thread` skeletons).
#pragma once
#include <string>
#include <vector>

namespace permjit {

// The device ordinals `text` names among `count` devices: "all"; N, the first N; or a
// comma-separated list of ordinals ("0,2"). Empty text: the first device. A value that
// names no device is the user's error at --gpus. A GPU listed twice runs two workers
// that share it: no faster, but the exchange between GPUs runs on a machine with one.
std::vector<int> parse_gpu_list(const std::string& text, int count);

}  // namespace permjit
