// malloc-count: an LD_PRELOAD library that counts the allocations a process makes (malloc,
// calloc, realloc, aligned allocations) and prints the total to stderr at exit, for
// malloc-count.sh. It forwards every call to the C library's own allocator.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void* __libc_malloc(size_t);
extern void* __libc_calloc(size_t, size_t);
extern void* __libc_realloc(void*, size_t);
extern void* __libc_memalign(size_t, size_t);

static atomic_ulong allocations;
/// MALLOC_COUNT_TRACE=K: print the stack of allocations K+1 ... K+20 (to find what allocates).
static long traceAfter = -2;
static __thread int inTrace;

static void count(void) {
    unsigned long n = atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    if (traceAfter == -2) { const char* v = getenv("MALLOC_COUNT_TRACE"); traceAfter = v ? atol(v) : -1; }
    if (traceAfter < 0 || inTrace || n < (unsigned long)traceAfter || n >= (unsigned long)traceAfter + 20) return;
    inTrace = 1;
    void* frames[24];
    int depth = backtrace(frames, 24);
    (void)!write(2, "malloc-count: trace\n", 20);
    backtrace_symbols_fd(frames, depth, 2);
    inTrace = 0;
}

void* malloc(size_t n) { count(); return __libc_malloc(n); }
void* calloc(size_t c, size_t n) { count(); return __libc_calloc(c, n); }
void* realloc(void* p, size_t n) { count(); return __libc_realloc(p, n); }
void* memalign(size_t a, size_t n) { count(); return __libc_memalign(a, n); }
void* aligned_alloc(size_t a, size_t n) { return memalign(a, n); }
int posix_memalign(void** out, size_t a, size_t n) {
    void* p = memalign(a, n);
    if (!p) return 12;
    *out = p;
    return 0;
}

__attribute__((destructor)) static void report(void) {
    char line[96];
    int len = snprintf(line, sizeof line, "malloc-count: %lu allocations\n", atomic_load(&allocations));
    if (len > 0) (void)!write(2, line, (size_t)len);
}
