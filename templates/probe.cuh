// A probe kernel over the generated problem: each thread dives from the root, always
// taking its (threadIdx.x mod candidates)-th candidate, and sums the bounds it meets.
// It instantiates every function a skeleton uses, so NVRTC compiles (and `emit --stage
// ptx` shows) the problem's device code; it is not a search.
extern "C" __global__ void pj_probe(long long* out) {
  problem::Node s;
  problem::root(s);
  long long acc = 0;
  int depth = problem::kPrefixLength;
  for (; depth < problem::kSize; ++depth) {
    problem::Mask m = problem::candidates(s);
    if (m == 0) break;
    int skip = threadIdx.x % pj::popcount(m);
    for (int k = 0; k < skip; ++k) m &= m - 1;
    problem::Node c;
    problem::place(s, pj::lowest(m), c);
    acc += problem::bound(c);
    s = c;
  }
  if (depth == problem::kSize) acc += problem::objective(s);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The problem's functions compiled on their own (not inlined), so their PTX can be read
// and checked: the generator promises branch-free evaluation and update code.
extern "C" __device__ __noinline__ void pj_place_of(const problem::Node& p, int v, problem::Node& c) {
  problem::place(p, v, c);
}
extern "C" __device__ __noinline__ int pj_bound_of(const problem::Node& s) { return problem::bound(s); }
extern "C" __device__ __noinline__ problem::Mask pj_candidates_of(const problem::Node& s) {
  return problem::candidates(s);
}
#ifdef PJ_TWO_ENDS
extern "C" __device__ __noinline__ void pj_place_back_of(const problem::Node& p, int v, problem::Node& c) {
  problem::place_back(p, v, c);
}
#endif
extern "C" __global__ void pj_probe_functions(const problem::Node* in, problem::Node* out, int* bounds,
                                              problem::Mask* cands) {
  problem::Node c;
  pj_place_of(in[threadIdx.x], threadIdx.x % problem::kSize, c);
#ifdef PJ_TWO_ENDS
  pj_place_back_of(c, (threadIdx.x + 1) % problem::kSize, c);
#endif
  out[threadIdx.x] = c;
  bounds[threadIdx.x] = pj_bound_of(c);
  cands[threadIdx.x] = pj_candidates_of(c);
}
