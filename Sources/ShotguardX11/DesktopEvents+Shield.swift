// The shield's part of the desktop events: its key, and the window changes it follows.
import CX11
import ShotguardBase

/// What the shield listens with and covers with, on the agent's one X connection.
public final class Shield {
    /// The keys that raise the covers (`--shield`); nil when only recordings do.
    public let keys: RawKeys?
    public let overlays: ShieldOverlays
    /// Raises in answer to windows mapped or restacked above the covers, since the last key:
    /// bounded, so a window that keeps raising itself cannot make the two loop forever.
    var raises = 0
    static let maximumRaises = 64

    init(display: Display, keys: [String]) throws(X11Error) {
        self.keys = keys.isEmpty ? nil : try RawKeys(display: display, keys: keys)
        overlays = try ShieldOverlays(display: display)
    }
}

extension DesktopEvents {
    /// Makes the covers, hears `keys` (keysym names; none: the covers go up for recordings
    /// only) and follows the windows, so that `shield.overlays` can be kept over the rules'
    /// rectangles. Throws when the server lacks XInput 2.2 (with keys) or XFixes 2.0, or a name
    /// is no keysym.
    public func enableShield(keys: [String]) throws(X11Error) -> Shield {
        let shield = try Shield(display: display, keys: keys)
        self.shield = shield
        followWindows()
        return shield
    }

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

    /// A generic event: a press of a shield key maps the covers at once, before anything else.
    func shieldKey(_ event: inout XEvent, _ shield: Shield) -> [DesktopSignal] {
        let readAt = monotonicNow()
        guard let serverTime = shield.keys?.triggerPressTime(&event) else { return [] }
        shield.overlays.raise(stamped: true)
        let mappedAt = monotonicNow()
        // After the flush: a read stamped before this time may have been made without them.
        let coveredTime = shield.overlays.stampTime()
        shield.raises = 0
        return [.shieldKey(readAt: readAt, mappedAt: mappedAt, serverTime: serverTime, coveredTime: coveredTime)]
    }

    /// Puts the covers up for a shield key that came while the agent was busy (grabbing the
    /// screen, decoding or placing an image: steps of 10 to 30 ms, long enough for the
    /// screenshot tool the key started to read the screen first). Takes only the XInput events
    /// off the connection, leaving every other event in its order, and returns the keys'
    /// signals. Called before each such step.
    public func answerWaitingKeys() -> [DesktopSignal] {
        guard let shield, let keys = shield.keys else { return [] }
        var opcode = keys.opcode
        var event = XEvent()
        var signals: [DesktopSignal] = []
        while withUnsafeMutablePointer(to: &opcode, { pointer in
            XCheckIfEvent(display.handle, &event, isXInputEvent, UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: CChar.self))
        }) != 0 {
            signals += shieldKey(&event, shield)
        }
        return signals
    }

    /// Notes window changes (what the rules protect follows them) and keeps raised covers above
    /// a window mapped or restacked while they are up (a tool's own full-screen overlay included).
    func observeWindows(_ event: XEvent) {
        let overlays = shield?.overlays
        switch event.type {
        case MappingNotify:
            var mapping = event.xmapping
            XRefreshKeyboardMapping(&mapping)
            shield?.keys?.refreshKeycodes()
        case MapNotify, ConfigureNotify:
            let subject = event.type == MapNotify ? event.xmap.window : event.xconfigure.window
            guard overlays?.contains(subject) != true else { return }
            windowsChanged = true
            if let shield, let overlays, overlays.isUp, shield.raises < Shield.maximumRaises {
                shield.raises += 1
                overlays.keepOnTop()
            }
        case UnmapNotify:
            if overlays?.contains(event.xunmap.window) != true { windowsChanged = true }
        case DestroyNotify:
            if overlays?.contains(event.xdestroywindow.window) != true { windowsChanged = true }
        case CreateNotify:
            if overlays?.contains(event.xcreatewindow.window) != true { windowsChanged = true }
        case ReparentNotify, GravityNotify, CirculateNotify:
            windowsChanged = true
        case PropertyNotify:
            if watchedProperties.contains(event.xproperty.atom) { windowsChanged = true }
        default:
            break
        }
    }
}

/// Matches a GenericEvent of the XInput extension, whose major opcode `arg` points at. A plain
/// function: Xlib calls it from C.
private func isXInputEvent(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XEvent>?, _ arg: XPointer?) -> Int32 {
    guard let event, let arg else { return 0 }
    let opcode = UnsafeRawPointer(arg).load(as: Int32.self)
    return event.pointee.type == GenericEvent && event.pointee.xcookie.extension == opcode ? 1 : 0
}
