// CX11: Xlib, MIT-SHM, Present (with XFixes regions and XRandR rates) and SysV shared memory for Swift.
// Includes, static inline wrappers for Xlib's function-like macros (which Swift cannot import),
// and the reader of Present's events on a connection of their own.
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
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
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

// Present's events, on a second connection whose socket is read here into fixed memory.
//
// libxcb mallocs every packet it reads, and a node to queue it (read_packet() in xcb_in.c), and
// has no call that reads into the caller's memory: one vblank event a frame was two allocations.
// The server sends a window's Present events to every client that selected them, whoever made
// the present (present_send_complete_notify walks the window's list of selections), so a second
// connection that selects them and sends nothing more receives them all. libxcb opens it (display
// name, authorization) and sets it up; after that no libxcb call reads it (xcb_flush can: it
// reads while it waits to write), and whole packets are taken off its socket here.

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

/// The second connection's unread bytes. A packet is 32 bytes, a generic event (Present's) or a
/// reply 32 + 4 × its length field; one longer than the buffer (none is expected: the connection
/// asks for nothing) is skipped.
typedef struct {
    int fd;
    uint8_t present_opcode;
    uint32_t start;
    uint32_t end;
    /// Bytes of an oversized packet still to be dropped as they arrive.
    uint64_t skip;
    uint8_t bytes[4096];
} CX11_PresentEventReader;

/// Opens a connection to `name` for Present's events; NULL if it could not be opened.
static inline xcb_connection_t *CX11_ConnectPresentEvents(const char *name) {
    xcb_connection_t *connection = xcb_connect(name, NULL);
    if (!xcb_connection_has_error(connection)) return connection;
    xcb_disconnect(connection);
    return NULL;
}

/// Selects the CompleteNotify events of `window` on `connection` and waits until the server has
/// done so, so that every later present's completion reaches it; sets `*eid` to the selection's
/// id and sets up `reader` for the connection's socket. Returns 0 when the server has no Present,
/// refused the selection (the window is gone) or the connection failed. No present of the window
/// may be under way. After this, nothing may read the connection but CX11_ReadPresentEvent.
static inline int CX11_SelectPresentEvents(xcb_connection_t *connection, uint32_t window, uint32_t *eid,
                                           CX11_PresentEventReader *reader) {
    const xcb_query_extension_reply_t *present = xcb_get_extension_data(connection, &xcb_present_id);
    if (!present || !present->present) return 0;
    *eid = xcb_generate_id(connection);
    xcb_void_cookie_t cookie = xcb_present_select_input_checked(connection, *eid, window, XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY);
    // A round trip: the selection is in place before this returns, and its answer is the last
    // thing libxcb reads. It can have read unsolicited events with it (MappingNotify goes to
    // every client): whole ones wait in its queue and are dropped; no completion can be among
    // them, as no present was made yet.
    xcb_generic_error_t *error = xcb_request_check(connection, cookie);
    if (error) {
        free(error);
        return 0;
    }
    if (xcb_connection_has_error(connection)) return 0;
    xcb_generic_event_t *early;
    while ((early = xcb_poll_for_queued_event(connection))) free(early);
    reader->fd = xcb_get_file_descriptor(connection);
    reader->present_opcode = present->major_opcode;
    reader->start = reader->end = 0;
    reader->skip = 0;
    return 1;
}

/// Closes the connection: the server drops its selection. Never blocks (xcb_disconnect does not
/// flush), so it is safe on a stopped server or a lost connection.
static inline void CX11_ClosePresentEvents(xcb_connection_t *connection) { xcb_disconnect(connection); }

/// Takes the next Present event off the socket without blocking: 1 with `*out` filled, 0 when
/// no whole event has arrived, -1 when the connection is closed or failed. Other packets (core
/// events every client receives) are passed over.
static inline int CX11_ReadPresentEvent(CX11_PresentEventReader *reader, CX11_PresentEvent *out) {
    for (;;) {
        uint32_t available = reader->end - reader->start;
        if (reader->skip) {
            uint32_t dropped = reader->skip < available ? (uint32_t)reader->skip : available;
            reader->start += dropped;
            reader->skip -= dropped;
            available -= dropped;
        }
        if (!reader->skip && available >= 32) {
            const uint8_t *packet = reader->bytes + reader->start;
            uint8_t type = packet[0] & 0x7f;
            uint64_t size = 32;
            if (type == XCB_GE_GENERIC || packet[0] == 1 /* a reply */) {
                uint32_t length;
                memcpy(&length, packet + 4, 4);
                size += 4 * (uint64_t)length;
            }
            if (size > sizeof reader->bytes) {
                reader->skip = size - available;
                reader->start = reader->end;
                continue;
            }
            if (available >= size) {
                reader->start += (uint32_t)size;
                if (type != XCB_GE_GENERIC || packet[1] != reader->present_opcode) continue;
                memcpy(&out->evtype, packet + 8, 2);
                if (out->evtype == XCB_PRESENT_COMPLETE_NOTIFY && size >= 40) {
                    // The wire's layout (xcb's struct puts its full_sequence at 32).
                    out->kind = packet[10];
                    out->mode = packet[11];
                    memcpy(&out->window, packet + 16, 4);
                    memcpy(&out->serial, packet + 20, 4);
                    memcpy(&out->ust, packet + 24, 8);
                    memcpy(&out->msc, packet + 32, 8);
                }
                return 1;
            }
        }
        // Not a whole packet: keep its start at the front and read more.
        available = reader->end - reader->start;
        if (reader->start) memmove(reader->bytes, reader->bytes + reader->start, available);
        reader->start = 0;
        reader->end = available;
        ssize_t got = recv(reader->fd, reader->bytes + reader->end, sizeof reader->bytes - reader->end, MSG_DONTWAIT);
        if (got > 0) {
            reader->end += (uint32_t)got;
            continue;
        }
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        return -1;
    }
}

/// An epoll descriptor readable when `a` or `b` is (a window's two connections, for callers that
/// wait on one descriptor); -1 if it could not be made.
static inline int CX11_MakeReadiness(int a, int b) {
    int set = epoll_create1(EPOLL_CLOEXEC);
    if (set < 0) return -1;
    struct epoll_event event = { .events = EPOLLIN };
    event.data.fd = a;
    if (epoll_ctl(set, EPOLL_CTL_ADD, a, &event) == 0) {
        event.data.fd = b;
        if (epoll_ctl(set, EPOLL_CTL_ADD, b, &event) == 0) return set;
    }
    close(set);
    return -1;
}

/// Takes `descriptor` out of the epoll set `set` (before it is closed: its number may be reused).
static inline void CX11_RemoveFromReadiness(int set, int descriptor) { epoll_ctl(set, EPOLL_CTL_DEL, descriptor, NULL); }
