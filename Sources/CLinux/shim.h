// CLinux: the Linux calls Swift's Glibc module does not import: timerfd (its header is not in the
// module) and prctl (variadic in C). Static inline wrappers only; nothing else goes here.
#pragma once
#include <sys/timerfd.h>
#include <sys/prctl.h>
#include <time.h>

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
