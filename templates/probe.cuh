// A probe kernel over the generated problem: each thread dives from the root, always
// taking its (threadIdx.x mod candidates)-th candidate, and sums the bounds it meets.
// It instantiates every function a skeleton uses, so NVRTC compiles (and `emit --stage
// ptx` shows) the problem's device code; it is not a search.
extern "C" __global__ void pj_probe(long long* out) {
  problem::Node s;
  problem::root(s);
  long long acc = 0;
  for (int step = 0; step < problem::kSize; ++step) {
    problem::Mask m = problem::candidates(s);
    if (s.d == problem::kSize || m == 0) break;
    int skip = threadIdx.x % pj::popcount(m);
    for (int k = 0; k < skip; ++k) m &= m - 1;
    problem::Node c;
    problem::place(s, pj::lowest(m), c);
    acc += problem::bound(c);
    s = c;
  }
  if (s.d == problem::kSize) acc += problem::objective(s);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
