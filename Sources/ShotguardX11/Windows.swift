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

    /// Top-level windows in stacking order, bottom first: the window manager's clients
    /// (`_NET_CLIENT_LIST_STACKING`), then the override-redirect windows it does not manage
    /// (menus, pop-ups, tooltips, which may show an application's secrets outside its main
    /// window), on top, where they are drawn. Without a window manager: the root's children.
    public func topLevelWindows() -> [Window] {
        batch {
            guard let tree = children(of: root) else { return [] }
            guard let list = cardinals("_NET_CLIENT_LIST_STACKING", of: root, type: XA_WINDOW),
                  case let managed = PropertyDecoding.windowList(list), !managed.isEmpty else {
                return clientWindows(in: tree.children)
            }
            return managed.map { Window($0) } + WindowBatch(self).mappedOverrides(tree.children)
        }
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

    /// The client inside each top-level window: itself when it has `WM_STATE`, `WM_CLASS` or no
    /// children, else the first descendant (at most three levels down) with `WM_STATE`, as a
    /// window manager without EWMH reparents. Each level of all the trees is read in one batch:
    /// without a window manager, a desktop of 50 windows cost 150 round trips one by one.
    private func clientWindows(in windows: [Window]) -> [Window] {
        var clues: [Window: ClientClue] = [:]
        var level = windows
        for depth in 0...3 where !level.isEmpty {
            let found = WindowBatch(self).clientClues(level)
            var next: [Window] = []
            for (window, clue) in zip(level, found) {
                clues[window] = clue
                if depth < 3, let children = clue.childrenToSearch { next += children }
            }
            level = next
        }
        func client(in window: Window, depth: Int) -> Window {
            guard depth < 3, let children = clues[window]?.childrenToSearch else { return window }
            for child in children {
                let found = client(in: child, depth: depth + 1)
                if found != child || clues[found]?.hasState == true { return found }
            }
            return window
        }
        return windows.map { client(in: $0, depth: 0) }
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
    /// in stacking order (bottom first) with class, title and geometry, the active window, and
    /// the RandR monitors (read at every call: the agent follows monitor changes this way).
    /// Windows that vanish while this runs are left out. Read as one batch under one error
    /// trap: at event time, every round trip delays the moment the context describes.
    /// The cost does not grow in round trips with the number of windows: their requests go
    /// out together and the replies are read after (about 8 round trips in all).
    public func screenContext() -> ScreenContext {
        let (list, active, monitors) = batch { (topLevelWindows(), activeWindow(), self.monitors()) }
        // A window that vanished meanwhile is an ordinary outcome: it is left out.
        let windows = windowInfos(list).filter(\.isViewable)
        let size = self.size
        return ScreenContext(width: size.width, height: size.height, windows: windows, activeWindowID: active.map { UInt($0) },
                             monitors: monitors)
    }

    /// Class, title and geometry of each of `windows`, in their order, read in one batch; a
    /// window that is gone (or vanishes meanwhile) is left out, viewable or not.
    public func windowInfos(_ windows: [Window]) -> [WindowInfo] {
        WindowBatch(self).windowInfos(windows)
    }

    /// One window's class, title and geometry; throws when it has gone.
    public func windowInfo(_ window: Window) throws(X11Error) -> WindowInfo {
        let (frame, isViewable) = try geometry(of: window)
        let hint = classHint(of: window)
        let extents = frameExtents(of: window)
        let outer = PropertyDecoding.outerFrame(frame, extents: extents) ?? frame
        return WindowInfo(id: UInt(window), className: hint.className, instance: hint.instance,
                          title: title(of: window), frame: frame, isViewable: isViewable, outerFrame: outer)
    }
}
