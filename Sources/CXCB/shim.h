/* XCB on Xlib's own connection, for reading many windows in one round trip: XCB sends a
 * request and hands back a cookie, and the replies are collected afterwards, where every Xlib
 * call waits for its reply; SHAPE's extents request batches the same way. XGetXCBConnection
 * is declared here rather than through <X11/Xlib-xcb.h>, which would pull Xlib into a second
 * module; Xlib's Display stays opaque. */
#include <xcb/xcb.h>
#include <xcb/xproto.h>
#include <xcb/shape.h>

struct _XDisplay;
xcb_connection_t *XGetXCBConnection(struct _XDisplay *display);

/* SHAPE's extension id, for xcb_get_extension_data: the variable's type is opaque, so Swift
 * cannot take its address itself. */
static inline xcb_extension_t *sg_xcb_shape_id(void) { return &xcb_shape_id; }
