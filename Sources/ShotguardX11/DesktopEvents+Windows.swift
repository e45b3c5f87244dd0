// The windows the desktop events follow: every change of a top-level window that may change what the rules protect.
import CX11
import ShotguardBase

extension DesktopEvents {
    /// Starts following the top-level windows: a window mapped, moved, restacked, renamed or
    /// asking for protection says `.windowsChanged`, so that what the rules protect is known at
    /// every moment (the shield's covers follow it, and a capture is held to it).
    public func followWindows() {
        guard !followsWindows else { return }
        followsWindows = true
        watchedProperties = Set(["WM_NAME", "_NET_WM_NAME", "WM_CLASS", "_NET_FRAME_EXTENTS", "_NET_CLIENT_LIST_STACKING",
                                 "_NET_CLIENT_LIST", "WM_STATE", "_SHOTGUARD_PROTECT", "_NET_WM_WINDOW_TYPE",
                                 "_NET_WM_WINDOW_OPACITY"].map(display.atom))
        XSelectInput(display.handle, display.root, rootEventMask)
        // Windows that exist already: their titles and classes may change later.
        for window in display.topLevelWindows() {
            _ = display.trap { XSelectInput(display.handle, window, PropertyChangeMask | StructureNotifyMask) }
        }
        display.sync()
    }

    /// Notes window changes: what the rules protect follows them. The covers, on the sentinel's
    /// connection, are its own: their maps are not seen here.
    func observeWindows(_ event: XEvent) {
        switch event.type {
        case MapNotify, ConfigureNotify, UnmapNotify, DestroyNotify, CreateNotify, ReparentNotify, GravityNotify, CirculateNotify:
            windowsChanged = true
        case PropertyNotify:
            if watchedProperties.contains(event.xproperty.atom) { windowsChanged = true }
        default:
            break
        }
    }
}
