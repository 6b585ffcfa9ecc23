// blit-benchmark: the whole-frame baseline for the windowed player (issue 9). Maps a W×H
// window, then sends the whole frame with XShmPutImage followed by XSync, N times, and reports
// the FPS and the per-blit time (p50, p99). window-blit.sh runs it beside the player.
// Usage: blit-benchmark [--display :N] [--size WxH] [--frames N]
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    const char *name = NULL;
    int width = 1920, height = 1080, frames = 600;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--display")) name = argv[i + 1];
        else if (!strcmp(argv[i], "--size")) {
            if (sscanf(argv[i + 1], "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0) {
                fprintf(stderr, "blit-benchmark: bad size %s\n", argv[i + 1]);
                return 64;
            }
        } else if (!strcmp(argv[i], "--frames")) frames = atoi(argv[i + 1]);
        else { fprintf(stderr, "usage: blit-benchmark [--display :N] [--size WxH] [--frames N]\n"); return 64; }
    }
    if (frames <= 0) frames = 1;
    Display *display = XOpenDisplay(name);
    if (!display) { fprintf(stderr, "blit-benchmark: cannot open display %s\n", name ? name : "(DISPLAY)"); return 69; }
    if (!XShmQueryExtension(display)) { fprintf(stderr, "blit-benchmark: no MIT-SHM\n"); return 69; }
    int screen = DefaultScreen(display);
    Visual *visual = DefaultVisual(display, screen);
    Window window = XCreateSimpleWindow(display, RootWindow(display, screen), 0, 0, width, height, 0, 0, 0);
    XSelectInput(display, window, StructureNotifyMask);
    XMapWindow(display, window);
    for (XEvent e;;) { XNextEvent(display, &e); if (e.type == MapNotify) break; }
    GC gc = XCreateGC(display, window, 0, NULL);

    XShmSegmentInfo shm = {0};
    XImage *image = XShmCreateImage(display, visual, DefaultDepth(display, screen), ZPixmap, NULL, &shm, width, height);
    shm.shmid = shmget(IPC_PRIVATE, (size_t)image->bytes_per_line * height, IPC_CREAT | 0600);
    shm.shmaddr = image->data = shmat(shm.shmid, NULL, 0);
    shm.readOnly = False;
    XShmAttach(display, &shm);
    XSync(display, False);
    shmctl(shm.shmid, IPC_RMID, NULL);
    // The player's arrow frame colours: grey with a gradient square, so the pixels are not all equal.
    for (int y = 0; y < height; y++) {
        uint32_t *row = (uint32_t *)(image->data + (size_t)y * image->bytes_per_line);
        for (int x = 0; x < width; x++) row[x] = 0xFF202020u ^ (uint32_t)((x * 255 / width) << 16 | (y * 255 / height) << 8);
    }

    double *times = malloc(sizeof(double) * frames);
    double start = now();
    for (int i = 0; i < frames; i++) {
        double t0 = now();
        XShmPutImage(display, window, gc, image, 0, 0, 0, 0, width, height, False);
        XSync(display, False);
        times[i] = now() - t0;
    }
    double elapsed = now() - start;
    qsort(times, frames, sizeof(double), compare);
    printf("blit     whole %dx%d XShmPutImage + XSync: %d frames in %.2f s, %.1f FPS, blit p50 %.3f ms p99 %.3f ms\n",
           width, height, frames, elapsed, frames / elapsed, times[frames / 2] * 1e3, times[(int)(frames * 0.99)] * 1e3);
    free(times);
    XShmDetach(display, &shm);
    XDestroyImage(image);
    shmdt(shm.shmaddr);
    XCloseDisplay(display);
    return 0;
}
