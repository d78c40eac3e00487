/*
 * Native baseline for the rank-table build (bench/table.ts compiles and runs it): the same product-set iteration
 * as assembly/rank.ts rankBlocks (f32 values, blocks of B^4 surfaces, per move a byte per block and runs of legal
 * offsets), parallelised over blocks with OpenMP. It reads the plan that src/kernels/rank-plan.ts makes (written by
 * bench/table.ts), so both builds run exactly the same moves.
 *
 *   rank build PLAN_FILE ITERATIONS OUT_FILE   r_k for every surface, written as u16 (round(v / max * 65535))
 *   rank stream MIB REPEATS                    memory bandwidth: a streaming read and a streaming copy
 *
 * Prints one JSON line. Build: gcc -O3 -march=native -fopenmp rank.c -o rank
 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  *len = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void *buf = malloc(*len);
  if (fread(buf, 1, *len, f) != *len) { perror(path); exit(2); }
  fclose(f);
  return buf;
}

/* Plan file: i32 header [lo, hi, moves, runs, surfaces], then i32 pieceEnd[7], delta[moves], runFirst[moves],
 * runCount[moves], runs[2 * runs], then u8 hiOk[moves * hi]. */
static int build(const char *planPath, int iterations, const char *outPath) {
  double t0 = now_ms();
  size_t len;
  int32_t *p = read_all(planPath, &len);
  const int lo = p[0], hi = p[1], moves = p[2], nruns = p[3];
  const int64_t size = (int64_t)lo * hi;
  const int32_t *pieceEnd = p + 5, *delta = pieceEnd + 7, *runFirst = delta + moves, *runCount = runFirst + moves;
  const int32_t *runs = runCount + moves;
  const uint8_t *hiOk = (const uint8_t *)(runs + 2 * nruns);
  float *buf[2] = {malloc(size * sizeof(float)), malloc(size * sizeof(float))};
  for (int64_t i = 0; i < size; i++) buf[0][i] = 1.0f;
  double setup = now_ms() - t0;
  double iter_ms[1024];
  for (int k = 0; k < iterations; k++) {
    double ts = now_ms();
    const float *prev = buf[k & 1];
    float *next = buf[(k + 1) & 1];
#pragma omp parallel
    {
      float *acc = aligned_alloc(64, lo * sizeof(float)), *tmp = aligned_alloc(64, lo * sizeof(float)), *pair = aligned_alloc(64, lo * sizeof(float));
#pragma omp for schedule(dynamic, 16)
      for (int h = 0; h < hi; h++) {
        const int64_t base = (int64_t)h * lo;
        memset(acc, 0, lo * sizeof(float));
        int move = 0;
        for (int piece = 0; piece < 7; piece++) {
          memset(tmp, 0, lo * sizeof(float));
          for (; move < pieceEnd[piece]; move++) {
            if (!hiOk[(int64_t)move * hi + h]) continue;
            const float *src = prev + base + delta[move];
            for (int r = runFirst[move]; r < runFirst[move] + runCount[move]; r++) {
              const int start = runs[2 * r], n = runs[2 * r + 1];
              for (int i = start; i < start + n; i++) tmp[i] = tmp[i] > src[i] ? tmp[i] : src[i];
            }
          }
          /* Mirror pairs (S, Z) and (L, J) summed first, as the wasm kernel does (pieces 3/4 and 5/6). */
          if (piece == 3) memcpy(pair, tmp, lo * sizeof(float));
          else if (piece == 4 || piece == 6) for (int i = 0; i < lo; i++) acc[i] += pair[i] + tmp[i];
          else if (piece == 5) memcpy(pair, tmp, lo * sizeof(float));
          else for (int i = 0; i < lo; i++) acc[i] += tmp[i];
        }
        for (int i = 0; i < lo; i++) next[base + i] = acc[i] * (1.0f / 7.0f);
      }
      free(acc); free(tmp); free(pair);
    }
    iter_ms[k] = now_ms() - ts;
  }
  const float *r = buf[iterations & 1];
  float max = 0;
  for (int64_t i = 0; i < size; i++) if (r[i] > max) max = r[i];
  uint16_t *q = (uint16_t *)buf[(iterations + 1) & 1];
  for (int64_t i = 0; i < size; i++) q[i] = (uint16_t)(r[i] / max * 65535.0f + 0.5f);
  FILE *f = fopen(outPath, "wb");
  if (!f || fwrite(q, 2, size, f) != (size_t)size) { perror(outPath); return 2; }
  fclose(f);
  printf("{\"threads\":%d,\"setupMs\":%.1f,\"iterationMs\":[", omp_get_max_threads(), setup);
  for (int k = 0; k < iterations; k++) printf("%s%.2f", k ? "," : "", iter_ms[k]);
  printf("],\"totalMs\":%.1f,\"flat\":%.7f}\n", now_ms() - t0, r[(size - 1) / 2]);
  return 0;
}

/* Streaming read (sum) and streaming copy over a buffer of `mib` MiB, best of `repeats`, in GB/s. */
static int stream(int mib, int repeats) {
  const int64_t n = (int64_t)mib * 1024 * 1024 / 8;
  uint64_t *a = malloc(n * 8), *b = malloc(n * 8);
#pragma omp parallel for
  for (int64_t i = 0; i < n; i++) a[i] = b[i] = (uint64_t)i;
  double bestRead = 1e30, bestCopy = 1e30;
  uint64_t sink = 0;
  for (int r = 0; r < repeats; r++) {
    double t = now_ms();
    uint64_t s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int64_t i = 0; i < n; i++) s += a[i];
    sink += s;
    double read = now_ms() - t;
    t = now_ms();
#pragma omp parallel for
    for (int64_t i = 0; i < n; i++) b[i] = a[i];
    double copy = now_ms() - t;
    if (read < bestRead) bestRead = read;
    if (copy < bestCopy) bestCopy = copy;
  }
  const double bytes = (double)n * 8;
  printf("{\"threads\":%d,\"mib\":%d,\"readGBs\":%.2f,\"copyGBs\":%.2f,\"sink\":%llu}\n", omp_get_max_threads(), mib, bytes / bestRead / 1e6,
         2 * bytes / bestCopy / 1e6, (unsigned long long)(sink & 1));
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "build")) return build(argv[2], atoi(argv[3]), argv[4]);
  if (argc == 4 && !strcmp(argv[1], "stream")) return stream(atoi(argv[2]), atoi(argv[3]));
  fprintf(stderr, "usage: rank build PLAN ITERATIONS OUT | rank stream MIB REPEATS\n");
  return 1;
}
