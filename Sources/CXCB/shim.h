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

/* RECORD's EnableContext (minor opcode 5), sent on a data connection of its own: its replies
 * then come as a stream for this one request, read with xcb_poll_for_reply, which never
 * writes and waits only for the rest of a reply whose start has arrived. xcb keeps every
 * reply of the request until it is asked for it. Sent as the generated libxcb-record code
 * sends its checked request (an error comes back as the request's, not as an event):
 * xcb_send_request needs two writable iovecs before the request's own. With no extension
 * named, xcb puts `major` in the request's first byte and leaves the minor opcode. */
#include <xcb/xcbext.h>
#include <sys/uio.h>

static inline unsigned int sg_xcb_record_enable_context(xcb_connection_t *connection, uint8_t major, uint32_t context) {
    struct { uint8_t major, minor; uint16_t length; uint32_t context; } request = { major, 5, 2, context };
    struct iovec parts[4] = { { 0, 0 }, { 0, 0 }, { &request, sizeof request }, { 0, 0 } };
    xcb_protocol_request_t info = { .count = 2, .ext = 0, .opcode = major, .isvoid = 0 };
    return xcb_send_request(connection, XCB_REQUEST_CHECKED, parts + 2, &info);
}
