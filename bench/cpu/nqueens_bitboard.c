/* A hand-written N-Queens counter: the reference for the `cpu` skeleton's one-thread
 * speed (issue 22). Recursive bitboard search over the same tree as
 * problems/nqueens.toml: row d takes a free column that neither diagonal attacks, and
 * every child generated counts as evaluated (leaves included), as permjit counts.
 *
 *   gcc -O3 -march=native -o nqueens_bitboard bench/cpu/nqueens_bitboard.c
 *   ./nqueens_bitboard 15      # one JSON line, in the shape of `permjit solve --json`
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef unsigned int mask;

static int n;
static unsigned long long evaluated, solutions;

static void search(mask free, mask ld, mask rd, int depth) {
  for (mask cand = free & ~(ld | rd); cand; cand &= cand - 1) {
    mask bit = cand & -cand;
    ++evaluated;
    if (depth + 1 == n) ++solutions;
    else search(free ^ bit, (ld | bit) << 1, (rd | bit) >> 1, depth + 1);
  }
}

int main(int argc, char** argv) {
  n = argc > 1 ? atoi(argv[1]) : 12;
  if (n < 1 || n > 32) {
    fprintf(stderr, "n must be in 1..32\n");
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  search(n == 32 ? ~0u : (1u << n) - 1, 0, 0, 0);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  printf("{\"problem\": \"nqueens-bitboard\", \"params\": {\"n\": %d}, \"threads\": 1, \"solutions\": %llu, "
         "\"nodes\": {\"expanded\": %llu, \"evaluated\": %llu}, \"time_s\": {\"search\": %.6f}, "
         "\"evaluated_per_s\": %.6g}\n",
         n, solutions, evaluated - solutions + 1, evaluated, s, s > 0 ? (double)evaluated / s : 0.0);
  return 0;
}
