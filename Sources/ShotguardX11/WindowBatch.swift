// Reads every top-level window's geometry, names, type, opacity and frame in one batch of XCB requests.
import CX11
import CXCB
import Glibc
import ShotguardImaging
import ShotguardScreen

/// A client window and the child of the root that shows it (its frame, or the client itself
/// when nothing reparented it); `topLevel` is nil when it could not be found.
struct StackEntry: Hashable {
    let client: Window
    let topLevel: Window?
}

/// The window list at event time, read in a fixed number of round trips whatever the number
/// of windows: all requests go out first, then every reply is collected. An error comes back
/// with its own reply, so a window that vanished mid-batch fails only its own requests and is
/// dropped; nothing goes through Xlib's error handler.
struct WindowBatch {
    let display: Display
    let connection: OpaquePointer
    let atoms: Atoms
    /// Whether the server has SHAPE; asked once per connection (XCB keeps the answer).
    let hasShape: Bool

    /// The atoms the batch asks for, interned together in one round trip, once per connection
    /// (`Display.windowAtoms` keeps them).
    struct Atoms {
        let utf8String, netWMName, wmClass, frameExtents, windowType, opacity, protect: UInt32
        /// `_NET_WM_WINDOW_TYPE_*` atoms and the types they name.
        let types: [UInt32: WindowType]

        init(_ display: Display) {
            let named = ["UTF8_STRING", "_NET_WM_NAME", "WM_CLASS", "_NET_FRAME_EXTENTS", "_NET_WM_WINDOW_TYPE",
                         "_NET_WM_WINDOW_OPACITY", Display.protectProperty] + WindowType.allCases.map(\.atomName)
            let values = display.atoms(named).map { UInt32(truncatingIfNeeded: $0) }
            (utf8String, netWMName, wmClass, frameExtents, windowType, opacity, protect) =
                (values[0], values[1], values[2], values[3], values[4], values[5], values[6])
            types = Dictionary(zip(values.dropFirst(7), WindowType.allCases), uniquingKeysWith: { first, _ in first })
        }
    }

    init(_ display: Display) {
        self.display = display
        // libX11 runs on XCB: every Xlib connection has one.
        connection = XGetXCBConnection(display.handle)
        if let known = display.windowAtoms {
            atoms = known
        } else {
            atoms = Atoms(display)
            display.windowAtoms = atoms
        }
        hasShape = xcb_get_extension_data(connection, sg_xcb_shape_id())?.pointee.present != 0
    }

    /// The cookies of one window's requests, and of its top-level window's when that is
    /// another window (a frame).
    private struct Pending {
        let entry: StackEntry
        let window: UInt32
        let attributes: xcb_get_window_attributes_cookie_t
        let geometry: xcb_get_geometry_cookie_t
        let position: xcb_translate_coordinates_cookie_t
        let wmClass, netName, name, extents, types, transient, opacity, protect: xcb_get_property_cookie_t
        let shape: xcb_shape_query_extents_cookie_t?
        let frame: FrameCookies?
    }

    private struct FrameCookies {
        let geometry: xcb_get_geometry_cookie_t
        let opacity: xcb_get_property_cookie_t
        let shape: xcb_shape_query_extents_cookie_t?
    }

    /// Class, title, geometry, types, opacity and protection of each entry's client, with its
    /// top-level window's rectangle, visual, opacity and shape; in their order. Windows that
    /// are gone, or whose replies make no sense, are left out.
    func windowInfos(_ entries: [StackEntry]) -> [WindowInfo] {
        let root = UInt32(truncatingIfNeeded: display.root)
        let textLength = UInt32(PropertyDecoding.maximumTextBytes / 4)
        let any = UInt32(AnyPropertyType), cardinal = UInt32(XA_CARDINAL)
        let pending = entries.compactMap { entry -> Pending? in
            guard let id = UInt32(exactly: entry.client), PropertyDecoding.isWindowID(id) else { return nil }
            var frame: FrameCookies?
            if let topLevel = entry.topLevel, topLevel != entry.client, let top = UInt32(exactly: topLevel) {
                frame = FrameCookies(geometry: xcb_get_geometry(connection, top),
                                     opacity: xcb_get_property(connection, 0, top, atoms.opacity, cardinal, 0, 1),
                                     shape: hasShape ? xcb_shape_query_extents(connection, top) : nil)
            }
            return Pending(
                entry: entry, window: id,
                attributes: xcb_get_window_attributes(connection, id),
                geometry: xcb_get_geometry(connection, id),
                position: xcb_translate_coordinates(connection, id, root, 0, 0),
                wmClass: xcb_get_property(connection, 0, id, atoms.wmClass, UInt32(XA_STRING), 0, 2 * textLength),
                netName: xcb_get_property(connection, 0, id, atoms.netWMName, atoms.utf8String, 0, textLength),
                name: xcb_get_property(connection, 0, id, UInt32(XA_WM_NAME), any, 0, textLength),
                extents: xcb_get_property(connection, 0, id, atoms.frameExtents, cardinal, 0, 8),
                types: xcb_get_property(connection, 0, id, atoms.windowType, UInt32(XA_ATOM), 0,
                                        UInt32(PropertyDecoding.maximumWindowTypes)),
                transient: xcb_get_property(connection, 0, id, UInt32(XA_WM_TRANSIENT_FOR), UInt32(XA_WINDOW), 0, 1),
                opacity: xcb_get_property(connection, 0, id, atoms.opacity, cardinal, 0, 1),
                protect: xcb_get_property(connection, 0, id, atoms.protect, cardinal, 0, 1),
                shape: hasShape ? xcb_shape_query_extents(connection, id) : nil,
                frame: frame)
        }
        xcb_flush(connection)
        // Every reply is collected (and freed), also after a failure, so none is left queued.
        return pending.compactMap { collect($0) }
    }

    private func collect(_ request: Pending) -> WindowInfo? {
        let attributes = reply { xcb_get_window_attributes_reply(connection, request.attributes, $0) }
        let geometry = reply { xcb_get_geometry_reply(connection, request.geometry, $0) }
        let position = reply { xcb_translate_coordinates_reply(connection, request.position, $0) }
        let wmClass = property(request.wmClass), netName = property(request.netName), name = property(request.name)
        let extents = cardinals(request.extents), types = cardinals(request.types)
        let transient = cardinals(request.transient), opacity = cardinals(request.opacity), protect = cardinals(request.protect)
        let shaped = isShaped(request.shape)
        let top = request.frame.flatMap { collectFrame($0) }
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
        let decorations = extents.flatMap(PropertyDecoding.frameExtents) ?? .none
        let viewable = attributes.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue)
            && attributes._class == UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue)
        // The client's own rectangle on the root, border included, when nothing reparented it.
        let border = Int(geometry.border_width)
        let own = Rect(x: frame.x - border, y: frame.y - border, width: frame.width + 2 * border, height: frame.height + 2 * border)
        let isTopLevel = request.entry.topLevel == request.entry.client
        let topRect: Rect? = isTopLevel ? own : top?.rect
        // A client in another window's frame was put there by a window manager: it is managed.
        let overrideRedirect = isTopLevel && attributes.override_redirect != 0
        let clientOpaque = geometry.depth != 32 && !shaped && PropertyDecoding.isFullyOpaque(opacity: opacity)
        // A window whose frame is unknown (gone meanwhile, or never found) hides nothing.
        let frameOpaque = isTopLevel || top?.isOpaque == true
        let listed = PropertyDecoding.windowTypes(types ?? [], known: atoms.types)
        let isTransient = transient.flatMap(PropertyDecoding.window) != nil
        let outerFrame = PropertyDecoding.outerFrame(frame, extents: decorations) ?? frame
        return WindowInfo(id: UInt(request.window), className: hint.className, instance: hint.instance, title: title,
                          frame: frame, isViewable: viewable, outerFrame: outerFrame,
                          opaqueArea: PropertyDecoding.opaqueArea(outerFrame, within: topRect),
                          types: WindowType.effective(listed: listed, isTransient: isTransient,
                                                      isOverrideRedirect: overrideRedirect),
                          isOpaque: clientOpaque && frameOpaque, isOverrideRedirect: overrideRedirect,
                          requestsProtection: PropertyDecoding.requestsProtection(protect))
    }

    /// What a frame (the top-level window around a client) tells: its rectangle on the root,
    /// border included, and whether it is opaque. Nil when it is gone or its geometry makes no
    /// sense.
    private func collectFrame(_ cookies: FrameCookies) -> (rect: Rect, isOpaque: Bool)? {
        let geometry = reply { xcb_get_geometry_reply(connection, cookies.geometry, $0) }
        let opacity = cardinals(cookies.opacity)
        let shaped = isShaped(cookies.shape)
        guard let geometry else { return nil }
        let border = Int64(geometry.border_width)
        // A child of the root: its position is on the root, at the outer corner of its border.
        guard let rect = PropertyDecoding.rect(x: Int64(geometry.x), y: Int64(geometry.y), width: Int64(geometry.width) + 2 * border,
                                               height: Int64(geometry.height) + 2 * border) else { return nil }
        return (rect, geometry.depth != 32 && !shaped && PropertyDecoding.isFullyOpaque(opacity: opacity))
    }
}
