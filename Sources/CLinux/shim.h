// CLinux: the Linux calls Swift's Glibc module does not import: timerfd (its header is not in the
// module), prctl (variadic in C), the CPU affinity mask (GNU-only) and wmemset (wchar.h is not in
// the module); C's float-to-integer conversion, which Swift has only with a range check; and the
// few pixel loops that run on AVX2 where the CPU has it (Swift builds for baseline x86-64, which
// has no 256-bit integer vectors), each chosen at run time by CLinux_has_avx2; and posix_spawn's
// close-from action (GNU-only, so <spawn.h> hides it from Swift).
// Static inline functions only, and the one declaration they need; nothing else goes here.
#pragma once
#include <stdint.h>
#include <wchar.h>
#include <sys/timerfd.h>
#include <sys/prctl.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <math.h>
#include <spawn.h>

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

/// glibc 2.34's file action that closes every descriptor from `from` up in the child, declared
/// here because <spawn.h> declares it only under _GNU_SOURCE, which Swift's Glibc module is built
/// without.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// Adds to `actions` the closing of every descriptor from `from` up, so that a spawned child
/// holds only the descriptors it was given: one that inherits the write end of another
/// process's pipe keeps that pipe from ever reaching end-of-file. Returns 0 or an error number.
static inline int CLinux_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
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

/// The same for a double the caller has put in range (finite, within Int64): a gradient's ramp
/// index at every pixel it shades.
static inline int64_t CLinux_truncate_double(double x) { return (int64_t)x; }

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

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/// Whether the CPU has AVX2 and the system saves its registers (CPUID leaf 7, and the SSE and
/// AVX state enabled in XCR0): the AVX2 loops below may run.
static inline int CLinux_has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX)) return 0;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6 || __get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & bit_AVX2) != 0;
}

/// Every channel of eight pixels times the coverage in each lane, `(t + (t >> 8)) >> 8` with
/// `t = x * c + 128` per channel in 16-bit lanes: PixelMath.scale8's formula, so the same bits.
__attribute__((target("avx2")))
static inline __m256i CLinux_scale8_avx2(__m256i p, __m256i c) {
    const __m256i low = _mm256_set1_epi32(0x00FF00FF), round = _mm256_set1_epi16(128);
    __m256i c16 = _mm256_or_si256(c, _mm256_slli_epi32(c, 16));
    __m256i rb = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(p, low), c16), round);
    rb = _mm256_srli_epi16(_mm256_add_epi16(rb, _mm256_srli_epi16(rb, 8)), 8);
    __m256i ag = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_and_si256(_mm256_srli_epi32(p, 8), low), c16), round);
    ag = _mm256_srli_epi16(_mm256_add_epi16(ag, _mm256_srli_epi16(ag, 8)), 8);
    return _mm256_or_si256(rb, _mm256_slli_epi32(ag, 8));
}

/// `out[i] = in[i] · a / 255` rounded (PixelMath.mul: `(t + (t >> 8)) >> 8`, `t = x · a + 128`,
/// which fits 16 bits), sixteen bytes to a register, the rest one by one: the same bytes.
/// A clip mask's row times a group's opacity, before the picture is composited through it.
__attribute__((target("avx2")))
static inline void CLinux_mul_coverage_avx2(uint8_t *out, const uint8_t *in, long count, uint32_t a) {
    const __m256i factor = _mm256_set1_epi16((short)a), round = _mm256_set1_epi16(128);
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i x = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(in + i)));
        __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(x, factor), round);
        t = _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
        __m128i packed = _mm_packus_epi16(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
        _mm_storeu_si128((__m128i *)(out + i), packed);
    }
    for (; i < count; i++) {
        uint32_t t = in[i] * a + 128;
        out[i] = (uint8_t)((t + (t >> 8)) >> 8);
    }
}

/// `out[i] = out[i] · m[i] / 255` rounded (PixelMath.mul, in 16 bits as above), sixteen bytes to
/// a register, the rest one by one: the same bytes. A new clip mask's row times the clip it
/// narrows.
__attribute__((target("avx2")))
static inline void CLinux_mul_bytes_avx2(uint8_t *out, const uint8_t *m, long count) {
    const __m256i round = _mm256_set1_epi16(128);
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i x = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(out + i)));
        __m256i y = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(m + i)));
        __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(x, y), round);
        t = _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
        __m128i packed = _mm_packus_epi16(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
        _mm_storeu_si128((__m128i *)(out + i), packed);
    }
    for (; i < count; i++) {
        uint32_t t = (uint32_t)out[i] * m[i] + 128;
        out[i] = (uint8_t)((t + (t >> 8)) >> 8);
    }
}

/// `out[i] = src[i] >> 24` (the alpha bytes of pixels), 32 pixels to four registers packed into
/// one, the rest one by one: the same bytes. A picture's alpha written into a clip mask.
__attribute__((target("avx2")))
static inline void CLinux_alpha_bytes_avx2(uint8_t *out, const uint32_t *src, long count) {
    // packus works within 128-bit lanes: the four-pixel groups come out as a0 b0 c0 d0 | a1 b1 c1 d1.
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    long i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i a = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(src + i)), 24);
        __m256i b = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(src + i + 8)), 24);
        __m256i c = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(src + i + 16)), 24);
        __m256i d = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(src + i + 24)), 24);
        __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_permutevar8x32_epi32(bytes, order));
    }
    for (; i < count; i++) out[i] = (uint8_t)(src[i] >> 24);
}

/// Kernels.solidCoverageInGroups on AVX2: source-over of the premultiplied `color` under
/// `coverage[i]` onto `dst[i]` for `i < count`, eight pixels to a register, a group whose eight
/// coverages are all zero skipped, and the last partial group done whole with coverage 0 past
/// `count` (source-over at coverage 0 stores the pixel unchanged). The same formulas as the
/// Swift kernel, so the same pixels. `dst` and `coverage` must be readable (and `dst` writable)
/// up to `count` rounded up to eight.
__attribute__((target("avx2")))
static inline void CLinux_solid_over_groups_avx2(uint32_t *dst, long count, uint32_t color, const uint8_t *coverage) {
    const __m256i s = _mm256_set1_epi32((int)color), full = _mm256_set1_epi32(255);
    for (long i = 0; i < count; i += 8) {
        __m128i bytes = _mm_loadl_epi64((const __m128i *)(coverage + i));
        __m256i c = _mm256_cvtepu8_epi32(bytes);
        long rest = count - i;
        if (rest < 8) {
            c = _mm256_and_si256(c, _mm256_cmpgt_epi32(_mm256_set1_epi32((int)rest), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
        } else if (_mm_cvtsi128_si64(bytes) == 0) {
            continue;
        }
        __m256i sc = CLinux_scale8_avx2(s, c);
        __m256i *p = (__m256i *)(dst + i);
        __m256i d = _mm256_loadu_si256(p);
        d = _mm256_add_epi32(sc, CLinux_scale8_avx2(d, _mm256_sub_epi32(full, _mm256_srli_epi32(sc, 24))));
        _mm256_storeu_si256(p, d);
    }
}

/// Eight cells' coverages under the non-zero rule, Rasterizer.coverage's float steps lane by lane
/// (min(1, |w|), times 255, plus 0.5, truncated), so the same values.
__attribute__((target("avx2")))
static inline __m256i CLinux_nonzero_coverage8_avx2(__m256 w) {
    __m256 v = _mm256_and_ps(w, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)));
    v = _mm256_min_ps(v, _mm256_set1_ps(1));
    v = _mm256_add_ps(_mm256_mul_ps(v, _mm256_set1_ps(255)), _mm256_set1_ps(0.5f));
    return _mm256_cvttps_epi32(v);
}

/// The next run of `runs` from index `*i`, merged with the runs after it that touch or overlap
/// it (they are sorted by first cell): its first and last cell, and `*i` moved past them.
static inline void CLinux_next_run(const int32_t *runs, long runCount, long *i, long *start, long *end) {
    long k = *i, last = runs[2 * k + 1];
    *start = runs[2 * k];
    k++;
    while (k < runCount && runs[2 * k] <= last + 1) {
        if (runs[2 * k + 1] > last) last = runs[2 * k + 1];
        k++;
    }
    *i = k;
    *end = last;
}

/// The runs of a row (as CLinux_next_run reads them) left of cell `lo`, the clip's first column:
/// their cells summed one after another, as drawing without the clip sums them, and cleared;
/// returns the sum. A run reaching into the clip is cut to start at `lo` and left for the
/// sweep, whose first run it becomes: `*first` is set to its index. Always inlined, so the
/// sweep's index is not kept in memory for having had its address taken.
__attribute__((always_inline))
static inline float CLinux_sum_runs_left_of(float *line, int32_t *runs, long runCount, long lo, long *first) {
#pragma STDC FP_CONTRACT OFF
    long i = 0;
    float sum = 0;
    while (i < runCount && runs[2 * i] < lo) {
        long start, end;
        CLinux_next_run(runs, runCount, &i, &start, &end);
        long stop = end < lo ? end : lo - 1;
        for (long x = start; x <= stop; x++) {
            sum += line[x];
            line[x] = 0;
        }
        if (end >= lo) {
            i--;
            runs[2 * i] = (int32_t)lo;
            runs[2 * i + 1] = (int32_t)end;
            break;
        }
    }
    *first = i;
    return sum;
}

/// The coverage of a gap under winding `w` by the non-zero rule: min(1, |w|) times 255, plus
/// 0.5, truncated (Rasterizer.coverage's float steps).
static inline uint32_t CLinux_winding_coverage(float w) {
#pragma STDC FP_CONTRACT OFF
    float v = w < 0 ? -w : w;
    v = v < 1 ? v : 1;
    return (uint32_t)(int32_t)(v * 255.0f + 0.5f);
}

/// Rows of the lane masks CLinux_first_lanes reads.
static const int32_t CLinux_lane_masks[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};

/// The first `n` (0...8) of eight 32-bit lanes set: one load, where comparing a broadcast count
/// with the lane numbers took five instructions.
__attribute__((target("avx2")))
static inline __m256i CLinux_first_lanes(long n) {
    return _mm256_loadu_si256((const __m256i *)(CLinux_lane_masks + 8 - n));
}

/// Eight cells of a run of cells ending at `end`, from column `x`: added onto the winding `*w`
/// one after another, as the scalar sweep adds them (so every running sum is the same float;
/// lanes past the run add zero, which changes no sum), cleared, and their coverages under the
/// non-zero rule. The clearing store ends at the run's end at the latest (the next run's cells
/// are not summed yet), and may reach back left of `x`, onto cells that are zero: `line` must
/// have seven readable and writable cells before it. `*runLanes` is set to the lanes inside the run.
__attribute__((target("avx2")))
static inline __m256i CLinux_run_coverage8_avx2(float *line, long x, long end, float *w, __m256i *runLanes) {
#pragma STDC FP_CONTRACT OFF
    long inRun = end - x + 1;
    *runLanes = CLinux_first_lanes(inRun > 8 ? 8 : inRun);
    __m256 a = _mm256_maskload_ps(line + x, *runLanes);
    float s0 = *w + a[0], s1 = s0 + a[1], s2 = s1 + a[2], s3 = s2 + a[3];
    float s4 = s3 + a[4], s5 = s4 + a[5], s6 = s5 + a[6], s7 = s6 + a[7];
    *w = s7;
    // One store of eight zeros: the run's next eight cells, or the eight ending at its last.
    // Those left of the run are zero already (earlier runs and gaps of the row, the row above,
    // or the eight cells of zeros the rasterizer keeps before a band's first row).
    _mm256_storeu_ps(line + (inRun >= 8 ? x : end - 7), _mm256_setzero_ps());
    return CLinux_nonzero_coverage8_avx2(_mm256_setr_ps(s0, s1, s2, s3, s4, s5, s6, s7));
}

/// Every channel of `p` times `a / 255`, rounded: PixelMath.scale.
static inline uint32_t CLinux_scale(uint32_t p, uint32_t a) {
    uint32_t rb = (p & 0x00FF00FFu) * a + 0x00800080u;
    rb = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    uint32_t ag = ((p >> 8) & 0x00FF00FFu) * a + 0x00800080u;
    ag = (ag + ((ag >> 8) & 0x00FF00FFu)) & 0xFF00FF00u;
    return rb | ag;
}

/// Source-over of the premultiplied `color` at coverage `c` (1...255) over `count` pixels:
/// Kernels.solidSpan's formulas (opaque result stored outright).
__attribute__((target("avx2")))
static inline void CLinux_solid_span_avx2(uint32_t *dst, long count, uint32_t color, uint32_t c) {
    uint32_t sc = CLinux_scale(color, c);
    if (sc >> 24 == 255) {
        if (count >= 64) { wmemset((wchar_t *)dst, (wchar_t)sc, (size_t)count); return; }
        for (long i = 0; i < count; i++) dst[i] = sc;
        return;
    }
    if (sc == 0) return;
    uint32_t inv = 255 - (sc >> 24);
    for (long i = 0; i < count; i++) dst[i] = sc + CLinux_scale(dst[i], inv);
}

/// Rasterizer.sweep of one row under the non-zero rule into a sink that only blends `color` by
/// source-over (a Compositor with a solid colour, no mask, no global alpha), the sweep and the
/// blend in one pass. `runs` holds `runCount` pairs of first and last cell, sorted by first
/// cell (those left of the clip may be rewritten); cells `lo ..< hi` are the clip's columns;
/// `row` is the pixel of cell 0, `room` the pixels writable from it. Each run's cells are
/// summed onto the winding one after another, as the scalar sweep adds them (so every running
/// sum is the same float, left of the clip too: CLinux_sum_runs_left_of), and cleared; each
/// visible cell's pixel gets `color` over it at the cell's coverage, eight to a register, and a
/// gap between runs at the winding's coverage. No pixel left of `lo` is read or written.
/// Returns 1 if a run reached the right side of the clip (the sweep's `gapStart >= hi`), else 0.
/// Called through CLinux_sweep_row_solid_over_avx2 (`lo` 0, the clip starting at the cells'
/// first column: compiled without the check of `lo`, which cost the rays 1.2 % of their
/// instructions in the registers it took from the loop) or CLinux_sweep_row_solid_over_from_avx2.
__attribute__((target("avx2"), always_inline))
static inline int CLinux_sweep_row_solid_over_in(float *line, int32_t *runs, long runCount, long lo, long hi,
                                                 uint32_t *row, long room, uint32_t color) {
#pragma STDC FP_CONTRACT OFF
    const __m256i full = _mm256_set1_epi32(255);
    const __m256i s = _mm256_set1_epi32((int)color);
    long gapStart = lo, i = 0;
    float w = lo > 0 ? CLinux_sum_runs_left_of(line, runs, runCount, lo, &i) : 0;
    int reachedRight = 0;
    while (i < runCount) {
        long start, end;
        CLinux_next_run(runs, runCount, &i, &start, &end);
        if (start > gapStart) {
            uint32_t c = CLinux_winding_coverage(w);
            if (c != 0) CLinux_solid_span_avx2(row + gapStart, (start < hi ? start : hi) - gapStart, color, c);
        }
        long visibleEnd = end < hi - 1 ? end : hi - 1;
        long x = start;
        for (; x <= visibleEnd; x += 8) {
            long visible = visibleEnd - x + 1;
            __m256i runLanes;
            __m256i c = CLinux_run_coverage8_avx2(line, x, end, &w, &runLanes);
            // Lanes past the run (source-over at coverage 0 keeps the pixel) and, in a run the
            // clip cut, past the row's last column.
            c = _mm256_and_si256(c, runLanes);
            if (visibleEnd < end) c = _mm256_and_si256(c, CLinux_first_lanes(visible > 8 ? 8 : visible));
            if (_mm256_testz_si256(c, c)) continue;
            __m256i sc = CLinux_scale8_avx2(s, c);
            __m256i inv = _mm256_sub_epi32(full, _mm256_srli_epi32(sc, 24));
            uint32_t *p = row + x;
            if (x + 8 <= room) {
                __m256i d = _mm256_loadu_si256((const __m256i *)p);
                _mm256_storeu_si256((__m256i *)p, _mm256_add_epi32(sc, CLinux_scale8_avx2(d, inv)));
            } else {
                __m256i visibleLanes = CLinux_first_lanes(visible > 8 ? 8 : visible);
                __m256i d = _mm256_maskload_epi32((const int *)p, visibleLanes);
                _mm256_maskstore_epi32((int *)p, visibleLanes, _mm256_add_epi32(sc, CLinux_scale8_avx2(d, inv)));
            }
        }
        // Cells past the clip still hold area.
        for (; x <= end; x++) {
            w += line[x];
            line[x] = 0;
        }
        gapStart = end + 1;
        if (gapStart >= hi) { reachedRight = 1; break; }
    }
    // A shape whose right side was clipped away still covers the rest of the row.
    if (gapStart < hi) {
        uint32_t c = CLinux_winding_coverage(w);
        if (c != 0) CLinux_solid_span_avx2(row + gapStart, hi - gapStart, color, c);
    }
    // Runs past the visible width still hold area: cleared so the buffer stays zero.
    for (; i < runCount; i++) {
        for (long x = runs[2 * i]; x <= runs[2 * i + 1]; x++) line[x] = 0;
    }
    return reachedRight;
}

/// CLinux_sweep_row_solid_over_in for a clip starting at the cells' first column.
__attribute__((target("avx2")))
static inline int CLinux_sweep_row_solid_over_avx2(float *line, int32_t *runs, long runCount, long hi, uint32_t *row,
                                                   long room, uint32_t color) {
    return CLinux_sweep_row_solid_over_in(line, runs, runCount, 0, hi, row, room, color);
}

/// CLinux_sweep_row_solid_over_in for a clip starting at cell `lo`.
__attribute__((target("avx2")))
static inline int CLinux_sweep_row_solid_over_from_avx2(float *line, int32_t *runs, long runCount, long lo, long hi,
                                                        uint32_t *row, long room, uint32_t color) {
    return CLinux_sweep_row_solid_over_in(line, runs, runCount, lo, hi, row, room, color);
}

/// Stores `pixel` into `count` pixels at `dst`: eight to a store, the last eight overlapping the
/// ones before, and only rows' long runs through wmemset (the gaps of the rays' rows, a hundred
/// pixels or so each, took more instructions in its calls than in its stores).
__attribute__((target("avx2")))
static inline void CLinux_fill_avx2(uint32_t *dst, long count, uint32_t pixel) {
    if (count >= 512) { wmemset((wchar_t *)dst, (wchar_t)pixel, (size_t)count); return; }
    if (count >= 8) {
        const __m256i v = _mm256_set1_epi32((int)pixel);
        long k = 0;
        for (; k + 32 <= count; k += 32) {
            _mm256_storeu_si256((__m256i *)(dst + k), v);
            _mm256_storeu_si256((__m256i *)(dst + k + 8), v);
            _mm256_storeu_si256((__m256i *)(dst + k + 16), v);
            _mm256_storeu_si256((__m256i *)(dst + k + 24), v);
        }
        for (; k + 8 < count; k += 8) _mm256_storeu_si256((__m256i *)(dst + k), v);
        _mm256_storeu_si256((__m256i *)(dst + count - 8), v);
        return;
    }
    for (long k = 0; k < count; k++) dst[k] = pixel;
}

/// Rasterizer.sweep of one row under the non-zero rule into a sink whose every pixel is one of
/// 256 by coverage (a solid colour over an opaque background: BackgroundFusingSink), the sweep
/// and the stores in one pass: all pixels of cells `lo ..< hi` from `row` (the pixel of cell 0)
/// are written, and no other, the cells' pixels as `table[coverage]` eight at a time and each
/// gap between runs as `table` at the winding's coverage. The runs and the sums are as in
/// CLinux_sweep_row_solid_over_in, whose return value this shares, and so are its two callers.
__attribute__((target("avx2"), always_inline))
static inline int CLinux_sweep_row_lookup_in(float *line, int32_t *runs, long runCount, long lo, long hi,
                                             uint32_t *row, const uint32_t *table) {
#pragma STDC FP_CONTRACT OFF
    long gapStart = lo, i = 0;
    float w = lo > 0 ? CLinux_sum_runs_left_of(line, runs, runCount, lo, &i) : 0;
    int reachedRight = 0;
    while (i < runCount) {
        long start, end;
        CLinux_next_run(runs, runCount, &i, &start, &end);
        if (start > gapStart) {
            CLinux_fill_avx2(row + gapStart, (start < hi ? start : hi) - gapStart, table[CLinux_winding_coverage(w)]);
        }
        long visibleEnd = end < hi - 1 ? end : hi - 1;
        long x = start;
        for (; x <= visibleEnd; x += 8) {
            long visible = visibleEnd - x + 1;
            __m256i runLanes;
            __m256i c = CLinux_run_coverage8_avx2(line, x, end, &w, &runLanes);
            __m256i p = _mm256_i32gather_epi32((const int *)table, c, 4);
            // Pixels right of the run get a value here that the next gap or run replaces; none
            // is written past the clip's last column.
            if (x + 8 <= hi) {
                _mm256_storeu_si256((__m256i *)(row + x), p);
            } else {
                _mm256_maskstore_epi32((int *)(row + x), CLinux_first_lanes(visible > 8 ? 8 : visible), p);
            }
        }
        // Cells past the clip still hold area.
        for (; x <= end; x++) {
            w += line[x];
            line[x] = 0;
        }
        gapStart = end + 1;
        if (gapStart >= hi) { reachedRight = 1; break; }
    }
    if (gapStart < hi) {
        CLinux_fill_avx2(row + gapStart, hi - gapStart, table[CLinux_winding_coverage(w)]);
    }
    for (; i < runCount; i++) {
        for (long x = runs[2 * i]; x <= runs[2 * i + 1]; x++) line[x] = 0;
    }
    return reachedRight;
}

/// CLinux_sweep_row_lookup_in for a clip starting at the cells' first column.
__attribute__((target("avx2")))
static inline int CLinux_sweep_row_lookup_avx2(float *line, int32_t *runs, long runCount, long hi, uint32_t *row,
                                               const uint32_t *table) {
    return CLinux_sweep_row_lookup_in(line, runs, runCount, 0, hi, row, table);
}

/// CLinux_sweep_row_lookup_in for a clip starting at cell `lo`.
__attribute__((target("avx2")))
static inline int CLinux_sweep_row_lookup_from_avx2(float *line, int32_t *runs, long runCount, long lo, long hi,
                                                    uint32_t *row, const uint32_t *table) {
    return CLinux_sweep_row_lookup_in(line, runs, runCount, lo, hi, row, table);
}

/// `ds` added to cells `from..<to` of `line`, eight to a register: the last group's lanes past
/// `to` add +0, which changes no cell (they lie in the row, the next row or the band's spare
/// cells after its last). Left to the compiler, the loop became masked loads and stores, after
/// which the next rows' loads waited (a fifth of the edges' time in the rays scene).
__attribute__((target("avx2")))
static inline void CLinux_add_cells_avx2(float *line, int32_t from, int32_t to, float ds) {
    const __m256 v = _mm256_set1_ps(ds);
    for (int32_t x = from; x < to; x += 8) {
        __m256 add = v;
        if (to - x < 8) {
            add = _mm256_and_ps(v, _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(to - x),
                                                                          _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))));
        }
        _mm256_storeu_ps(line + x, _mm256_add_ps(_mm256_loadu_ps(line + x), add));
    }
}

/// One row of CLinux_accumulate_edge_avx2 (Rasterizer.accumulate's loop body, the same floats).
__attribute__((target("avx2")))
static inline void CLinux_accumulate_row(float *line, float xTop, float xBottom, float d, int32_t *record) {
#pragma STDC FP_CONTRACT OFF
    float x0 = xTop < xBottom ? xTop : xBottom, x1 = xTop < xBottom ? xBottom : xTop;
    int32_t x0i = (int32_t)x0;
    float x0floor = (float)x0i;
    int32_t x1t = (int32_t)x1;
    int32_t x1i = (float)x1t < x1 ? x1t + 1 : x1t;
    float x1ceil = (float)x1i;
    int32_t last;
    if (x1i <= x0i + 1) {
        float xmf = 0.5f * (xTop + xBottom) - x0floor;
        line[x0i] += d - d * xmf;
        line[x0i + 1] += d * xmf;
        last = x0i + 1;
    } else {
        float s = 1 / (x1 - x0);
        float x0f = x0 - x0floor;
        float a0 = 0.5f * s * (1 - x0f) * (1 - x0f);
        float x1f = x1 - x1ceil + 1;
        float am = 0.5f * s * x1f * x1f;
        line[x0i] += d * a0;
        if (x1i == x0i + 2) {
            line[x0i + 1] += d * (1 - a0 - am);
        } else {
            float a1 = s * (1.5f - x0f);
            line[x0i + 1] += d * (a1 - a0);
            float ds = d * s;
            CLinux_add_cells_avx2(line, x0i + 2, x1i - 1, ds);
            float a2 = a1 + (float)(x1i - x0i - 3) * s;
            line[x1i - 1] += d * (1 - a2 - am);
        }
        line[x1i] += d * am;
        last = x1i;
    }
    record[0] = x0i;
    record[1] = last;
}

/// Rasterizer.accumulate of one edge (x0, y0)-(x1, y1), `direction` +1 or -1, into the cells of
/// the band of rows `bandStart..<bandEnd` (`cellStride` cells a row from `cells`) and into its
/// column of the band's table of runs (`column`, a row of the table every `columns` pairs),
/// with every float computed as Rasterizer.accumulate computes it: the rows' ends, crossings,
/// heights and areas eight rows to a register, each the same operations in the same order, then
/// added into the cells row by row. `clamped` keeps each row's x inside 0...`width`.
__attribute__((target("avx2")))
static inline void CLinux_accumulate_edge_avx2(float *cells, long cellStride, long bandStart, long bandEnd, long width,
                                               float ex0, float ey0, float ex1, float ey1, float direction, int clamped,
                                               int32_t *column, long columns) {
#pragma STDC FP_CONTRACT OFF
    float dxdy = (ex1 - ex0) / (ey1 - ey0);
    long rowFirst = (long)__builtin_floorf(ey0), rowEnd = (long)__builtin_ceilf(ey1);
    if (rowFirst < bandStart) rowFirst = bandStart;
    if (rowEnd > bandEnd) rowEnd = bandEnd;
    float maxX = (float)width;
    float *line = cells + (rowFirst - bandStart) * cellStride;
    long row = rowFirst;
    // Swift's max(a, b) is b >= a ? b : a, and min(a, b) is b < a ? b : a.
    float top = ey0 >= (float)row ? ey0 : (float)row;
    float xt = ex0 + (top - ey0) * dxdy;
    xt = xt >= 0 ? xt : 0;
    float xTop = xt < maxX ? xt : maxX;
    if (row + 8 <= rowEnd) {
        const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1), half = _mm256_set1_ps(0.5f);
        const __m256 vMaxX = _mm256_set1_ps(maxX), vDxdy = _mm256_set1_ps(dxdy), vx0 = _mm256_set1_ps(ex0);
        const __m256 vy0 = _mm256_set1_ps(ey0), vy1 = _mm256_set1_ps(ey1), vDirection = _mm256_set1_ps(direction);
        const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), previous = _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6);
        const __m256i oneI = _mm256_set1_epi32(1), threeI = _mm256_set1_epi32(3);
        float a[8], b[8], two8[8], many8[8], ds8[8], last8[8];
        int32_t x0i8[8], x1i8[8], single8[8];
        while (row + 8 <= rowEnd) {
            __m256 rowEnds = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32((int)row + 1), lanes));
            __m256 bottom = _mm256_blendv_ps(rowEnds, vy1, _mm256_cmp_ps(vy1, rowEnds, _CMP_LT_OQ));
            __m256 x = _mm256_add_ps(vx0, _mm256_mul_ps(_mm256_sub_ps(bottom, vy0), vDxdy));
            __m256 xBottom = x;
            if (clamped) {
                xBottom = _mm256_blendv_ps(zero, x, _mm256_cmp_ps(x, zero, _CMP_GE_OQ));
                xBottom = _mm256_blendv_ps(vMaxX, xBottom, _mm256_cmp_ps(xBottom, vMaxX, _CMP_LT_OQ));
            }
            // Each row starts where the one before ended.
            __m256 tops = _mm256_blend_ps(_mm256_permutevar8x32_ps(bottom, previous), _mm256_set1_ps(top), 1);
            __m256 xTops = _mm256_blend_ps(_mm256_permutevar8x32_ps(xBottom, previous), _mm256_set1_ps(xTop), 1);
            __m256 d = _mm256_mul_ps(_mm256_sub_ps(bottom, tops), vDirection);
            __m256 lt = _mm256_cmp_ps(xTops, xBottom, _CMP_LT_OQ);
            __m256 lo = _mm256_blendv_ps(xBottom, xTops, lt), hi = _mm256_blendv_ps(xTops, xBottom, lt);
            __m256i x0i = _mm256_cvttps_epi32(lo);
            __m256 x0floor = _mm256_cvtepi32_ps(x0i);
            __m256i x1t = _mm256_cvttps_epi32(hi);
            __m256i x1i = _mm256_sub_epi32(x1t, _mm256_castps_si256(_mm256_cmp_ps(_mm256_cvtepi32_ps(x1t), hi, _CMP_LT_OQ)));
            __m256 x1ceil = _mm256_cvtepi32_ps(x1i);
            __m256i single = _mm256_cmpgt_epi32(_mm256_add_epi32(x0i, _mm256_add_epi32(oneI, oneI)), x1i);
            // Within one cell.
            __m256 xmf = _mm256_sub_ps(_mm256_mul_ps(half, _mm256_add_ps(xTops, xBottom)), x0floor);
            __m256 dxmf = _mm256_mul_ps(d, xmf);
            __m256 singleA = _mm256_sub_ps(d, dxmf);
            // Across cells.
            __m256 s = _mm256_div_ps(one, _mm256_sub_ps(hi, lo));
            __m256 x0f = _mm256_sub_ps(lo, x0floor);
            __m256 a0 = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(half, s), _mm256_sub_ps(one, x0f)), _mm256_sub_ps(one, x0f));
            __m256 x1f = _mm256_add_ps(_mm256_sub_ps(hi, x1ceil), one);
            __m256 am = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(half, s), x1f), x1f);
            __m256 a1 = _mm256_mul_ps(s, _mm256_sub_ps(_mm256_set1_ps(1.5f), x0f));
            __m256 a2 = _mm256_add_ps(a1, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_sub_epi32(x1i, x0i), threeI)), s));
            __m256 isSingle = _mm256_castsi256_ps(single);
            __m256 dam = _mm256_mul_ps(d, am);
            __m256 two = _mm256_mul_ps(d, _mm256_sub_ps(_mm256_sub_ps(one, a0), am));
            __m256 first = _mm256_blendv_ps(_mm256_mul_ps(d, a0), singleA, isSingle);
            int32_t *record = column + 2 * (row - bandStart) * columns;
            __m256i wide = _mm256_cmpgt_epi32(x1i, _mm256_add_epi32(x0i, threeI));
            if (_mm256_testz_si256(wide, wide)) {
                // Every row's part of the edge lies in at most four cells (a steep edge, or one
                // up to two cells across a row): each row's values for its four cells, +0 past
                // its part, are added to them as one vector, and its run is stored as one pair.
                // Adding +0 changes no sum; the cells keep spare ones after the band's last row.
                __m256 isTwo = _mm256_castsi256_ps(_mm256_cmpeq_epi32(x1i, _mm256_add_epi32(x0i, _mm256_add_epi32(oneI, oneI))));
                __m256 isThree = _mm256_castsi256_ps(_mm256_cmpeq_epi32(x1i, _mm256_add_epi32(x0i, threeI)));
                __m256 many = _mm256_mul_ps(d, _mm256_sub_ps(a1, a0));
                __m256 beforeLast = _mm256_mul_ps(d, _mm256_sub_ps(_mm256_sub_ps(one, a2), am));
                __m256 second = _mm256_blendv_ps(_mm256_blendv_ps(many, two, isTwo), dxmf, isSingle);
                __m256 third = _mm256_andnot_ps(isSingle, _mm256_blendv_ps(beforeLast, dam, isTwo));
                __m256 fourth = _mm256_and_ps(isThree, dam);
                __m256 ab0 = _mm256_unpacklo_ps(first, second), ab1 = _mm256_unpackhi_ps(first, second);
                __m256 c0 = _mm256_unpacklo_ps(third, fourth), c1 = _mm256_unpackhi_ps(third, fourth);
                // Rows 0 and 4, 1 and 5, 2 and 6, 3 and 7: (first, second, third, fourth) in each half.
                __m256 r04 = _mm256_shuffle_ps(ab0, c0, 0x44), r15 = _mm256_shuffle_ps(ab0, c0, 0xEE);
                __m256 r26 = _mm256_shuffle_ps(ab1, c1, 0x44), r37 = _mm256_shuffle_ps(ab1, c1, 0xEE);
                __m256i last = _mm256_blendv_epi8(x1i, _mm256_add_epi32(x0i, oneI), single);
                // Rows 0, 1 | 4, 5 and 2, 3 | 6, 7: (first cell, last cell) pairs.
                __m256i p0145 = _mm256_unpacklo_epi32(x0i, last), p2367 = _mm256_unpackhi_epi32(x0i, last);
                __m128i pairs[4] = {_mm256_castsi256_si128(p0145), _mm256_castsi256_si128(p2367),
                                    _mm256_extracti128_si256(p0145, 1), _mm256_extracti128_si256(p2367, 1)};
                __m128 values[8] = {_mm256_castps256_ps128(r04), _mm256_castps256_ps128(r15),
                                    _mm256_castps256_ps128(r26), _mm256_castps256_ps128(r37),
                                    _mm256_extractf128_ps(r04, 1), _mm256_extractf128_ps(r15, 1),
                                    _mm256_extractf128_ps(r26, 1), _mm256_extractf128_ps(r37, 1)};
#pragma clang loop unroll(full)
                for (int k = 0; k < 8; k++) {
                    __m128i pair = pairs[k >> 1];
                    int32_t cell0 = k & 1 ? _mm_extract_epi32(pair, 2) : _mm_cvtsi128_si32(pair);
                    float *cell = line + cell0;
                    _mm_storeu_ps(cell, _mm_add_ps(_mm_loadu_ps(cell), values[k]));
                    if (k & 1) {
                        _mm_storeh_pd((double *)record, _mm_castsi128_pd(pair));
                    } else {
                        _mm_storel_pd((double *)record, _mm_castsi128_pd(pair));
                    }
                    record += 2 * columns;
                    line += cellStride;
                }
            } else {
                _mm256_storeu_ps(a, first);
                _mm256_storeu_si256((__m256i *)x0i8, x0i);
                _mm256_storeu_ps(b, _mm256_blendv_ps(dam, dxmf, isSingle));
                _mm256_storeu_ps(two8, two);
                _mm256_storeu_ps(many8, _mm256_mul_ps(d, _mm256_sub_ps(a1, a0)));
                _mm256_storeu_ps(ds8, _mm256_mul_ps(d, s));
                _mm256_storeu_ps(last8, _mm256_mul_ps(d, _mm256_sub_ps(_mm256_sub_ps(one, a2), am)));
                _mm256_storeu_si256((__m256i *)x1i8, x1i);
                _mm256_storeu_si256((__m256i *)single8, single);
                // Unrolled, as the branchless loop is, so each row's values come out of the
                // registers: the first rows' loads from the arrays just stored waited on them.
#pragma clang loop unroll(full)
                for (int k = 0; k < 8; k++) {
                    int32_t c0 = x0i8[k], c1 = x1i8[k];
                    line[c0] += a[k];
                    if (single8[k]) {
                        line[c0 + 1] += b[k];
                        c1 = c0 + 1;
                    } else {
                        if (c1 == c0 + 2) {
                            line[c0 + 1] += two8[k];
                        } else {
                            line[c0 + 1] += many8[k];
                            CLinux_add_cells_avx2(line, c0 + 2, c1 - 1, ds8[k]);
                            line[c1 - 1] += last8[k];
                        }
                        line[c1] += b[k];
                    }
                    record[0] = c0;
                    record[1] = c1;
                    record += 2 * columns;
                    line += cellStride;
                }
            }
            top = bottom[7];
            xTop = xBottom[7];
            row += 8;
        }
    }
    for (; row < rowEnd; row++) {
        float bottom = ey1 < (float)(row + 1) ? ey1 : (float)(row + 1);
        float x = ex0 + (bottom - ey0) * dxdy;
        float xBottom = x;
        if (clamped) {
            xBottom = x >= 0 ? x : 0;
            xBottom = xBottom < maxX ? xBottom : maxX;
        }
        CLinux_accumulate_row(line, xTop, xBottom, (bottom - top) * direction, column + 2 * (row - bandStart) * columns);
        top = bottom;
        xTop = xBottom;
        line += cellStride;
    }
}

/// Rasterizer.gatherRuns on AVX2: moves the runs of one row of the band's table (`columns` pairs
/// of first and last cell, x0 < 0 for an edge with no run in the row) to its front in rank order,
/// four pairs to a register (each group's valid pairs packed by a permutation looked up by their
/// mask), then sorts them by first cell with the same insertion sort, or, when there are
/// `maximumSorted` or more, leaves one pair spanning them all. Returns how many pairs the row's
/// sweep reads (0: none), the same pairs as the Swift loop.
__attribute__((target("avx2")))
static inline long CLinux_gather_runs_avx2(int32_t *line, long columns, long maximumSorted) {
    // For each mask of a group's valid pairs: where the packed pairs come from, and how many.
    static const int32_t pack[16][8] = {
        {0, 1, 0, 1, 0, 1, 0, 1}, {0, 1, 0, 1, 0, 1, 0, 1}, {2, 3, 0, 1, 0, 1, 0, 1}, {0, 1, 2, 3, 0, 1, 0, 1},
        {4, 5, 0, 1, 0, 1, 0, 1}, {0, 1, 4, 5, 0, 1, 0, 1}, {2, 3, 4, 5, 0, 1, 0, 1}, {0, 1, 2, 3, 4, 5, 0, 1},
        {6, 7, 0, 1, 0, 1, 0, 1}, {0, 1, 6, 7, 0, 1, 0, 1}, {2, 3, 6, 7, 0, 1, 0, 1}, {0, 1, 2, 3, 6, 7, 0, 1},
        {4, 5, 6, 7, 0, 1, 0, 1}, {0, 1, 4, 5, 6, 7, 0, 1}, {2, 3, 4, 5, 6, 7, 0, 1}, {0, 1, 2, 3, 4, 5, 6, 7},
    };
    static const uint8_t packed[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    long count = 0, k = 0;
    // A group's packed pairs are stored over slots count..<count + 4, all at or before the
    // group's own (count <= k), so none not yet read is overwritten.
    for (; k + 4 <= columns; k += 4) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(line + 2 * k));
        // The sign of each pair's x0, moved to the top of its 64 bits: clear where the pair is a run.
        int mask = ~_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_shuffle_epi32(v, 0xB1))) & 15;
        __m256i order = _mm256_loadu_si256((const __m256i *)pack[mask]);
        _mm256_storeu_si256((__m256i *)(line + 2 * count), _mm256_permutevar8x32_epi32(v, order));
        count += packed[mask];
    }
    for (; k < columns; k++) {
        if (line[2 * k] < 0) continue;
        line[2 * count] = line[2 * k];
        line[2 * count + 1] = line[2 * k + 1];
        count++;
    }
    if (count >= maximumSorted) {
        int32_t lo = INT32_MAX, hi = INT32_MIN;
        for (long j = 0; j < count; j++) {
            if (line[2 * j] < lo) lo = line[2 * j];
            if (line[2 * j + 1] > hi) hi = line[2 * j + 1];
        }
        line[0] = lo;
        line[1] = hi;
        return 1;
    }
    // The runs come in rank order, so nearly always sorted already: the sort starts past the
    // sorted front, checked four pairs to a register (each first cell against the next pair's),
    // where insertion sort would compare them one by one and move nothing.
    long sorted = 0;
    if (count >= 5) {
        for (; sorted + 5 <= count; sorted += 4) {
            __m256i a = _mm256_loadu_si256((const __m256i *)(line + 2 * sorted));
            __m256i b = _mm256_loadu_si256((const __m256i *)(line + 2 * sorted + 2));
            if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(a, b))) & 0x55) break;
        }
        if (sorted + 5 > count) {
            // The last pairs, overlapping the ones checked.
            __m256i a = _mm256_loadu_si256((const __m256i *)(line + 2 * (count - 5)));
            __m256i b = _mm256_loadu_si256((const __m256i *)(line + 2 * (count - 4)));
            if (!(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(a, b))) & 0x55)) return count;
        }
    }
    for (long i = sorted > 1 ? sorted : 1; i < count; i++) {
        int32_t x0 = line[2 * i], x1 = line[2 * i + 1];
        long j = i - 1;
        while (j >= 0 && line[2 * j] > x0) {
            line[2 * j + 2] = line[2 * j];
            line[2 * j + 3] = line[2 * j + 1];
            j--;
        }
        line[2 * j + 2] = x0;
        line[2 * j + 3] = x1;
    }
    return count;
}

/// A band of rows of the rasterizer's table of runs swept into a solid source-over target, one
/// call a band instead of two a row (and the sink's checks): each row's runs gathered and
/// sorted by CLinux_gather_runs_avx2 and swept by CLinux_sweep_row_solid_over_avx2, the same
/// calls in the same order. `cells` is the band's first row of cells (`cellStride` a row),
/// `table` its first row of runs (`columns` pairs a row), cells `lo ..< hi` the clip's columns,
/// `row` the first row's pixel of cell 0 (`stride` pixels a row, `room` writable from each
/// row's). Returns 1 if a run of some row reached the right side of the clip.
__attribute__((target("avx2")))
static inline int CLinux_sweep_band_solid_over_avx2(float *cells, long cellStride, int32_t *table, long columns, long rows,
                                                    long maximumSorted, long lo, long hi, uint32_t *row, long stride, long room,
                                                    uint32_t color) {
    int reachedRight = 0;
    for (long r = 0; r < rows; r++, cells += cellStride, table += 2 * columns, row += stride) {
        long count = CLinux_gather_runs_avx2(table, columns, maximumSorted);
        if (count == 0) continue;
        reachedRight |= lo == 0 ? CLinux_sweep_row_solid_over_avx2(cells, table, count, hi, row, room, color)
                                : CLinux_sweep_row_solid_over_from_avx2(cells, table, count, lo, hi, row, room, color);
    }
    return reachedRight;
}

/// As CLinux_sweep_band_solid_over_avx2, into a sink whose every pixel is one of 256 by coverage
/// (CLinux_sweep_row_lookup_avx2, `lookup` the 256), the pixels of cells `lo ..< hi` of every
/// row written: a row with no runs is `lookup[0]`, the pixel at coverage 0.
__attribute__((target("avx2")))
static inline int CLinux_sweep_band_lookup_avx2(float *cells, long cellStride, int32_t *table, long columns, long rows,
                                                long maximumSorted, long lo, long hi, uint32_t *row, long stride,
                                                const uint32_t *lookup) {
    int reachedRight = 0;
    for (long r = 0; r < rows; r++, cells += cellStride, table += 2 * columns, row += stride) {
        long count = CLinux_gather_runs_avx2(table, columns, maximumSorted);
        if (count == 0) {
            CLinux_fill_avx2(row + lo, hi - lo, lookup[0]);
        } else if (lo == 0) {
            reachedRight |= CLinux_sweep_row_lookup_avx2(cells, table, count, hi, row, lookup);
        } else {
            reachedRight |= CLinux_sweep_row_lookup_from_avx2(cells, table, count, lo, hi, row, lookup);
        }
    }
    return reachedRight;
}

/// Four pixels of a shading ramp at locations `t` into `out`: ShadingRamp.index (t·1023 + 0.5,
/// 1023 at or above it, truncated above 0, else 0, NaN too: max takes its second operand for
/// NaN) and ShadingRamp.pixel (the four dithers added to the entries' 16-bit lanes, the high byte
/// of each lane packed a r g b), lane by lane: the same pixels.
__attribute__((target("avx2")))
static inline void CLinux_ramp_pixels4_avx2(uint32_t *out, __m256d t, const uint64_t *entries, const uint64_t *dither) {
    const __m256d last = _mm256_set1_pd(1023.0);
    __m256d v = _mm256_add_pd(_mm256_mul_pd(t, last), _mm256_set1_pd(0.5));
    v = _mm256_min_pd(_mm256_max_pd(v, _mm256_setzero_pd()), last);
    __m256i e = _mm256_i32gather_epi64((const long long *)entries, _mm256_cvttpd_epi32(v), 8);
    e = _mm256_add_epi64(e, _mm256_loadu_si256((const __m256i *)dither));
    __m256i high = _mm256_and_si256(_mm256_srli_epi64(e, 8), _mm256_set1_epi64x(0x00FF00FF00FF00FFLL));
    __m256i packed = _mm256_and_si256(_mm256_or_si256(high, _mm256_srli_epi64(high, 8)), _mm256_set1_epi64x(0x0000FFFF0000FFFFLL));
    packed = _mm256_or_si256(packed, _mm256_srli_epi64(packed, 16));
    __m256i pixels = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(pixels));
}

/// The row's eight dither values twice over, so four lanes starting at any of them read on.
static inline void CLinux_spread_dither(uint64_t repeated[16], const uint64_t *dither) {
    for (int k = 0; k < 16; k++) repeated[k] = dither[k & 7];
}

/// Four lanes of a value the scalar loop advances by `step` a pixel: start, then one, two and
/// three adds (the same adds, so the same doubles).
__attribute__((target("avx2")))
static inline __m256d CLinux_lanes4_pd(double start, double step) {
    double a1 = start + step, a2 = a1 + step, a3 = a2 + step;
    return _mm256_setr_pd(start, a1, a2, a3);
}

/// Each lane advanced four pixels: four adds of `step`, as the scalar loop makes them.
__attribute__((target("avx2")))
static inline __m256d CLinux_advance4_pd(__m256d lanes, __m256d step) {
    return _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(_mm256_add_pd(lanes, step), step), step), step);
}

/// The first lane of `lanes`: where the scalar loop goes on.
__attribute__((target("avx2")))
static inline double CLinux_first_lane_pd(__m256d lanes) {
    return _mm256_cvtsd_f64(lanes);
}

/// ShadingEvaluator.shade's axial loop on AVX2, four pixels to a register, for the whole groups
/// of four in `count`: t advanced by four adds of dtdx in each lane (the scalar loop's adds),
/// then CLinux_ramp_pixels4_avx2. Returns how many pixels were done, and t after them.
__attribute__((target("avx2")))
static inline long CLinux_axial_shade_avx2(uint32_t *out, long count, double *t, double dtdx, const uint64_t *entries,
                                           const uint64_t *dither, long x) {
    long groups = count / 4 * 4;
    if (groups == 0) return 0;
    uint64_t repeated[16];
    CLinux_spread_dither(repeated, dither);
    __m256d T = CLinux_lanes4_pd(*t, dtdx);
    const __m256d d = _mm256_set1_pd(dtdx);
    for (long i = 0; i < groups; i += 4) {
        CLinux_ramp_pixels4_avx2(out + i, T, entries, repeated + ((x + i) & 7));
        T = CLinux_advance4_pd(T, d);
    }
    *t = CLinux_first_lane_pd(T);
    return groups;
}

/// ShadingEvaluator.shade's radial loop on AVX2, four pixels to a register, for the whole groups
/// of four in `count`: each lane advances u and v by the scalar loop's adds (four of du and dv),
/// and takes sqrt(u·u + v·v)·scale with the same roundings (separate multiplies and adds, no fused
/// ones; the square root is IEEE's, as sqrtsd's), then CLinux_ramp_pixels4_avx2: the same pixels.
/// Returns how many pixels were done, and u and v after them.
__attribute__((target("avx2")))
static inline long CLinux_radial_shade_avx2(uint32_t *out, long count, double *u, double *v, double du, double dv,
                                            double scale, const uint64_t *entries, const uint64_t *dither, long x) {
    long groups = count / 4 * 4;
    if (groups == 0) return 0;
    uint64_t repeated[16];
    CLinux_spread_dither(repeated, dither);
    __m256d U = CLinux_lanes4_pd(*u, du), V = CLinux_lanes4_pd(*v, dv);
    const __m256d dU = _mm256_set1_pd(du), dV = _mm256_set1_pd(dv), S = _mm256_set1_pd(scale);
    for (long i = 0; i < groups; i += 4) {
        __m256d d2 = _mm256_add_pd(_mm256_mul_pd(U, U), _mm256_mul_pd(V, V));
        CLinux_ramp_pixels4_avx2(out + i, _mm256_mul_pd(_mm256_sqrt_pd(d2), S), entries, repeated + ((x + i) & 7));
        U = CLinux_advance4_pd(U, dU);
        V = CLinux_advance4_pd(V, dV);
    }
    *u = CLinux_first_lane_pd(U);
    *v = CLinux_first_lane_pd(V);
    return groups;
}

/// ShadingEvaluator.shade's conic loop on AVX2, four pixels to a register, for the whole groups
/// of four in `count`: each lane does its pixel's arithmetic in the Swift loop's order (u and v
/// advanced by four adds of du and dv, the same adds the scalar loop makes; the atan polynomial
/// without fused multiply-adds; atan2 from libm for a lane at (0, 0) or not finite; the floor
/// of the turn, the ramp index clamped then truncated; the dither added in four 16-bit lanes),
/// so the same pixels. `dither` holds the row's eight dither values spread over four lanes;
/// `entries` the ramp's 1,024. Returns how many pixels were done, and u and v after them.
__attribute__((target("avx2")))
static inline long CLinux_conic_shade_avx2(uint32_t *out, long count, double *u, double *v, double du, double dv,
                                           double start, const uint64_t *entries, const uint64_t *dither, long x) {
    long groups = count / 4 * 4;
    if (groups == 0) return 0;
    uint64_t repeated[16];
    CLinux_spread_dither(repeated, dither);
    __m256d U = CLinux_lanes4_pd(*u, du), V = CLinux_lanes4_pd(*v, dv);
    const __m256d dU = _mm256_set1_pd(du), dV = _mm256_set1_pd(dv), zero = _mm256_setzero_pd();
    const __m256d signMask = _mm256_set1_pd(-0.0), infinity = _mm256_set1_pd(__builtin_inf());
    const __m256d halfPi = _mm256_set1_pd(1.5707963267948966), pi = _mm256_set1_pd(3.141592653589793);
    const __m256d twoPi = _mm256_set1_pd(6.283185307179586), startAngle = _mm256_set1_pd(start);
    for (long i = 0; i < groups; i += 4) {
        // angle(v, u): x is u, y is v.
        __m256d ax = _mm256_andnot_pd(signMask, U), ay = _mm256_andnot_pd(signMask, V);
        __m256d big = _mm256_max_pd(ax, ay), small = _mm256_min_pd(ax, ay);
        __m256d a = _mm256_div_pd(small, big), s = _mm256_mul_pd(a, a);
        __m256d r = _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(-0.01172120), s), _mm256_set1_pd(0.05265332));
        r = _mm256_sub_pd(_mm256_mul_pd(r, s), _mm256_set1_pd(0.11643287));
        r = _mm256_add_pd(_mm256_mul_pd(r, s), _mm256_set1_pd(0.19354346));
        r = _mm256_sub_pd(_mm256_mul_pd(r, s), _mm256_set1_pd(0.33262347));
        r = _mm256_add_pd(_mm256_mul_pd(r, s), _mm256_set1_pd(0.99997726));
        r = _mm256_mul_pd(r, a);
        r = _mm256_blendv_pd(r, _mm256_sub_pd(halfPi, r), _mm256_cmp_pd(ay, ax, _CMP_GT_OQ));
        r = _mm256_blendv_pd(r, _mm256_sub_pd(pi, r), _mm256_cmp_pd(U, zero, _CMP_LT_OQ));
        r = _mm256_blendv_pd(r, _mm256_xor_pd(r, signMask), _mm256_cmp_pd(V, zero, _CMP_LT_OQ));
        // Lanes the polynomial does not serve: not finite, or at the centre.
        __m256d finite = _mm256_and_pd(_mm256_cmp_pd(ax, infinity, _CMP_LT_OQ), _mm256_cmp_pd(ay, infinity, _CMP_LT_OQ));
        __m256d served = _mm256_and_pd(finite, _mm256_cmp_pd(big, zero, _CMP_GT_OQ));
        int special = _mm256_movemask_pd(served) ^ 0xF;
        if (special) {
            double lanes[4], xs[4], ys[4];
            _mm256_storeu_pd(lanes, r);
            _mm256_storeu_pd(xs, U);
            _mm256_storeu_pd(ys, V);
            for (int k = 0; k < 4; k++) if (special & (1 << k)) lanes[k] = atan2(ys[k], xs[k]);
            r = _mm256_loadu_pd(lanes);
        }
        __m256d turn = _mm256_div_pd(_mm256_sub_pd(r, startAngle), twoPi);
        turn = _mm256_sub_pd(turn, _mm256_floor_pd(turn));
        CLinux_ramp_pixels4_avx2(out + i, turn, entries, repeated + ((x + i) & 7));
        U = CLinux_advance4_pd(U, dU);
        V = CLinux_advance4_pd(V, dV);
    }
    *u = CLinux_first_lane_pd(U);
    *v = CLinux_first_lane_pd(V);
    return groups;
}

#endif
