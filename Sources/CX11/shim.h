// CX11: Xlib, MIT-SHM, Present (with XFixes regions and XRandR rates) and SysV shared memory for Swift.
// Only includes, plus static inline wrappers for Xlib's function-like macros,
// which Swift cannot import.
#pragma once
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/Xpresent.h>
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
