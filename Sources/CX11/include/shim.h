/* Xlib, MIT-SHM, XFixes, RandR (1.5 monitors), XInput 2, RECORD, X-Resource and Composite for Swift. Function-like
 * macros do not import: Swift code calls the real functions (XDefaultRootWindow, ...) and the image's function table
 * instead. RECORD's and X-Resource's functions are called through sg_x_sensing.h, Composite's through
 * sg_x_composite.h: their libraries are loaded on first use. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/shape.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/record.h>
#include <X11/extensions/XRes.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include "sg_x_sensing.h"
#include "sg_x_composite.h"
