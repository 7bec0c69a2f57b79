// The cdp/rec memory analysis (Carneiro Pessoa et al. 2018 Algorithm 3): the bound on d_gpu descendants,
// the bytes a chunk needs, the largest chunk within 70% of free memory, and the refusal
// of a d_gpu whose single block does not fit.
#include <catch2/catch.hpp>

#include "runtime/backtrack/cdp_memory_plan.hpp"

using namespace permjit;

namespace {
// N-Queens 17 with 12-byte nodes, d_cpu 5, d_gpu 7, on a device with 1 GiB free.
CdpMemoryInput queens17() {
  CdpMemoryInput in;
  in.size = 17;
  in.prefix_length = 0;
  in.dcpu = 5;
  in.dgpu = 7;
  in.survivors = 100000;
  in.node_bytes = 12;
  in.prefix_bytes = 0;
  in.block = 128;
  in.child_grids = 2;
  in.free_bytes = size_t(1) << 30;
  return in;
}
}  // namespace

TEST_CASE("cdp plan: expected children are (N-d_cpu)!/(N-d_gpu)!, max_cpu and max_gpu as in Algorithm 3",
          "[cdp_plan]") {
  CdpMemoryPlan p = plan_cdp_memory(queens17());
  CHECK(p.expected_children == 12 * 11);
  CHECK(p.max_cpu == Approx(17.0 * 16 * 15 * 14 * 13));
  CHECK(p.max_gpu == Approx(17.0 * 16 * 15 * 14 * 13 * 12 * 11));
  CHECK(p.max_gpu / p.max_cpu == Approx(double(p.expected_children)));

  CdpMemoryInput atsp = queens17();
  atsp.prefix_length = 1;  // city 0 fixed: (N-1)!/(N-d)! as in the paper
  atsp.dcpu = 6;
  atsp.dgpu = 8;
  CdpMemoryPlan a = plan_cdp_memory(atsp);
  CHECK(a.max_cpu == Approx(16.0 * 15 * 14 * 13 * 12));
  CHECK(a.expected_children == 11 * 10);
}

TEST_CASE("cdp plan: a frontier that fits is one chunk, with its active sets and launches counted", "[cdp_plan]") {
  CdpMemoryInput in = queens17();
  CdpMemoryPlan p = plan_cdp_memory(in);
  CHECK(p.chunk == in.survivors);
  CHECK(p.blocks == (in.survivors + 127) / 128);
  CHECK(p.a_gpu_nodes == p.blocks * 128 * 132);
  CHECK(p.bytes >= p.a_gpu_nodes * 12 + in.survivors * 12);
  CHECK(p.bytes <= p.budget);
  CHECK(p.budget == size_t(double(in.free_bytes) * 0.7));
  CHECK(p.pending_launches == p.blocks * 2);
  in.child_grids = 0;  // rec launches nothing from the device
  CHECK(plan_cdp_memory(in).pending_launches == 0);
}

TEST_CASE("cdp plan: the chunk shrinks to the largest that fits 70% of free memory", "[cdp_plan]") {
  CdpMemoryInput in = queens17();
  in.survivors = 10'000'000;
  CdpMemoryPlan p = plan_cdp_memory(in);
  REQUIRE(p.chunk < in.survivors);
  CHECK(p.chunk % 128 == 0);
  CHECK(p.bytes <= p.budget);
  // One more block of d_cpu nodes would not fit.
  CdpMemoryInput more = in;
  more.free_bytes = size_t(double(in.free_bytes) * 0.999);
  CHECK(plan_cdp_memory(more).chunk <= p.chunk);
  const double per_block = 128.0 * 12 * (1 + 132) + 12;
  CHECK(double(p.bytes) + per_block > double(p.budget));

  in.max_chunk = 1000;  // --max-chunk lowers it further
  CHECK(plan_cdp_memory(in).chunk == 1000);
  CHECK(plan_cdp_memory(in).blocks == 8);
}

TEST_CASE("cdp plan: optimisation goals keep the placed values with every node", "[cdp_plan]") {
  CdpMemoryInput in = queens17();
  CdpMemoryPlan without = plan_cdp_memory(in);
  in.prefix_bytes = 17;
  CdpMemoryPlan with = plan_cdp_memory(in);
  CHECK(with.bytes > without.bytes + with.a_gpu_nodes * 17 - 1);
}

TEST_CASE("cdp plan: d_gpu = d_cpu stores each root once", "[cdp_plan]") {
  CdpMemoryInput in = queens17();
  in.dgpu = in.dcpu;
  CdpMemoryPlan p = plan_cdp_memory(in);
  CHECK(p.expected_children == 1);
  CHECK(p.a_gpu_nodes == p.blocks * 128);
}

TEST_CASE("cdp plan: a d_gpu whose one block does not fit is refused with what to change", "[cdp_plan][errors]") {
  CdpMemoryInput in = queens17();
  in.dcpu = 2;
  in.dgpu = 8;  // 15*14*13*12*11*10 = 3.6e6 nodes per thread: 5.5 GB a block
  try {
    plan_cdp_memory(in);
    FAIL("no error");
  } catch (const CdpMemoryError& e) {
    CHECK_THAT(e.what(), Catch::Contains("one block's active set at d_gpu = 8"));
    CHECK_THAT(e.what(), Catch::Contains("lower --dgpu"));
  }
  in.dgpu = 12;  // more slots than a 32-bit block counter holds
  CHECK_THROWS_WITH(plan_cdp_memory(in), Catch::Contains("more than 2^32 nodes"));
}
