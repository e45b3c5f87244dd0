// The window tree in batches: clients inside frames, which root children are override-redirect,
// and the parents that lead from a client to its top-level window.
import CX11
import CXCB
import Glibc

/// What the stacking order needs of one child of the root.
struct RootChild {
    let isOverrideRedirect: Bool
    let isViewable: Bool
}

extension WindowBatch {
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
            return ClientClue(hasState: hasState, hasClass: hasClass ?? false, children: tree(cookie.tree)?.children)
        }
    }

    /// In one round trip: whether each of the root's `children` is override-redirect and
    /// viewable (a child that is gone is left out), and the parent of each of `windows` (a
    /// window that is gone is left out).
    func rootChildrenAndParents(_ children: [Window], parentsOf windows: [Window]) -> (children: [Window: RootChild], parents: [Window: Window]) {
        let attributes = children.map { ($0, xcb_get_window_attributes(connection, UInt32(truncatingIfNeeded: $0))) }
        let trees = windows.map { ($0, xcb_query_tree(connection, UInt32(truncatingIfNeeded: $0))) }
        xcb_flush(connection)
        var found: [Window: RootChild] = [:]
        for (window, cookie) in attributes {
            guard let reply = reply({ xcb_get_window_attributes_reply(connection, cookie, $0) }) else { continue }
            found[window] = RootChild(isOverrideRedirect: reply.override_redirect != 0,
                                      isViewable: reply.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue))
        }
        var parents: [Window: Window] = [:]
        for (window, cookie) in trees {
            if let parent = tree(cookie)?.parent { parents[window] = parent }
        }
        return (found, parents)
    }

    /// The parent of each of `windows`, in one round trip; a window that is gone is left out.
    func parents(of windows: [Window]) -> [Window: Window] {
        rootChildrenAndParents([], parentsOf: windows).parents
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
