// arrow-peers: the player's arrow frame drawn by the peer renderers, Blend2D and cairo (issue 9).
//
// Each frame is what `live-player arrow` shows at 60 Hz with --autoplay: grey (#202020) over the
// whole frame, then the arrow filled with an S×S opaque image as the pattern, where S is the
// frame's shorter side and the image sits in the centred square on whole pixels. The arrow: outer
// radius S/2, thickness 60·S/600, tail at −π/2, head π/16, its length a triangle wave 0 → 2π → 0
// over 240 frames (the scene's 2 s autoreversing sweep). Both peers redraw the whole frame each
// time (neither keeps damage), single-threaded. Frame times are measured one frame at a time on
// CLOCK_MONOTONIC after 30 warm-up frames and reported as p50/p99 in milliseconds.
//
// With --scene rays, each frame is what `live-player rays` shows at 60 Hz instead: #24507A (the
// container) over the whole frame, then eight of sixteen equal wedges around the centre, of radius
// half the frame's diagonal, turned by 2π·k/720 at frame k (the scene's turn every 12 s), filled
// #3B7FBF and stroked #8CC4F2 2 px wide with round joins: the same 16-wedge geometry the player
// re-rasterizes each frame. (The player also draws its small key hint; the peers do not.)
//
// usage: arrow-peers [--scene arrow|rays] [--size WxH] [--frames N] [--peers blend2d,cairo] [--png DIR]
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <blend2d.h>
#include <cairo.h>

typedef struct {
    int width, height, side, originX, originY;
    double cx, cy, outer, inner, mid;
} Arrow;

static const double kStart = -M_PI / 2, kHead = M_PI / 16;

static Arrow arrowFor(int w, int h) {
    Arrow a;
    a.width = w; a.height = h;
    a.side = w < h ? w : h;
    a.originX = (w - a.side) / 2; a.originY = (h - a.side) / 2;
    a.cx = a.originX + a.side / 2.0; a.cy = a.originY + a.side / 2.0;
    a.outer = a.side / 2.0;
    a.inner = a.outer - 60.0 * a.side / 600.0;
    a.mid = (a.outer + a.inner) / 2;
    return a;
}

/// The sweep's length at frame k: 0 → 2π over 120 frames, back over the next 120.
static double lengthAt(int k) {
    int f = k % 240;
    double t = (f < 120 ? f : 240 - f) / 120.0;
    return t * 2 * M_PI;
}

static void angles(double length, double* tip, double* head) {
    *tip = kStart + length;
    double sign = length < 0 ? -1 : 1;
    double l = fabs(length);
    *head = *tip - sign * (kHead < l ? kHead : l);
}

/// An opaque image with no constant runs: a colour ramp with a grid (premultiplied ARGB32).
static uint32_t* makeImage(int side) {
    uint32_t* p = malloc((size_t)side * side * 4);
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            uint32_t grid = (x % 32 == 0 || y % 32 == 0) ? 0x40 : 0;
            p[y * side + x] = 0xFF000000u | (uint32_t)(x * 255 / side) << 16 | (uint32_t)(y * 255 / side) << 8 | (0x80 + grid);
        }
    return p;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int compareDouble(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

static double percentile(double* sorted, int n, double p) {
    int i = (int)ceil(p * n) - 1;
    if (i < 0) i = 0;
    if (i >= n) i = n - 1;
    return sorted[i];
}

static void report(const char* name, const Arrow* a, double* times, int n) {
    qsort(times, n, sizeof(double), compareDouble);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += times[i];
    printf("%-8s %dx%d: %d frames, frame time p50 %.3f ms p99 %.3f ms mean %.3f ms\n", name, a->width, a->height, n,
           percentile(times, n, 0.5) * 1e3, percentile(times, n, 0.99) * 1e3, sum / n * 1e3);
}

static void writePNG(const char* dir, const char* name, uint32_t* pixels, int w, int h, int stride) {
    if (!dir) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%dx%d.png", dir, name, w, h);
    cairo_surface_t* s = cairo_image_surface_create_for_data((unsigned char*)pixels, CAIRO_FORMAT_ARGB32, w, h, stride);
    cairo_surface_write_to_png(s, path);
    cairo_surface_destroy(s);
}

static void runBlend2D(const Arrow* a, int frames, const uint32_t* image, double* times, const char* pngDir) {
    BLImageCore target, picture;
    blImageInitAs(&target, a->width, a->height, BL_FORMAT_PRGB32);
    blImageInitAsFromData(&picture, a->side, a->side, BL_FORMAT_PRGB32, (void*)image, (intptr_t)a->side * 4,
                          BL_DATA_ACCESS_READ, NULL, NULL);
    BLMatrix2D m;
    blMatrix2DSetTranslation(&m, a->originX, a->originY);
    BLPatternCore pattern;
    blPatternInitAs(&pattern, &picture, NULL, BL_EXTEND_MODE_PAD, &m);
    BLContextCore ctx;
    blContextInitAs(&ctx, &target, NULL);
    BLPathCore path;
    blPathInit(&path);
    BLPoint origin = {0, 0};
    for (int k = -30; k < frames; k++) {
        double t0 = now();
        double tip, head, length = lengthAt(k < 0 ? k + 240 : k);
        angles(length, &tip, &head);
        blPathClear(&path);
        blContextFillAllRgba32(&ctx, 0xFF202020u);
        if (length != 0) {
            blPathMoveTo(&path, a->cx + a->mid * cos(tip), a->cy + a->mid * sin(tip));
            blPathArcTo(&path, a->cx, a->cy, a->outer, a->outer, head, kStart - head, false);
            blPathArcTo(&path, a->cx, a->cy, a->inner, a->inner, kStart, head - kStart, false);
            blPathClose(&path);
            blContextFillPathDExt(&ctx, &origin, &path, (const BLUnknown*)&pattern);
        }
        blContextFlush(&ctx, BL_CONTEXT_FLUSH_SYNC);
        if (k >= 0) times[k] = now() - t0;
    }
    blContextEnd(&ctx);
    BLImageData data;
    blImageGetData(&target, &data);
    writePNG(pngDir, "arrow-blend2d", data.pixelData, a->width, a->height, (int)data.stride);
    blPathDestroy(&path);
    blPatternDestroy(&pattern);
    blImageDestroy(&picture);
    blImageDestroy(&target);
}

static void runCairo(const Arrow* a, int frames, uint32_t* image, double* times, const char* pngDir) {
    cairo_surface_t* target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, a->width, a->height);
    cairo_surface_t* picture = cairo_image_surface_create_for_data((unsigned char*)image, CAIRO_FORMAT_ARGB32, a->side, a->side, a->side * 4);
    cairo_t* cr = cairo_create(target);
    for (int k = -30; k < frames; k++) {
        double t0 = now();
        double tip, head, length = lengthAt(k < 0 ? k + 240 : k);
        angles(length, &tip, &head);
        cairo_set_source_rgb(cr, 0x20 / 255.0, 0x20 / 255.0, 0x20 / 255.0);
        cairo_paint(cr);
        if (length != 0) {
            cairo_new_path(cr);
            cairo_move_to(cr, a->cx + a->mid * cos(tip), a->cy + a->mid * sin(tip));
            cairo_arc_negative(cr, a->cx, a->cy, a->outer, head, kStart);
            cairo_arc(cr, a->cx, a->cy, a->inner, kStart, head);
            cairo_close_path(cr);
            cairo_set_source_surface(cr, picture, a->originX, a->originY);
            cairo_fill(cr);
        }
        cairo_surface_flush(target);
        if (k >= 0) times[k] = now() - t0;
    }
    writePNG(pngDir, "arrow-cairo", (uint32_t*)cairo_image_surface_get_data(target), a->width, a->height,
             cairo_image_surface_get_stride(target));
    cairo_destroy(cr);
    cairo_surface_destroy(picture);
    cairo_surface_destroy(target);
}

/// The rays scene's frame k: the wedges' outline at the frame's angle, as move/line/close calls.
typedef struct { double cx, cy, radius; } Rays;

static Rays raysFor(int w, int h) {
    Rays r = {w / 2.0, h / 2.0, sqrt((double)w * w + (double)h * h) / 2};
    return r;
}

static double raysAngle(int k) { return 2 * M_PI * (k % 720) / 720.0; }

typedef void (*MoveFn)(void*, double, double);
static void raysPath(const Rays* r, double angle, void* target, MoveFn moveTo, MoveFn lineTo, void (*close)(void*)) {
    double slice = 2 * M_PI / 16;
    for (int i = 0; i < 16; i += 2) {
        double a0 = i * slice + angle, a1 = a0 + slice;
        moveTo(target, r->cx, r->cy);
        lineTo(target, r->cx + r->radius * cos(a0), r->cy + r->radius * sin(a0));
        lineTo(target, r->cx + r->radius * cos(a1), r->cy + r->radius * sin(a1));
        close(target);
    }
}

static void blMove(void* p, double x, double y) { blPathMoveTo((BLPathCore*)p, x, y); }
static void blLine(void* p, double x, double y) { blPathLineTo((BLPathCore*)p, x, y); }
static void blClose(void* p) { blPathClose((BLPathCore*)p); }
static void cairoMove(void* p, double x, double y) { cairo_move_to((cairo_t*)p, x, y); }
static void cairoLine(void* p, double x, double y) { cairo_line_to((cairo_t*)p, x, y); }
static void cairoClose(void* p) { cairo_close_path((cairo_t*)p); }

static void runRaysBlend2D(const Arrow* a, int frames, double* times, const char* pngDir) {
    Rays r = raysFor(a->width, a->height);
    BLImageCore target;
    blImageInitAs(&target, a->width, a->height, BL_FORMAT_PRGB32);
    BLContextCore ctx;
    blContextInitAs(&ctx, &target, NULL);
    blContextSetStrokeWidth(&ctx, 2);
    blContextSetStrokeJoin(&ctx, BL_STROKE_JOIN_ROUND);
    BLPathCore path;
    blPathInit(&path);
    BLPoint origin = {0, 0};
    for (int k = -30; k < frames; k++) {
        double t0 = now();
        blPathClear(&path);
        raysPath(&r, raysAngle(k + 30), &path, blMove, blLine, blClose);
        blContextFillAllRgba32(&ctx, 0xFF24507Au);
        blContextFillPathDRgba32(&ctx, &origin, &path, 0xFF3B7FBFu);
        blContextStrokePathDRgba32(&ctx, &origin, &path, 0xFF8CC4F2u);
        blContextFlush(&ctx, BL_CONTEXT_FLUSH_SYNC);
        if (k >= 0) times[k] = now() - t0;
    }
    blContextEnd(&ctx);
    BLImageData data;
    blImageGetData(&target, &data);
    writePNG(pngDir, "rays-blend2d", data.pixelData, a->width, a->height, (int)data.stride);
    blPathDestroy(&path);
    blImageDestroy(&target);
}

static void runRaysCairo(const Arrow* a, int frames, double* times, const char* pngDir) {
    Rays r = raysFor(a->width, a->height);
    cairo_surface_t* target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, a->width, a->height);
    cairo_t* cr = cairo_create(target);
    cairo_set_line_width(cr, 2);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (int k = -30; k < frames; k++) {
        double t0 = now();
        cairo_set_source_rgb(cr, 0x24 / 255.0, 0x50 / 255.0, 0x7A / 255.0);
        cairo_paint(cr);
        cairo_new_path(cr);
        raysPath(&r, raysAngle(k + 30), cr, cairoMove, cairoLine, cairoClose);
        cairo_set_source_rgb(cr, 0x3B / 255.0, 0x7F / 255.0, 0xBF / 255.0);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0x8C / 255.0, 0xC4 / 255.0, 0xF2 / 255.0);
        cairo_stroke(cr);
        cairo_surface_flush(target);
        if (k >= 0) times[k] = now() - t0;
    }
    writePNG(pngDir, "rays-cairo", (uint32_t*)cairo_image_surface_get_data(target), a->width, a->height,
             cairo_image_surface_get_stride(target));
    cairo_destroy(cr);
    cairo_surface_destroy(target);
}

int main(int argc, char** argv) {
    int w = 1920, h = 1080, frames = 600;
    const char* peers = "blend2d,cairo";
    const char* pngDir = NULL;
    const char* scene = "arrow";
    for (int i = 1; i < argc; i++) {
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--size") && v && sscanf(v, "%dx%d", &w, &h) == 2) { i++; continue; }
        if (!strcmp(argv[i], "--frames") && v && (frames = atoi(v)) > 0) { i++; continue; }
        if (!strcmp(argv[i], "--peers") && v) { peers = v; i++; continue; }
        if (!strcmp(argv[i], "--png") && v) { pngDir = v; i++; continue; }
        if (!strcmp(argv[i], "--scene") && v && (!strcmp(v, "arrow") || !strcmp(v, "rays"))) { scene = v; i++; continue; }
        fprintf(stderr, "usage: arrow-peers [--scene arrow|rays] [--size WxH] [--frames N] [--peers blend2d,cairo] [--png DIR]\n");
        return 64;
    }
    if (w < 1 || h < 1 || w > 16384 || h > 16384 || frames > 1000000) {
        fprintf(stderr, "arrow-peers: size must be 1...16384 on each side, frames 1...1000000\n");
        return 64;
    }
    Arrow a = arrowFor(w, h);
    double* times = malloc(sizeof(double) * frames);
    if (!strcmp(scene, "rays")) {
        if (strstr(peers, "blend2d")) { runRaysBlend2D(&a, frames, times, pngDir); report("blend2d", &a, times, frames); }
        if (strstr(peers, "cairo")) { runRaysCairo(&a, frames, times, pngDir); report("cairo", &a, times, frames); }
        free(times);
        return 0;
    }
    uint32_t* image = makeImage(a.side);
    if (strstr(peers, "blend2d")) { runBlend2D(&a, frames, image, times, pngDir); report("blend2d", &a, times, frames); }
    if (strstr(peers, "cairo")) { runCairo(&a, frames, image, times, pngDir); report("cairo", &a, times, frames); }
    free(times);
    free(image);
    return 0;
}
