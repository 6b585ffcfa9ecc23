// CLinux: the Linux calls Swift's Glibc module does not import: timerfd (its header is not in the
// module), prctl (variadic in C), the CPU affinity mask (GNU-only) and wmemset (wchar.h is not in
// the module); and C's float-to-integer conversion, which Swift has only with a range check.
// Static inline wrappers only; nothing else goes here.
#pragma once
#include <stdint.h>
#include <wchar.h>
#include <sys/timerfd.h>
#include <sys/prctl.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int CLinux_timerfd_create(int clockid, int flags) {
    return timerfd_create(clockid, flags);
}

static inline int CLinux_timerfd_settime(int fd, int flags, const struct itimerspec *value, struct itimerspec *old) {
    return timerfd_settime(fd, flags, value, old);
}

static inline int CLinux_TFD_TIMER_ABSTIME(void) { return TFD_TIMER_ABSTIME; }

static inline int CLinux_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0UL, 0UL, 0UL);
}

static inline int CLinux_get_timer_slack(void) {
    return prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
}

/// How many CPUs the calling thread may run on (its affinity mask: `taskset -c 0` gives 1), or 1
/// when the kernel does not say.
static inline int CLinux_available_cpus(void) {
    unsigned long mask[64] = {0};
    long bytes = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (bytes <= 0) return 1;
    int count = 0;
    for (long i = 0; i < bytes / (long)sizeof mask[0]; i++) count += __builtin_popcountl(mask[i]);
    return count > 0 ? count : 1;
}

/// Stores `value` into `count` 32-bit words at `words`: glibc's wmemset, which the library picks
/// for the CPU at load time (AVX2 or AVX-512 stores where the CPU has them). wchar_t is 32 bits
/// on Linux.
static inline void CLinux_fill32(uint32_t *words, uint32_t value, size_t count) {
    _Static_assert(sizeof(wchar_t) == sizeof(uint32_t), "wchar_t is 32 bits on Linux");
    wmemset((wchar_t *)words, (wchar_t)value, count);
}

/// `x` truncated toward zero in one instruction, for a value the caller has already put in
/// range (finite, within Int32): Swift's `Int(x)` adds a range check and a trap to every
/// conversion, which the rasterizer paid three times per edge and row and once per cell.
static inline int32_t CLinux_truncate(float x) { return (int32_t)x; }

typedef uint32_t CLinux_UInt32x8 __attribute__((ext_vector_type(8)));

/// Eight bytes at `p` (any alignment), each widened to a 32-bit lane: one vector zero-extension,
/// which the compiler lowers to unpacks wherever it is inlined. Built lane by lane in Swift, the
/// same widening became eight scalar shifts and masks where the bytes had also been loaded as
/// one 64-bit word; the standard library's SIMD `truncatingIfNeeded` stayed an out-of-line call.
static inline CLinux_UInt32x8 CLinux_widen8(const uint8_t *p) {
    typedef uint8_t Bytes8 __attribute__((ext_vector_type(8)));
    Bytes8 b;
    __builtin_memcpy(&b, p, 8);
    return __builtin_convertvector(b, CLinux_UInt32x8);
}

typedef uint32_t CLinux_UInt32x4 __attribute__((ext_vector_type(4)));

/// Four bytes at `p` (any alignment), each widened to a 32-bit lane (as CLinux_widen8).
static inline CLinux_UInt32x4 CLinux_widen4(const uint8_t *p) {
    typedef uint8_t Bytes4 __attribute__((ext_vector_type(4)));
    Bytes4 b;
    __builtin_memcpy(&b, p, 4);
    return __builtin_convertvector(b, CLinux_UInt32x4);
}
