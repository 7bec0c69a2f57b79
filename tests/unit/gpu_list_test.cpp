// `--gpus all|N|LIST` (runtime/device/gpu_list.hpp): what each form names, and the located
// errors of values that name no GPU.
#include <catch2/catch.hpp>

#include "runtime/device/gpu_list.hpp"

using namespace permjit;

TEST_CASE("The GPU list of --gpus names the GPUs of this host", "[unit][gpus]") {
  CHECK(parse_gpu_list("", 2) == std::vector<int>{0});
  CHECK(parse_gpu_list("all", 3) == std::vector<int>{0, 1, 2});
  CHECK(parse_gpu_list("2", 4) == std::vector<int>{0, 1});
  CHECK(parse_gpu_list("1,3", 4) == std::vector<int>{1, 3});
  CHECK(parse_gpu_list("0,0", 1) == std::vector<int>{0, 0});  // two workers sharing GPU 0
}

TEST_CASE("GPU lists that name no GPU are refused at their place", "[unit][gpus]") {
  CHECK_THROWS_WITH(parse_gpu_list("3", 2), Catch::Contains("this host has 2 GPUs") && Catch::Contains("or all"));
  CHECK_THROWS_WITH(parse_gpu_list("0", 2), Catch::Contains("give at least 1"));
  CHECK_THROWS_WITH(parse_gpu_list("0,2", 2), Catch::Contains("there is no GPU 2") && Catch::Contains("1:10"));
  CHECK_THROWS_WITH(parse_gpu_list("0,x", 2), Catch::Contains("a list of GPU numbers") && Catch::Contains("1:10"));
  CHECK_THROWS_WITH(parse_gpu_list("1,", 2), Catch::Contains("a list of GPU numbers"));
  CHECK_THROWS_WITH(parse_gpu_list("two", 2), Catch::Contains("a list of GPU numbers"));
}
