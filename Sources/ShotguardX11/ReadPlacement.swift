// Where on the screen the pixels of a recorded read are: the read's rectangle in root coordinates.
import CX11
import CXCB
import Glibc
import ShotguardImaging

extension Display {
    /// The rectangle of the root whose pixels `read` took, or nil when that cannot be told:
    /// - the root: its area as requested, clipped to the screen;
    /// - a window: its area moved to root coordinates, clipped to the window (with its
    ///   border, which GetImage may read) and to the screen;
    /// - a pixmap named for a window with Composite (`read.pixmapWindow`): its area inside
    ///   that window's pixmap, which holds the window with its border, in the same way;
    /// - any other pixmap, or a window that is gone: nil. maim, for one, draws the root into a
    ///   pixmap of its own with RENDER's Composite and reads that pixmap; which part of the
    ///   root went into it is said only by the Composite request, and recording that request
    ///   would record every toolkit's and compositor's drawing. Its read gives nil; its size is
    ///   the image's, which placement by pixels can then find.
    /// The window is looked at now, when its read has just been seen: one round trip, no Xlib
    /// error (a vanished window is an ordinary answer here).
    public func rootRectangle(of read: ScreenRead) -> Rect? {
        if read.drawable == UInt(root) { return read.area.intersection(screenRect) }
        guard let placed = windowPlacement(of: read) else { return nil }
        let shown = placed.area.intersection(placed.screen)
        return shown.isEmpty ? nil : shown
    }

    /// What `read` took of a window (or of the pixmap named for it), in root coordinates and
    /// clipped to the window alone, with the screen's rectangle: a window wholly past the
    /// screen's edge (dwm hides another tag's windows so) still has its own pixels, which a
    /// reader of that window takes. Nil for the root, a pixmap, or a window that is gone.
    func windowPlacement(of read: ScreenRead) -> (area: Rect, screen: Rect)? {
        if read.drawable == UInt(root) { return nil }
        guard let window = UInt32(exactly: read.pixmapWindow ?? read.drawable), let place = windowOnRoot(window) else { return nil }
        let area = read.pixmapWindow == nil ? read.area.offsetBy(dx: place.origin.x, dy: place.origin.y)
                                            : read.area.offsetBy(dx: place.outer.x, dy: place.outer.y)
        let placed = area.intersection(place.outer)
        return placed.isEmpty ? nil : (placed, place.screen)
    }

    /// The root's rectangle as it is now (one round trip: RandR can change it at any time).
    var screenRect: Rect {
        let size = size
        return Rect(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// Where `window` is on the root: the origin of its inside, its outer rectangle (with its
    /// border), and the screen's rectangle; nil for a pixmap, a window that is gone, or a
    /// window of another screen. One round trip of three requests.
    func windowOnRoot(_ window: UInt32) -> (origin: (x: Int, y: Int), outer: Rect, screen: Rect)? {
        guard let rootID = UInt32(exactly: root) else { return nil }
        let connection = XGetXCBConnection(handle)
        let geometry = xcb_get_geometry(connection, window)
        let position = xcb_translate_coordinates(connection, window, rootID, 0, 0)
        let screen = xcb_get_geometry(connection, rootID)
        xcb_flush(connection)
        // Every reply is taken, so none stays queued for Xlib.
        let windowGeometry = xcbReply { xcb_get_geometry_reply(connection, geometry, $0) }
        let windowPosition = xcbReply { xcb_translate_coordinates_reply(connection, position, $0) }
        let screenGeometry = xcbReply { xcb_get_geometry_reply(connection, screen, $0) }
        // A pixmap has a geometry but no position: translating it fails (BadWindow).
        guard let windowGeometry, let windowPosition, let screenGeometry, windowPosition.same_screen != 0 else { return nil }
        let border = Int(windowGeometry.border_width)
        let origin = (x: Int(windowPosition.dst_x), y: Int(windowPosition.dst_y))
        let outer = Rect(x: origin.x - border, y: origin.y - border,
                         width: Int(windowGeometry.width) + 2 * border, height: Int(windowGeometry.height) + 2 * border)
        return (origin, outer, Rect(x: 0, y: 0, width: Int(screenGeometry.width), height: Int(screenGeometry.height)))
    }

    /// The parent of `window`, nil when it is gone (or a pixmap). One round trip.
    func parent(of window: UInt32) -> UInt32? {
        let connection = XGetXCBConnection(handle)
        let cookie = xcb_query_tree(connection, window)
        return xcbReply { xcb_query_tree_reply(connection, cookie, $0) }?.parent
    }
}

/// A reply copied out of XCB's allocation, or nil when the request failed; the error is taken
/// and freed here (left unclaimed, XCB would hand it to Xlib's error handler as an event).
private func xcbReply<T>(_ fetch: (UnsafeMutablePointer<UnsafeMutablePointer<xcb_generic_error_t>?>) -> UnsafeMutablePointer<T>?) -> T? {
    var error: UnsafeMutablePointer<xcb_generic_error_t>?
    let pointer = fetch(&error)
    free(error)
    guard let pointer else { return nil }
    defer { free(pointer) }
    return pointer.pointee
}
