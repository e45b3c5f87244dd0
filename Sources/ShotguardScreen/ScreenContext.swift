// The screen at one moment, as the X11 layer reads it and the rules are resolved against.

import ShotguardImaging

/// One top-level window as the X11 layer sees it.
public struct WindowInfo: Hashable, Sendable {
    /// The X window id of the client window.
    public var id: UInt
    /// The second half of `WM_CLASS` (e.g. `firefox`'s class is `firefox`, KeePassXC's `KeePassXC`).
    public var className: String
    /// The first half of `WM_CLASS`.
    public var instance: String
    /// `_NET_WM_NAME`, or `WM_NAME` when that is missing.
    public var title: String
    /// The client area in root-window coordinates; it may reach past the screen edges.
    public var frame: Rect
    /// Whether the window is mapped and all its ancestors are; unviewable windows never match.
    public var isViewable: Bool
    /// The client area with the window manager's decorations around it (`_NET_FRAME_EXTENTS`):
    /// its title bar shows the title a rule may have matched on.
    public var outerFrame: Rect
    /// Where the window's own pixels are: its outer frame within its top-level window on the
    /// root (the window manager's frame, or the window itself, border included). What lies
    /// under it is hidden there when the window is opaque; decorations a client merely claims
    /// (any client can set `_NET_FRAME_EXTENTS`) hide nothing.
    public var opaqueArea: Rect
    /// `_NET_WM_WINDOW_TYPE`, in the property's order (`[.normal]` for a managed window without
    /// it, `[]` for an override-redirect one without it).
    public var types: [WindowType]
    /// Whether the window hides what lies under its outer frame: false for a 32-bit (ARGB)
    /// visual, a `_NET_WM_WINDOW_OPACITY` below full, a bounding shape (SHAPE), on the client or
    /// its frame, and for a window whose place in the stacking order is not known. Covers
    /// under a window that is not opaque are never cut.
    public var isOpaque: Bool
    /// Whether the top-level window is override-redirect (a menu, a tooltip, a notification
    /// that no window manager handles).
    public var isOverrideRedirect: Bool
    /// Whether the client carries `_SHOTGUARD_PROTECT` = 1: the program asks to be covered,
    /// frame included, with no rule naming it.
    public var requestsProtection: Bool

    public init(id: UInt, className: String, instance: String, title: String, frame: Rect, isViewable: Bool,
                outerFrame: Rect? = nil, opaqueArea: Rect? = nil, types: [WindowType] = [.normal], isOpaque: Bool = true,
                isOverrideRedirect: Bool = false, requestsProtection: Bool = false) {
        self.id = id
        self.className = className
        self.instance = instance
        self.title = title
        self.frame = frame
        self.isViewable = isViewable
        self.outerFrame = outerFrame ?? frame
        self.opaqueArea = opaqueArea ?? outerFrame ?? frame
        self.types = types
        self.isOpaque = isOpaque
        self.isOverrideRedirect = isOverrideRedirect
        self.requestsProtection = requestsProtection
    }
}

/// The screen at one moment: its size, its monitors and its windows.
public struct ScreenContext: Hashable, Sendable {
    /// Width of the root window in pixels.
    public var width: Int
    /// Height of the root window in pixels.
    public var height: Int
    /// Top-level windows in stacking order, bottom first.
    public var windows: [WindowInfo]
    /// `_NET_ACTIVE_WINDOW`, when the window manager sets it.
    public var activeWindowID: UInt?
    /// The RandR monitors, in the server's order; empty when RandR 1.5 is missing.
    public var monitors: [MonitorInfo]
    /// The showing accessible fields, for `field` rules; filled in by the accessibility layer.
    public var fields: AccessibleFields

    public init(width: Int, height: Int, windows: [WindowInfo], activeWindowID: UInt? = nil,
                monitors: [MonitorInfo] = [], fields: AccessibleFields = .notQueried) {
        self.width = width
        self.height = height
        self.windows = windows
        self.activeWindowID = activeWindowID
        self.monitors = monitors
        self.fields = fields
    }

    /// The whole root window: `width`x`height`+0+0.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }
}

extension ScreenContext {
    /// The topmost viewable window whose client area holds the centre of `rect`: the window
    /// that shows a field there (AT-SPI2 does not name X windows).
    public func window(showing rect: Rect) -> WindowInfo? {
        let x = rect.x + rect.width / 2, y = rect.y + rect.height / 2
        return windows.last { window in
            window.isViewable && x >= window.frame.x && x < window.frame.x + window.frame.width
                && y >= window.frame.y && y < window.frame.y + window.frame.height
        }
    }
}
