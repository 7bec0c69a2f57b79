// How fast one core runs when N cores are busy: each of N threads runs the same chain of
// dependent additions (one per cycle on any x86 core) and reports its rate, so that the
// rate with N = 16 against N = 1 is the clock the cores keep under load. Issue 22's
// ceiling for the `cpu` skeleton's scaling on the device's host (docs/performance.md).
//   cc -O2 -pthread -o clock_probe bench/cpu/clock_probe.c && ./clock_probe 16
// Prints one JSON line: threads, the iterations per thread, and each thread's rate in
// additions per nanosecond (about GHz).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const long kIterations = 2000000000L;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static pthread_barrier_t start;

static void* chain(void* out) {
  pthread_barrier_wait(&start);
  const double t0 = now();
  unsigned long x = 1;
  for (long i = 0; i < kIterations; ++i) {
    x += (unsigned long)i;
    __asm__ volatile("" : "+r"(x));  // keeps the chain: one dependent add per iteration
  }
  const double t = now() - t0;
  ((double*)out)[0] = kIterations / t * 1e-9;
  ((double*)out)[1] = (double)(x & 1);  // x is used
  return NULL;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 1;
  if (n < 1 || n > 1024) return 2;
  pthread_t* threads = malloc(sizeof(pthread_t) * (size_t)n);
  double* rates = calloc((size_t)n * 2, sizeof(double));
  pthread_barrier_init(&start, NULL, (unsigned)n);
  for (int i = 0; i < n; ++i) pthread_create(&threads[i], NULL, chain, &rates[2 * i]);
  for (int i = 0; i < n; ++i) pthread_join(threads[i], NULL);
  printf("{\"threads\": %d, \"iterations\": %ld, \"adds_per_ns\": [", n, kIterations);
  for (int i = 0; i < n; ++i) printf("%s%.4f", i ? ", " : "", rates[2 * i]);
  printf("]}\n");
  return 0;
}
