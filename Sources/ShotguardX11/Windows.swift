// Window queries in EWMH terms: the stacking list, the active window, geometry on screen.
import CX11
import ShotguardImaging
import ShotguardRegions

extension Display {
    /// Where a window's client area is on the root, and whether it is viewable.
    /// Throws when the window does not exist (any more).
    public func geometry(of window: Window) throws(X11Error) -> (frame: Rect, isViewable: Bool) {
        var attributes = XWindowAttributes()
        let (status, error) = trap { XGetWindowAttributes(handle, window, &attributes) }
        guard status != 0, error == nil else {
            throw X11Error(.windowGone, "window \(hexID(window)) does not exist (it may have closed)")
        }
        var x: Int32 = 0, y: Int32 = 0
        var child: Window = 0
        let (translated, translateError) = trap { XTranslateCoordinates(handle, window, root, 0, 0, &x, &y, &child) }
        guard translated != 0, translateError == nil else {
            throw X11Error(.windowGone, "window \(hexID(window)) does not exist (it may have closed)")
        }
        let frame = Rect(x: Int(x), y: Int(y), width: Int(attributes.width), height: Int(attributes.height))
        return (frame, attributes.map_state == IsViewable && attributes.`class` == InputOutput)
    }

    /// `_NET_FRAME_EXTENTS` (left, right, top, bottom): the window manager's decorations.
    public func frameExtents(of window: Window) -> (left: Int, right: Int, top: Int, bottom: Int) {
        guard let values = cardinals("_NET_FRAME_EXTENTS", of: window, type: XA_CARDINAL), values.count == 4 else {
            return (0, 0, 0, 0)
        }
        return (Int(values[0]), Int(values[1]), Int(values[2]), Int(values[3]))
    }

    /// Top-level client windows in stacking order, bottom first: `_NET_CLIENT_LIST_STACKING`
    /// from the window manager, else the root's children (no window manager running).
    public func topLevelWindows() -> [Window] {
        if let list = cardinals("_NET_CLIENT_LIST_STACKING", of: root, type: XA_WINDOW), !list.isEmpty {
            return list.map { Window($0) }
        }
        var rootReturn: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        let (status, _) = trap { XQueryTree(handle, root, &rootReturn, &parent, &children, &count) }
        guard status != 0, let children else { return [] }
        defer { XFree(children) }
        return (0..<Int(count)).map { clientWindow(in: children[$0]) }
    }

    /// The client inside a top-level window: itself when it has `WM_CLASS` or no children,
    /// else the first descendant with `WM_STATE` (a window manager without EWMH reparents).
    private func clientWindow(in window: Window, depth: Int = 0) -> Window {
        if depth == 3 || cardinals("WM_STATE", of: window) != nil || !classHint(of: window).className.isEmpty {
            return window
        }
        var rootReturn: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        let (status, _) = trap { XQueryTree(handle, window, &rootReturn, &parent, &children, &count) }
        guard status != 0, let children else { return window }
        defer { XFree(children) }
        for index in 0..<Int(count) {
            let client = clientWindow(in: children[index], depth: depth + 1)
            if client != children[index] || cardinals("WM_STATE", of: client) != nil { return client }
        }
        return window
    }

    /// The active window: `_NET_ACTIVE_WINDOW`, else the input focus's top-level window.
    public func activeWindow() -> Window? {
        if let values = cardinals("_NET_ACTIVE_WINDOW", of: root, type: XA_WINDOW), let first = values.first, first != 0 {
            return Window(first)
        }
        var focus: Window = 0
        var revert: Int32 = 0
        XGetInputFocus(handle, &focus, &revert)
        guard focus > 1, focus != root else { return nil }  // None, PointerRoot, or reverted to the root
        return topLevel(containing: focus)
    }

    private func topLevel(containing window: Window) -> Window? {
        var current = window
        for _ in 0..<64 {
            var rootReturn: Window = 0, parent: Window = 0
            var children: UnsafeMutablePointer<Window>?
            var count: UInt32 = 0
            let (status, _) = trap { XQueryTree(handle, current, &rootReturn, &parent, &children, &count) }
            if let children { XFree(children) }
            guard status != 0 else { return nil }
            if parent == root || parent == 0 { return current }
            current = parent
        }
        return nil
    }

    /// Everything the regions resolver needs, read now: screen size, viewable top-level windows
    /// in stacking order (bottom first) with class, title and geometry, and the active window.
    /// Windows that vanish while this runs are left out.
    public func screenContext() -> ScreenContext {
        var windows: [WindowInfo] = []
        for window in topLevelWindows() {
            guard let info = try? windowInfo(window), info.isViewable else { continue }
            windows.append(info)
        }
        return ScreenContext(width: width, height: height, windows: windows, activeWindowID: activeWindow().map { UInt($0) })
    }

    /// One window's class, title and geometry; throws when it has gone.
    public func windowInfo(_ window: Window) throws(X11Error) -> WindowInfo {
        let (frame, isViewable) = try geometry(of: window)
        let hint = classHint(of: window)
        return WindowInfo(id: UInt(window), className: hint.className, instance: hint.instance,
                          title: title(of: window), frame: frame, isViewable: isViewable)
    }
}
