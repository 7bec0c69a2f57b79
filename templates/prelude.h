// permjit prelude: the helpers generated problem code relies on. Compiles as host C++
// (CPU backend) and as CUDA (NVRTC); no STL, no exceptions, no heap.
#pragma once

#if defined(__CUDACC__)
#define PJ_HD __host__ __device__ __forceinline__
// A function whose unrolled body is large (generator/code_writer.hpp): compiled once and
// called, not inlined into every kernel (NVRTC's time grows with every copy).
#define PJ_HEAVY __host__ __device__ __noinline__
// Instance data: constant memory serves warp-uniform reads (e.g. tails indexed by a
// shared loop variable) at register speed.
#define PJ_DATA __constant__ const
// Tables past constant memory's 64 KiB: global memory, read through the caches.
#define PJ_DATA_GLOBAL __device__ const
// Instance data read at run time (dsl/run_time_data.hpp): declared here, written by the
// host when the module loads (runtime/device/run_time_data.hpp), read-only during the search,
// read through pj::run_time_value.
#define PJ_RUN_TIME_DATA __constant__
#define PJ_RUN_TIME_DATA_GLOBAL __device__
#else
#define PJ_HD inline
#define PJ_HEAVY inline
#define PJ_DATA static const
#define PJ_DATA_GLOBAL static const
#define PJ_RUN_TIME_DATA __attribute__((visibility("default")))
#define PJ_RUN_TIME_DATA_GLOBAL __attribute__((visibility("default")))
#endif

namespace pj {

enum class Goal { count, minimize, maximize, path };

template <class T>
PJ_HD T min(T a, T b) { return a < b ? a : b; }
template <class T>
PJ_HD T max(T a, T b) { return a < b ? b : a; }

// The goal's order, written once: every skeleton and the generated staged bound prune,
// record and tighten with these (docs/decisions.md, "The goal's order in the prelude").
// A count prunes as a maximisation would; its skeletons do not ask.
// A node whose bound is `bound` cannot lead to a leaf better than `best` (the two may be
// of different int types, compared as C++ compares them).
template <Goal G, class B, class T>
PJ_HD bool prunes(B bound, T best) { return G == Goal::minimize ? bound >= best : bound <= best; }
// `value` is better than `best`.
template <Goal G, class V, class T>
PJ_HD bool improves(V value, T best) { return G == Goal::minimize ? value < best : value > best; }
// The tighter of two bounds of one node.
template <Goal G, class T>
PJ_HD T tighter(T a, T b) { return G == Goal::minimize ? max<T>(a, b) : min<T>(a, b); }

PJ_HD int abs(int a) { return a < 0 ? -a : a; }
PJ_HD long long abs(long long a) { return a < 0 ? -a : a; }

// A read of an instance array uploaded when the module loads (PJ_RUN_TIME_DATA*): node
// code reads every element of one through this. NVVM keeps a plain load of a writable
// array in order with every other memory access, and spent 6x longer on flowshop's
// bound than with the values compiled in (0.96 s against 0.16 s); loaded here as a pure
// function of its address (nothing writes the arrays while a kernel runs), the same
// bound took about as long as the compiled one. Global memory (where the generator puts
// run-time arrays): the read-only cache (__ldg); constant memory: ld.const.
template <class T>
PJ_HD T run_time_value(const T& x) {
#if defined(__CUDA_ARCH__)
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "run-time arrays hold bytes, shorts or ints");
  if (!__isConstant(&x)) return __ldg(&x);
  int v;
  if constexpr (sizeof(T) == 4) {
    asm("ld.const.b32 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_constant(&x)));
  } else if constexpr (sizeof(T) == 2) {
    if constexpr (T(-1) < T(0)) asm("ld.const.s16 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_constant(&x)));
    else asm("ld.const.u16 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_constant(&x)));
  } else {
    if constexpr (T(-1) < T(0)) asm("ld.const.s8 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_constant(&x)));
    else asm("ld.const.u8 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_constant(&x)));
  }
  return static_cast<T>(v);
#else
  return x;
#endif
}

template <class M>
PJ_HD M bit(int i) { return M(1) << i; }
template <class M>
PJ_HD bool test(M s, int i) { return ((s >> i) & 1) != 0; }

PJ_HD int popcount(unsigned int x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}
PJ_HD int popcount(unsigned long long x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return __builtin_popcountll(x);
#endif
}

// Sets of more than 64 values (sizes 65..128) are one 128-bit word, which NVRTC takes
// with --device-int128 (runtime/compile/compile_unit.cpp passes it for such specs only).
#if !defined(__CUDACC_RTC__) || defined(__CUDACC_RTC_INT128__)
#define PJ_INT128 1
#endif
#if defined(PJ_INT128)
PJ_HD int popcount(unsigned __int128 x) {
  return popcount(static_cast<unsigned long long>(x)) + popcount(static_cast<unsigned long long>(x >> 64));
}
#endif

// Index of the lowest value in the set, -1 for the empty set.
PJ_HD int lowest(unsigned int x) {
#if defined(__CUDA_ARCH__)
  return __ffs(x) - 1;
#else
  return x ? __builtin_ctz(x) : -1;
#endif
}
PJ_HD int lowest(unsigned long long x) {
#if defined(__CUDA_ARCH__)
  return __ffsll(x) - 1;
#else
  return x ? __builtin_ctzll(x) : -1;
#endif
}

#if defined(PJ_INT128)
PJ_HD int lowest(unsigned __int128 x) {
  const unsigned long long lo = static_cast<unsigned long long>(x);
  const int high = lowest(static_cast<unsigned long long>(x >> 64));
  return lo != 0 ? lowest(lo) : (high < 0 ? -1 : 64 + high);
}
#endif

// A set of up to `Levels` small integers (bit k: k): 32, 64 or 128 bits, as it needs.
// No fallback: past 64 levels without a 128-bit type it is a compile error, not a word
// that drops levels.
template <int Words>
struct LevelSetOf;
template <>
struct LevelSetOf<1> {
  using type = unsigned;
};
template <>
struct LevelSetOf<2> {
  using type = unsigned long long;
};
#if defined(PJ_INT128)
template <>
struct LevelSetOf<4> {
  using type = unsigned __int128;
};
#endif
template <int Levels>
using LevelSet = typename LevelSetOf<(Levels > 64 ? 4 : Levels > 32 ? 2 : 1)>::type;

// Index of the highest value in the set, -1 for the empty set.
PJ_HD int highest(unsigned int x) {
#if defined(__CUDA_ARCH__)
  return 31 - __clz(x);
#else
  return x ? 31 - __builtin_clz(x) : -1;
#endif
}
PJ_HD int highest(unsigned long long x) {
#if defined(__CUDA_ARCH__)
  return 63 - __clzll(x);
#else
  return x ? 63 - __builtin_clzll(x) : -1;
#endif
}
#if defined(PJ_INT128)
PJ_HD int highest(unsigned __int128 x) {
  const unsigned long long hi = static_cast<unsigned long long>(x >> 64);
  return hi != 0 ? 64 + highest(hi) : highest(static_cast<unsigned long long>(x));
}
#endif

// Four bytes chosen from the eight of x (bytes 0-3) and y (bytes 4-7): byte i of the
// result is the one that nibble i of `selector` (0-7) names. One instruction on the device
// (the symmetry groups' image of a border, generator/emit_symmetry.cpp).
PJ_HD unsigned byte_perm(unsigned x, unsigned y, unsigned selector) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, y, selector);
#else
  const unsigned long long xy = static_cast<unsigned long long>(y) << 32 | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned>((xy >> (8 * ((selector >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
#endif
}

#if !defined(__CUDA_ARCH__)
// A mask blend, for `blend` on the host.
template <class T>
inline T select_bits(bool c, T a, T b) {
  const T m = T(0) - T(c);  // all ones when c
  return T((a & m) | (b & ~m));
}
inline bool select_bits(bool c, bool a, bool b) { return bool((c & a) | (!c & b)); }
#endif

// A select that stays a select: both operands are computed, then one is chosen. On
// the device it is PTX `selp`, which the compiler cannot turn back into a branch (NVVM
// would otherwise branch around an arm that loads memory).
template <class T>
PJ_HD T select(bool c, T a, T b) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == 16) {  // a 128-bit set: each half
    const unsigned long long lo = select<unsigned long long>(c, static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    const unsigned long long hi =
        select<unsigned long long>(c, static_cast<unsigned long long>(a >> 64), static_cast<unsigned long long>(b >> 64));
    return static_cast<T>(T(hi) << 64 | T(lo));
  } else if constexpr (sizeof(T) == 8) {
    unsigned long long r;
    asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tselp.b64 %0, %2, %3, p;\n\t}"
        : "=l"(r)
        : "r"(static_cast<unsigned>(c)), "l"(static_cast<unsigned long long>(a)), "l"(static_cast<unsigned long long>(b)));
    return static_cast<T>(r);
  } else {
    unsigned r;
    asm("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tselp.b32 %0, %2, %3, p;\n\t}"
        : "=r"(r)
        : "r"(static_cast<unsigned>(c)), "r"(static_cast<unsigned>(a)), "r"(static_cast<unsigned>(b)));
    return static_cast<T>(r);
  }
#else
  return c ? a : b;
#endif
}

// A select for the assignments of an `if` in a value or update block, whose condition
// is data (a job free or not): on the host a mask blend, since GCC branches around an
// arm that loads memory and such a branch mispredicts about half the time (the
// flowshop's Johnson scan ran 2x slower). Elsewhere `select`, whose conditions (a
// reduction's first element, say) are predictable and cheaper as branches on the host.
template <class T>
PJ_HD T blend(bool c, T a, T b) {
#if defined(__CUDA_ARCH__)
  return select<T>(c, a, b);
#else
  return select_bits(c, a, b);
#endif
}

// Defined arithmetic (docs/reliability.md), for operands the generator cannot prove
// safe: x / 0 == 0, x % 0 == x, INT_MIN / -1 == INT_MIN (it wraps), INT_MIN % -1 == 0;
// a shift by a count outside 0..width-1 gives 0, or for `>>` of an int its sign
// (-1 or 0). No branch: the divisor and the count are made safe, then a select.
PJ_HD int div(int a, int b) {
  const int q = a / select<int>(bool((b == 0) | (b == -1)), 1, b);
  return select<int>(b == 0, 0, select<int>(b == -1, static_cast<int>(0u - static_cast<unsigned>(a)), q));
}
PJ_HD int rem(int a, int b) {
  const int r = a % select<int>(bool((b == 0) | (b == -1)), 1, b);
  return select<int>(b == 0, a, r);
}
// The same for the 64-bit ints of a spec whose values may pass 32 bits.
PJ_HD long long div(long long a, long long b) {
  const long long q = a / select<long long>(bool((b == 0) | (b == -1)), 1, b);
  return select<long long>(b == 0, 0,
                           select<long long>(b == -1, static_cast<long long>(0ull - static_cast<unsigned long long>(a)), q));
}
PJ_HD long long rem(long long a, long long b) {
  const long long r = a % select<long long>(bool((b == 0) | (b == -1)), 1, b);
  return select<long long>(b == 0, a, r);
}
PJ_HD int shl(int x, int k) {
  const int r = static_cast<int>(static_cast<unsigned>(x) << (static_cast<unsigned>(k) & 31u));
  return select<int>(static_cast<unsigned>(k) < 32u, r, 0);
}
PJ_HD int shr(int x, int k) { return x >> select<int>(static_cast<unsigned>(k) < 32u, k & 31, 31); }
template <class M>
PJ_HD M shl_bits(M s, int k) {
  constexpr unsigned kWidth = sizeof(M) * 8;
  return select<M>(static_cast<unsigned>(k) < kWidth, M(s << (static_cast<unsigned>(k) & (kWidth - 1))), M(0));
}
template <class M>
PJ_HD M shr_bits(M s, int k) {
  constexpr unsigned kWidth = sizeof(M) * 8;
  return select<M>(static_cast<unsigned>(k) < kWidth, M(s >> (static_cast<unsigned>(k) & (kWidth - 1))), M(0));
}
// bit(i) and test(s, i) with i outside the word: the empty set and false.
template <class M>
PJ_HD M bit_any(int i) { return shl_bits<M>(M(1), i); }
template <class M>
PJ_HD bool test_any(M s, int i) { return (shr_bits<M>(s, i) & 1) != 0; }

// Dynamic indices that are not provably in bounds are clamped, so that reading the
// untaken arm of a select stays inside the array.
PJ_HD int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }
PJ_HD bool in_range(int i, int n) { return bool((i >= 0) & (i < n)); }

// PJ_INDEX(i, n, site, taken) is such an index. `site` numbers its place in the spec
// (ProblemSource::index_sites) and `taken` is true when the value read there counts:
// the conditions of the selects, set reductions, loop guards and `if` parts around it
// hold. A clamped read that counts is a mistake of the spec that would give a wrong
// answer without a word. In a checked build of the cpu module (PJ_CHECK_INDICES:
// `permjit solve --check-indices`) the first such read is recorded for the host, which
// reports it at its place; in every other build `taken` is not even computed.
#if defined(PJ_CHECK_INDICES) && !defined(__CUDACC__)
extern "C" {
__attribute__((visibility("default"))) int pj_index_fault_site = -1;
__attribute__((visibility("default"))) long long pj_index_fault_value = 0;
}
inline int checked_index(long long i, int n, int site, bool taken) {
  if (taken && (i < 0 || i >= n)) {
    int none = -1;
    if (__atomic_compare_exchange_n(&pj_index_fault_site, &none, site, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
      __atomic_store_n(&pj_index_fault_value, i, __ATOMIC_SEQ_CST);
  }
  return i < 0 ? 0 : (i >= n ? n - 1 : static_cast<int>(i));
}
#define PJ_INDEX(i, n, site, taken) pj::checked_index((i), (n), (site), (taken))
#else
#define PJ_INDEX(i, n, site, taken) pj::clamp_index((i), (n))
#endif

// A path problem's permutation (the board). Values of `Bits` bits packed in one 64-bit
// word when they fit: a child is the parent with two fields exchanged, computed in
// registers, where a byte array indexed by a run-time position would live in local
// memory. Larger permutations keep one byte per value behind the same interface.
template <int N, int Bits>
struct PackedPerm {
  static_assert(N * Bits <= 64, "the values fit one 64-bit word");
  static constexpr unsigned long long kField = (1ull << Bits) - 1;
  unsigned long long bits;
  PJ_HD int operator[](int i) const { return static_cast<int>((bits >> (Bits * i)) & kField); }
  PJ_HD void set(int i, int v) {
    bits = (bits & ~(kField << (Bits * i))) | (static_cast<unsigned long long>(v) << (Bits * i));
  }
  // Exchanges the values at positions a and b: their xor, put back at both places.
  PJ_HD void swap(int a, int b) {
    const unsigned long long x = ((bits >> (Bits * a)) ^ (bits >> (Bits * b))) & kField;
    bits ^= (x << (Bits * a)) | (x << (Bits * b));
  }
  PJ_HD bool operator==(const PackedPerm& o) const { return bits == o.bits; }
  // The position of value v (present once): the fields equal to v become zero, and the
  // lowest set bit of the has-a-zero-field test is that field's (a borrow reaches only
  // the fields above it). Pattern databases look up a few values' positions per node.
  // The lowest bit of every field: kField / ... as a sum of the geometric series 2^(Bits i).
  static constexpr unsigned long long kOnes =
      N * Bits == 64 ? ~0ull / kField : ((1ull << (N * Bits)) - 1) / kField;
  PJ_HD int find(int v) const {
    constexpr unsigned long long kHigh = kOnes << (Bits - 1);
    const unsigned long long x = bits ^ (kOnes * static_cast<unsigned long long>(v));
    return lowest((x - kOnes) & ~x & kHigh) / Bits;
  }
};

template <int N>
struct BytePerm {
  unsigned char v[N];
  PJ_HD int operator[](int i) const { return v[i]; }
  PJ_HD void set(int i, int x) { v[i] = static_cast<unsigned char>(x); }
  PJ_HD void swap(int a, int b) {
    const unsigned char t = v[a];
    v[a] = v[b];
    v[b] = t;
  }
  PJ_HD int find(int x) const {
    for (int i = 0; i < N; ++i)
      if (v[i] == x) return i;
    return 0;
  }
  PJ_HD bool operator==(const BytePerm& o) const {
    for (int i = 0; i < N; ++i)
      if (v[i] != o.v[i]) return false;
    return true;
  }
};

}  // namespace pj

// A test hook, not a feature (runtime/compile/device_fault_hook.hpp): a device unit compiled
// with PJ_TEST_DEVICE_FAULT=N traps in the N-th launch of a search kernel, counted over
// every kernel that calls PJ_TEST_FAULT_POINT() at its start, so that tests can see what
// a real device fault does to a run (the error, the exit status, the checkpoint). In
// every other build the point is nothing.
#if defined(__CUDACC__) && defined(PJ_TEST_DEVICE_FAULT)
__device__ unsigned pj_test_launches = 0;
#define PJ_TEST_FAULT_POINT()                                                        \
  do {                                                                               \
    if (blockIdx.x == 0 && threadIdx.x == 0 &&                                       \
        atomicAdd(&pj_test_launches, 1u) + 1u == static_cast<unsigned>(PJ_TEST_DEVICE_FAULT)) \
      __trap();                                                                      \
  } while (0)
#else
#define PJ_TEST_FAULT_POINT() ((void)0)
#endif
