// Window queries in EWMH terms: the stacking list, the active window, geometry on screen.
import CX11
import ShotguardImaging
import ShotguardScreen

extension Display {
    /// Where a window's client area is on the root, and whether it is viewable.
    /// Throws when the window does not exist (any more).
    public func geometry(of window: Window) throws(X11Error) -> (frame: Rect, isViewable: Bool) {
        var attributes = XWindowAttributes()
        let (status, error) = trap { XGetWindowAttributes(handle, window, &attributes) }
        guard status != 0, error == nil else {
            throw X11Error(error ?? XProtocolError(code: UInt8(BadWindow), request: 3, resource: UInt(window)))
        }
        var x: Int32 = 0, y: Int32 = 0
        var child: Window = 0
        let (translated, translateError) = trap { XTranslateCoordinates(handle, window, root, 0, 0, &x, &y, &child) }
        guard translated != 0, translateError == nil else {
            throw X11Error(translateError ?? XProtocolError(code: UInt8(BadWindow), request: 40, resource: UInt(window)))
        }
        guard let frame = PropertyDecoding.rect(x: Int64(x), y: Int64(y), width: Int64(attributes.width),
                                                height: Int64(attributes.height)) else {
            throw X11Error(.windowGone, "window \(hexID(window)) reports a geometry outside X's coordinates "
                + "(\(attributes.width)x\(attributes.height)+\(x)+\(y))")
        }
        return (frame, attributes.map_state == IsViewable && attributes.`class` == InputOutput)
    }

    /// `_NET_FRAME_EXTENTS` (left, right, top, bottom): the window manager's decorations; none
    /// when the property is missing or makes no sense (any client can set it to anything).
    public func frameExtents(of window: Window) -> PropertyDecoding.FrameExtents {
        cardinals("_NET_FRAME_EXTENTS", of: window, type: XA_CARDINAL).flatMap(PropertyDecoding.frameExtents) ?? .none
    }

    /// Top-level client windows in stacking order, bottom first (see `stackingOrder`): the
    /// window manager's clients and the override-redirect windows it does not manage (menus,
    /// pop-ups, tooltips, notifications, which may show an application's secrets outside its
    /// main window), where the server draws them. Without a window manager: the root's children.
    public func topLevelWindows() -> [Window] {
        stackingOrder().map(\.client)
    }

    /// A window's parent and children (bottom first), or nil when it is gone.
    func children(of window: Window) -> (parent: Window, children: [Window])? {
        var rootReturn: Window = 0, parent: Window = 0
        var list: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        let (status, _) = trap { XQueryTree(handle, window, &rootReturn, &parent, &list, &count) }
        defer { if let list { XFree(list) } }
        guard status != 0 else { return nil }
        return (parent, list.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? [])
    }

    /// The active window: `_NET_ACTIVE_WINDOW`, else the input focus's top-level window.
    public func activeWindow() -> Window? {
        if let values = cardinals("_NET_ACTIVE_WINDOW", of: root, type: XA_WINDOW), let first = PropertyDecoding.window(values) {
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
            guard let tree = children(of: current) else { return nil }
            if tree.parent == root || tree.parent == 0 { return current }
            current = tree.parent
        }
        return nil
    }

    /// Everything the regions resolver needs, read now: screen size, viewable top-level windows
    /// in stacking order (bottom first) with class, title, geometry, types, opacity and
    /// protection, the active window, and the RandR monitors (read at every call: the agent
    /// follows monitor changes this way). Windows that vanish while this runs are left out.
    /// Read as one batch under one error trap: at event time, every round trip delays the
    /// moment the context describes. The cost does not grow in round trips with the number of
    /// windows: their requests go out together and the replies are read after (about 8 round
    /// trips in all, one more per level a window manager puts clients below the root's child).
    public func screenContext() -> ScreenContext {
        let (entries, active, monitors) = batch { (stackingOrder(), activeWindow(), self.monitors()) }
        // A window that vanished meanwhile is an ordinary outcome: it is left out. So are
        // shotguard's own windows (`OwnWindows`: a shield's covers, this process's or another's,
        // the tray's menu, the recording mark): never a window of the user's that hides a
        // protected one.
        let windows = WindowBatch(self).windowInfos(entries).filter { $0.isViewable && !OwnWindows.contains($0) }
        let size = self.size
        return ScreenContext(width: size.width, height: size.height, windows: windows, activeWindowID: active.map { UInt($0) },
                             monitors: monitors)
    }

    /// Class, title, geometry, types, opacity and protection of each of `windows`, in their
    /// order, read in batches (their top-level windows found first); a window that is gone
    /// (or vanishes meanwhile) is left out, viewable or not. A window whose top-level window
    /// is not found is taken to hide nothing (`isOpaque` false).
    public func windowInfos(_ windows: [Window]) -> [WindowInfo] {
        let tops = batch { topLevels(of: windows) }
        return WindowBatch(self).windowInfos(windows.map { StackEntry(client: $0, topLevel: tops[$0]) })
    }

    /// One window's class, title, geometry, types, opacity and protection; throws when it has gone.
    public func windowInfo(_ window: Window) throws(X11Error) -> WindowInfo {
        guard let info = windowInfos([window]).first else {
            throw X11Error(.windowGone, "window \(hexID(UInt(window))) does not exist (it may have closed)")
        }
        return info
    }
}
