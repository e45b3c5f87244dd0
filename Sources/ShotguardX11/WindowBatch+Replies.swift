// Collecting XCB replies for the window batch: each copied out of XCB's allocation, its error taken.
import CX11
import CXCB
import Glibc

extension WindowBatch {
    /// A property's type, format and value bytes; nil when the window or the property is missing.
    func property(_ cookie: xcb_get_property_cookie_t) -> (type: UInt32, format: UInt8, bytes: [UInt8])? {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = xcb_get_property_reply(connection, cookie, &error)
        free(error)
        guard let reply else { return nil }
        defer { free(reply) }
        guard reply.pointee.type != 0, let value = xcb_get_property_value(reply) else { return nil }
        let length = Int(max(0, xcb_get_property_value_length(reply)))
        let bytes = Array(UnsafeRawBufferPointer(start: value, count: length))
        return (reply.pointee.type, reply.pointee.format, bytes)
    }

    /// A format-32 property's values; nil when it is missing or of another format.
    func cardinals(_ cookie: xcb_get_property_cookie_t) -> [UInt32]? {
        guard let value = property(cookie), value.format == 32 else { return nil }
        return PropertyDecoding.cardinals(fromBytes: value.bytes)
    }

    /// A reply copied out of XCB's allocation, or nil when the request failed. The error is
    /// taken here (given no place for it, XCB would queue it as an event for Xlib's handler).
    func reply<T>(_ fetch: (UnsafeMutablePointer<UnsafeMutablePointer<xcb_generic_error_t>?>) -> UnsafeMutablePointer<T>?) -> T? {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let pointer = fetch(&error)
        free(error)
        guard let pointer else { return nil }
        defer { free(pointer) }
        return pointer.pointee
    }

    /// A window's parent and children, bottom first, from a `QueryTree` reply; nil when it is gone.
    func tree(_ cookie: xcb_query_tree_cookie_t) -> (parent: Window, children: [Window])? {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = xcb_query_tree_reply(connection, cookie, &error)
        free(error)
        guard let reply else { return nil }
        defer { free(reply) }
        let children = Array(UnsafeBufferPointer(start: xcb_query_tree_children(reply),
                                                 count: Int(max(0, xcb_query_tree_children_length(reply)))))
        return (Window(reply.pointee.parent), children.map { Window($0) })
    }

    /// Whether a window has a bounding shape (SHAPE); false when it has none, is gone, or the
    /// server has no SHAPE (then nothing was asked).
    func isShaped(_ cookie: xcb_shape_query_extents_cookie_t?) -> Bool {
        guard let cookie else { return false }
        return reply { xcb_shape_query_extents_reply(connection, cookie, $0) }.map { $0.bounding_shaped != 0 } ?? false
    }
}
