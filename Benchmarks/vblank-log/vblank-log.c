// vblank-log: writes every vblank of an X server's screen as "msc ust" (UST in microseconds of
// CLOCK_MONOTONIC), chaining Present's NotifyMSC on a window of its own, until SIGTERM or SIGINT.
// vsync-lateness.sh runs it beside the player so that ticks of the player's timer, which asks the
// server for no vblank, can be set against the vblanks the server had.
// Build: cc -O2 -o vblank-log vblank-log.c $(pkg-config --cflags --libs x11 xpresent)
// Usage: vblank-log OUTPUT   (DISPLAY names the server)
#include <X11/Xlib.h>
#include <X11/extensions/Xpresent.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static volatile sig_atomic_t stopping = 0;
static void stop(int signal) { (void)signal; stopping = 1; }

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: vblank-log OUTPUT\n");
        return 64;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror(argv[1]);
        return 73;
    }
    Display *display = XOpenDisplay(NULL);
    if (!display) {
        fprintf(stderr, "vblank-log: cannot open the display\n");
        return 69;
    }
    int opcode, event, error;
    if (!XPresentQueryExtension(display, &opcode, &event, &error)) {
        fprintf(stderr, "vblank-log: the server has no Present extension\n");
        return 69;
    }
    struct sigaction action = {.sa_handler = stop};
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    // Present reports vblanks of whatever screen a window is on; an unmapped window will do.
    Window window = XCreateSimpleWindow(display, DefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0);
    XPresentSelectInput(display, window, PresentCompleteNotifyMask);
    uint32_t serial = 1;
    XPresentNotifyMSC(display, window, serial, 0, 0, 0);
    XFlush(display);
    while (!stopping) {
        while (XPending(display) > 0) {
            XEvent e;
            XNextEvent(display, &e);
            if (e.type != GenericEvent || e.xcookie.extension != opcode || !XGetEventData(display, &e.xcookie)) continue;
            if (e.xcookie.evtype == PresentCompleteNotify) {
                XPresentCompleteNotifyEvent *complete = e.xcookie.data;
                fprintf(out, "%llu %llu\n", (unsigned long long)complete->msc, (unsigned long long)complete->ust);
                XPresentNotifyMSC(display, window, ++serial, complete->msc + 1, 0, 0);
                XFlush(display);
            }
            XFreeEventData(display, &e.xcookie);
        }
        struct pollfd fd = {.fd = ConnectionNumber(display), .events = POLLIN};
        poll(&fd, 1, 100);
    }
    fclose(out);
    XCloseDisplay(display);
    return 0;
}
