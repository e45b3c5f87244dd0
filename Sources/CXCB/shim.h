/* XCB on Xlib's own connection, for reading many windows in one round trip: XCB sends a
 * request and hands back a cookie, and the replies are collected afterwards, where every Xlib
 * call waits for its reply. XGetXCBConnection is declared here rather than through
 * <X11/Xlib-xcb.h>, which would pull Xlib into a second module; Xlib's Display stays opaque. */
#include <xcb/xcb.h>
#include <xcb/xproto.h>

struct _XDisplay;
xcb_connection_t *XGetXCBConnection(struct _XDisplay *display);
