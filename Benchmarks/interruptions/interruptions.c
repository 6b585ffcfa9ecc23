// interruptions: how often this machine takes the CPU away from a running thread, and for how
// long. A busy loop reads CLOCK_MONOTONIC for the given seconds (default 2) and counts the gaps
// between two reads by length. Nothing in the loop waits, so every gap of more than a few
// microseconds is time the thread did not run: interrupts, the hypervisor, other processes.
// A frame of 0.1 ms drawn while one of these lands takes that much longer whatever it draws,
// so the counts put a run's p99 in context (issue 9). Prints one line.
// Usage: interruptions [seconds]
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
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
