// New top-level windows, checked in batches: a storm of windows costs a round trip per batch, not per window.
import CX11
import CXCB
import Glibc

/// What one batch learned of a new window.
struct NewWindowFacts {
    let window: Window
    let instance: String
    let className: String
    let isViewable: Bool
}

/// Selects the events the agent follows on new windows and reads their class and map state,
/// for many windows in one round trip. A window that vanished before its turn fails only its
/// own requests and is dropped.
struct NewWindowBatch {
    private let display: Display
    private let connection: OpaquePointer

    init(_ display: Display) {
        self.display = display
        connection = XGetXCBConnection(display.handle)
    }

    /// Selects `mask` on each of `windows` and reads their `WM_CLASS` and map state.
    func check(_ windows: [Window], selecting mask: Int) -> [NewWindowFacts] {
        let wmClass = UInt32(truncatingIfNeeded: display.atom("WM_CLASS"))
        let classLength = UInt32(2 * PropertyDecoding.maximumTextBytes / 4)
        var value = UInt32(truncatingIfNeeded: mask)
        let cookies = windows.map { window in
            let id = UInt32(truncatingIfNeeded: window)
            return (window: window,
                    select: xcb_change_window_attributes_checked(connection, id, UInt32(XCB_CW_EVENT_MASK.rawValue), &value),
                    attributes: xcb_get_window_attributes(connection, id),
                    wmClass: xcb_get_property(connection, 0, id, wmClass, UInt32(XA_STRING), 0, classLength))
        }
        xcb_flush(connection)
        return cookies.compactMap { cookie in
            // The error of a vanished window is taken here, so Xlib's handler never sees it.
            free(xcb_request_check(connection, cookie.select))
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            let attributes = xcb_get_window_attributes_reply(connection, cookie.attributes, &error)
            free(error)
            error = nil
            let property = xcb_get_property_reply(connection, cookie.wmClass, &error)
            free(error)
            defer { free(attributes); free(property) }
            guard let attributes else { return nil }
            var names = (instance: "", className: "")
            if let property, property.pointee.format == 8, let data = xcb_get_property_value(property) {
                let length = Int(max(0, xcb_get_property_value_length(property)))
                names = PropertyDecoding.wmClass(Array(UnsafeRawBufferPointer(start: data, count: length)))
            }
            return NewWindowFacts(window: cookie.window, instance: names.instance, className: names.className,
                                  isViewable: attributes.pointee.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue))
        }
    }

    /// Stops selecting events on `windows` (named windows that are not tools), in one flush.
    func deselect(_ windows: [Window]) {
        var none: UInt32 = 0
        let cookies = windows.map {
            xcb_change_window_attributes_checked(connection, UInt32(truncatingIfNeeded: $0), UInt32(XCB_CW_EVENT_MASK.rawValue), &none)
        }
        xcb_flush(connection)
        for cookie in cookies { free(xcb_request_check(connection, cookie)) }
    }
}
