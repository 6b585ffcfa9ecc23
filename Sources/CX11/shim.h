// CX11: Xlib, MIT-SHM, Present (with XFixes regions and XRandR rates) and SysV shared memory for Swift.
// Includes, static inline wrappers for Xlib's function-like macros (which Swift cannot import),
// and the few lines that read Present's events from libxcb's special event queue.
#pragma once
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/Xpresent.h>
#include <X11/Xlib-xcb.h>
#include <xcb/xcb.h>
#include <xcb/present.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>

static inline int CX11_XDestroyImage(XImage *image) { return XDestroyImage(image); }
static inline unsigned long CX11_XGetPixel(XImage *image, int x, int y) { return XGetPixel(image, x, y); }
static inline int CX11_XPutPixel(XImage *image, int x, int y, unsigned long pixel) { return XPutPixel(image, x, y, pixel); }
static inline int CX11_ConnectionNumber(Display *display) { return ConnectionNumber(display); }
static inline int CX11_DefaultScreen(Display *display) { return DefaultScreen(display); }
static inline Window CX11_RootWindow(Display *display, int screen) { return RootWindow(display, screen); }
static inline Visual *CX11_DefaultVisual(Display *display, int screen) { return DefaultVisual(display, screen); }
static inline int CX11_DefaultDepth(Display *display, int screen) { return DefaultDepth(display, screen); }
static inline unsigned long CX11_BlackPixel(Display *display, int screen) { return BlackPixel(display, screen); }
static inline GC CX11_DefaultGC(Display *display, int screen) { return DefaultGC(display, screen); }

// Present's events, read from a libxcb special event queue rather than Xlib's generic-event
// cookies: Xlib would keep a node per event (_XStoreEventCookie) and libXpresent would malloc the
// decoded copy (XGetEventData), on top of the event libxcb itself allocates. Here the event is
// decoded straight from libxcb's buffer and freed at once.

/// A Present event, decoded: only CompleteNotify is selected, so other kinds come as `evtype` alone.
typedef struct {
    uint16_t evtype;
    uint8_t kind;
    uint8_t mode;
    uint32_t window;
    uint32_t serial;
    uint64_t ust;
    uint64_t msc;
} CX11_PresentEvent;

/// Sends Present's events for `eid` (an XPresentSelectInput id) to a queue of their own; NULL
/// if libxcb could not make one. libxcb adds 1 to `*stamp` for each event it queues there, so
/// the queue can be known empty without a call that would read the socket.
static inline xcb_special_event_t *CX11_RegisterPresentEvents(Display *display, uint32_t eid, uint32_t *stamp) {
    return xcb_register_for_special_xge(XGetXCBConnection(display), &xcb_present_id, eid, stamp);
}

static inline void CX11_UnregisterPresentEvents(Display *display, xcb_special_event_t *queue) {
    xcb_unregister_for_special_event(XGetXCBConnection(display), queue);
}

/// Takes the next Present event of `queue`; returns 0 when there is none. Call it only while the
/// stamp says events are queued: on an empty queue libxcb reads the socket, and could leave other
/// events in its own queue, where neither Xlib's count nor the descriptor shows them.
static inline int CX11_PollPresentEvent(Display *display, xcb_special_event_t *queue, CX11_PresentEvent *out) {
    xcb_generic_event_t *event = xcb_poll_for_special_event(XGetXCBConnection(display), queue);
    if (!event) return 0;
    const xcb_present_generic_event_t *generic = (const xcb_present_generic_event_t *)event;
    out->evtype = generic->evtype;
    if (generic->evtype == XCB_PRESENT_COMPLETE_NOTIFY) {
        const xcb_present_complete_notify_event_t *complete = (const xcb_present_complete_notify_event_t *)event;
        out->kind = complete->kind;
        out->mode = complete->mode;
        out->window = complete->window;
        out->serial = complete->serial;
        out->ust = complete->ust;
        out->msc = complete->msc;
    }
    free(event);
    return 1;
}
