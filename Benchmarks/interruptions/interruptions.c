// interruptions: how often this machine takes the CPU away from a running thread, and for how
// long. A busy loop reads CLOCK_MONOTONIC for the given seconds (default 2) and counts the gaps
// between two reads by length. Nothing in the loop waits, so every gap of more than a few
// microseconds is time the thread did not run: interrupts, the hypervisor, other processes.
// A frame of 0.1 ms drawn while one of these lands takes that much longer whatever it draws,
// so the counts put a run's p99 in context (issue 9). Prints one line.
//
// With --frames N --work MS it times N frames of the same work instead (a busy loop calibrated
// to MS milliseconds a frame) and prints their p50 and p99 (nearest rank, as the player's
// summary): the p99 ÷ p50 a run of frames that never vary gets on this machine now, the best a
// run of the player's frames with that p50 can expect.
// Usage: interruptions [seconds]
//        interruptions --frames N --work MS
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static volatile unsigned sink;

// A chain of dependent multiply-adds: the same instructions every call, no memory traffic.
static void work(long n) {
    unsigned x = (unsigned)n;
    for (long k = 0; k < n; k++) x = x * 1664525u + 1013904223u;
    sink = x;
}

static int ascending(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

static double percentile(const double* sorted, int n, double p) {
    int rank = (int)(p * n + 0.999999) - 1;
    return sorted[rank < 0 ? 0 : rank >= n ? n - 1 : rank];
}

static int constantFrames(int frames, double ms) {
    // Iterations a millisecond from the fastest of a few timed batches (the others were interrupted).
    double fastest = 1e9;
    for (int i = 0; i < 50; i++) {
        double start = now();
        work(20000);
        double t = now() - start;
        if (t < fastest) fastest = t;
    }
    long iterations = (long)(ms * 1e-3 / fastest * 20000);
    double* times = malloc(sizeof(double) * (size_t)frames);
    if (!times) return 1;
    for (int i = 0; i < frames; i++) {
        double start = now();
        work(iterations);
        times[i] = now() - start;
    }
    qsort(times, (size_t)frames, sizeof(double), ascending);
    double p50 = percentile(times, frames, 0.5), p99 = percentile(times, frames, 0.99);
    printf("constant %.3f ms frames: p50 %.3f ms p99 %.3f ms (p99 / p50 %.2f), %d frames\n", ms, p50 * 1e3, p99 * 1e3, p99 / p50, frames);
    free(times);
    return 0;
}

int main(int argc, char** argv) {
    if (argc == 5 && strcmp(argv[1], "--frames") == 0 && strcmp(argv[3], "--work") == 0) {
        int frames = atoi(argv[2]);
        double ms = atof(argv[4]);
        if (!(frames > 0 && frames <= 1000000 && ms > 0 && ms <= 1000)) {
            fprintf(stderr, "interruptions: --frames in 1...1000000, --work in (0, 1000] ms\n");
            return 64;
        }
        return constantFrames(frames, ms);
    }
    double seconds = argc > 1 ? atof(argv[1]) : 2;
    if (!(seconds > 0 && seconds <= 60)) { fprintf(stderr, "interruptions: seconds in (0, 60]\n"); return 64; }
    static const double bounds[] = {20e-6, 50e-6, 100e-6, 500e-6};
    long counts[4] = {0};
    double start = now(), last = start, longest = 0;
    for (;;) {
        double t = now(), gap = t - last;
        last = t;
        if (t - start > seconds) break;
        if (gap > longest) longest = gap;
        for (int i = 0; i < 4; i++) if (gap >= bounds[i]) counts[i]++;
    }
    printf("interruptions per second: >=20 us %.0f, >=50 us %.0f, >=100 us %.0f, >=500 us %.0f; longest %.2f ms (busy loop, %.0f s)\n",
           counts[0] / seconds, counts[1] / seconds, counts[2] / seconds, counts[3] / seconds, longest * 1e3, seconds);
    return 0;
}
