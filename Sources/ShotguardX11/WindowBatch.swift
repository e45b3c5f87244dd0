// Reads every top-level window's geometry, names and decorations in one batch of XCB requests.
import CX11
import CXCB
import Glibc
import ShotguardScreen

/// The window list at event time, read in a fixed number of round trips whatever the number
/// of windows: all requests go out first, then every reply is collected. An error comes back
/// with its own reply, so a window that vanished mid-batch fails only its own requests and is
/// dropped; nothing goes through Xlib's error handler.
struct WindowBatch {
    private let display: Display
    private let connection: OpaquePointer
    private let atoms: Atoms

    /// The atoms the batch asks for, interned once per batch (Xlib caches them after the first).
    private struct Atoms {
        let utf8String, netWMName, wmClass, frameExtents: UInt32

        init(_ display: Display) {
            utf8String = UInt32(truncatingIfNeeded: display.atom("UTF8_STRING"))
            netWMName = UInt32(truncatingIfNeeded: display.atom("_NET_WM_NAME"))
            wmClass = UInt32(truncatingIfNeeded: display.atom("WM_CLASS"))
            frameExtents = UInt32(truncatingIfNeeded: display.atom("_NET_FRAME_EXTENTS"))
        }
    }

    init(_ display: Display) {
        self.display = display
        // libX11 runs on XCB: every Xlib connection has one.
        connection = XGetXCBConnection(display.handle)
        atoms = Atoms(display)
    }

    /// The cookies of one window's requests.
    private struct Pending {
        let window: UInt32
        let attributes: xcb_get_window_attributes_cookie_t
        let geometry: xcb_get_geometry_cookie_t
        let position: xcb_translate_coordinates_cookie_t
        let wmClass: xcb_get_property_cookie_t
        let netName: xcb_get_property_cookie_t
        let name: xcb_get_property_cookie_t
        let extents: xcb_get_property_cookie_t
    }

    /// Class, title and geometry of each of `windows`, in their order; windows that are gone,
    /// or whose replies make no sense, are left out.
    func windowInfos(_ windows: [Window]) -> [WindowInfo] {
        let root = UInt32(truncatingIfNeeded: display.root)
        let textLength = UInt32(PropertyDecoding.maximumTextBytes / 4)
        let pending = windows.compactMap { window -> Pending? in
            guard let id = UInt32(exactly: window), PropertyDecoding.isWindowID(id) else { return nil }
            return Pending(
                window: id,
                attributes: xcb_get_window_attributes(connection, id),
                geometry: xcb_get_geometry(connection, id),
                position: xcb_translate_coordinates(connection, id, root, 0, 0),
                wmClass: xcb_get_property(connection, 0, id, atoms.wmClass, UInt32(XA_STRING), 0, 2 * textLength),
                netName: xcb_get_property(connection, 0, id, atoms.netWMName, atoms.utf8String, 0, textLength),
                name: xcb_get_property(connection, 0, id, UInt32(XA_WM_NAME), UInt32(AnyPropertyType), 0, textLength),
                extents: xcb_get_property(connection, 0, id, atoms.frameExtents, UInt32(XA_CARDINAL), 0, 8))
        }
        xcb_flush(connection)
        // Every reply is collected (and freed), also after a failure, so none is left queued.
        return pending.compactMap { collect($0) }
    }

    private func collect(_ request: Pending) -> WindowInfo? {
        let attributes = reply { xcb_get_window_attributes_reply(connection, request.attributes, $0) }
        let geometry = reply { xcb_get_geometry_reply(connection, request.geometry, $0) }
        let position = reply { xcb_translate_coordinates_reply(connection, request.position, $0) }
        let wmClass = property(request.wmClass)
        let netName = property(request.netName)
        let name = property(request.name)
        let extents = property(request.extents)
        guard let attributes, let geometry, let position,
              let frame = PropertyDecoding.rect(x: Int64(position.dst_x), y: Int64(position.dst_y),
                                                width: Int64(geometry.width), height: Int64(geometry.height)) else {
            return nil
        }
        // WM_CLASS is two strings of 8-bit data; any other format is treated as absent.
        let hint = wmClass.flatMap { $0.format == 8 ? PropertyDecoding.wmClass($0.bytes) : nil } ?? (instance: "", className: "")
        let title: String
        if let netName, netName.format == 8, !netName.bytes.isEmpty {
            title = PropertyDecoding.utf8Text(netName.bytes)
        } else if let name, name.format == 8 {
            title = display.text(name.bytes, type: Atom(name.type))
        } else {
            title = ""
        }
        let decorations = extents.flatMap { $0.format == 32 ? PropertyDecoding.frameExtents(
            PropertyDecoding.cardinals(fromBytes: $0.bytes)) : nil } ?? .none
        let viewable = attributes.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue)
            && attributes._class == UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue)
        return WindowInfo(id: UInt(request.window), className: hint.className, instance: hint.instance, title: title,
                          frame: frame, isViewable: viewable,
                          outerFrame: PropertyDecoding.outerFrame(frame, extents: decorations) ?? frame)
    }

    /// What finding the client inside a top-level window looks at, for all of `windows` in one
    /// round trip: whether each has `WM_STATE`, whether its `WM_CLASS` names a class, and its
    /// children, bottom first (nil when the window is gone).
    func clientClues(_ windows: [Window]) -> [ClientClue] {
        let state = UInt32(truncatingIfNeeded: display.atom("WM_STATE"))
        let classLength = UInt32(2 * PropertyDecoding.maximumTextBytes / 4)
        let cookies = windows.map { window in
            let id = UInt32(truncatingIfNeeded: window)
            return (state: xcb_get_property(connection, 0, id, state, UInt32(AnyPropertyType), 0, 1),
                    wmClass: xcb_get_property(connection, 0, id, atoms.wmClass, UInt32(XA_STRING), 0, classLength),
                    tree: xcb_query_tree(connection, id))
        }
        xcb_flush(connection)
        return cookies.map { cookie in
            let hasState = property(cookie.state)?.format == 32
            let hasClass = property(cookie.wmClass).map { $0.format == 8 && !PropertyDecoding.wmClass($0.bytes).className.isEmpty }
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            let tree = xcb_query_tree_reply(connection, cookie.tree, &error)
            free(error)
            defer { free(tree) }
            let children = tree.map { tree in
                Array(UnsafeBufferPointer(start: xcb_query_tree_children(tree), count: Int(xcb_query_tree_children_length(tree))))
                    .map { Window($0) }
            }
            return ClientClue(hasState: hasState, hasClass: hasClass ?? false, children: children)
        }
    }

    /// Which of `windows` are mapped override-redirect windows (menus, pop-ups), in one batch.
    func mappedOverrides(_ windows: [Window]) -> [Window] {
        let cookies = windows.map { window in
            (window, xcb_get_window_attributes(connection, UInt32(truncatingIfNeeded: window)))
        }
        xcb_flush(connection)
        return cookies.compactMap { window, cookie in
            guard let attributes = reply({ xcb_get_window_attributes_reply(connection, cookie, $0) }),
                  attributes.override_redirect != 0, attributes.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue) else {
                return nil
            }
            return window
        }
    }

    /// A property's type, format and value bytes; nil when the window or the property is missing.
    private func property(_ cookie: xcb_get_property_cookie_t) -> (type: UInt32, format: UInt8, bytes: [UInt8])? {
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

    /// A reply copied out of XCB's allocation, or nil when the request failed. The error is
    /// taken here (given no place for it, XCB would queue it as an event for Xlib's handler).
    private func reply<T>(_ fetch: (UnsafeMutablePointer<UnsafeMutablePointer<xcb_generic_error_t>?>) -> UnsafeMutablePointer<T>?) -> T? {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let pointer = fetch(&error)
        free(error)
        guard let pointer else { return nil }
        defer { free(pointer) }
        return pointer.pointee
    }
}

/// What `WindowBatch.clientClues` reads of one window.
struct ClientClue {
    let hasState: Bool
    let hasClass: Bool
    let children: [Window]?

    /// Where to look for the client inside: nowhere when this window is one (`WM_STATE` or
    /// `WM_CLASS`) or is gone, else its children.
    var childrenToSearch: [Window]? { hasState || hasClass ? nil : children }
}
