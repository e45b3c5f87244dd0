// The agent's eyes on X: clipboard owner changes and screenshot tools' windows, as signals.
import CX11

/// Something on the desktop that may mean a screenshot.
public enum DesktopSignal {
    /// A new clipboard owner offered an image: the first of `image/png`, `image/jpeg`,
    /// `image/webp` it offered, and every other target it offered, as read.
    case clipboardImage(ClipboardRead)
    /// A clipboard transfer failed (stalled owner, too large, refused).
    case clipboardFailed(reason: String)
    /// A new owner took CLIPBOARD while the previous owner's offer was being read: a clipboard
    /// manager taking a tool's image as the tool exits. The image is read from `to`; `from` is
    /// still there now, so that whoever needs its process can find it before it goes.
    case clipboardHandOff(from: UInt, to: UInt)
    /// A window of a known screenshot tool was created (before it paints, where possible).
    case toolWindowOpened(id: UInt, toolClass: String)
    /// A screenshot tool's window was mapped: the tool is really in use, not idle in a tray.
    case toolWindowMapped(id: UInt, toolClass: String)
    /// A screenshot tool's window went away (unmapped or destroyed).
    case toolWindowClosed(id: UInt)
    /// Top-level windows changed (mapped, moved, restacked, renamed): the shield's rectangles
    /// need resolving again. At most one per `process` call.
    case windowsChanged
}

/// Reads X events for the clipboard and tool-window sources, and the windows' changes. Call `process` whenever the
/// connection is readable, and `expire` when `deadline` passes.
public final class DesktopEvents {
    let display: Display
    let window: Window
    private let fixesEventBase: Int32
    let clipboard, targets, incr, targetsProperty, clipboardManager: Atom
    /// The window that owns CLIPBOARD_MANAGER (0: none), followed by XFixes: when it takes
    /// CLIPBOARD, it has saved the offer of the owner before it (SAVE_TARGETS).
    var managerWindow: Window = 0
    /// The last owner of CLIPBOARD other than this agent.
    var lastOwner: Window = 0
    /// The properties clipboard data arrives in, one per read in turn: an owner that answers
    /// after another owner took over (GTK does) writes into its own read's property, never into
    /// the one the next owner's data is expected in.
    let dataProperties: [Atom]
    /// How many reads were started, to pick each one's property.
    var readsStarted = 0
    /// The image targets read from a clipboard owner, in order of preference: PNG is lossless.
    let imageTargets: [(atom: Atom, name: String)]
    var fetch: ClipboardFetch?
    /// A failed read held while a new owner may still bring the image (see ClipboardRetry).
    var retry: ClipboardRetry?
    /// Serves the guard's redacted image on CLIPBOARD, from this same window: the XFixes
    /// notification of its own ownership is then ignored like every other of this window.
    public let clipboardServer: ClipboardServer
    private let toolClasses: Set<String>
    /// Known tool windows and their tool names, from creation to destruction.
    var toolWindows: [Window: String] = [:]
    public var watchesClipboard: Bool
    public var watchesTools: Bool
    /// Whether top-level windows are followed: their changes say `.windowsChanged`.
    public internal(set) var followsWindows = false
    /// Properties whose change may change what rules hit: titles, classes, frames, stacking.
    var watchedProperties: Set<Atom> = []
    /// Whether a window change was seen in this `process` call (the rules resolve again).
    var windowsChanged = false
    /// New windows (or ones whose class changed) waiting for their batched check.
    var newWindows: Set<Window> = []
    static let newWindowsPerTurn = 512
    static let maximumNewWindows = 65_536

    /// The clipboard image targets the agent reads and guard serves, best first.
    public static let readableImageTargets = ["image/png", "image/jpeg", "image/webp"]

    /// Default screenshot tools, by either half of WM_CLASS, compared in lower case.
    public static let knownTools = ["flameshot", "spectacle", "ksnip", "gnome-screenshot", "org.gnome.screenshot",
                                    "xfce4-screenshooter", "shutter", "slop", "screengrab", "deepin-screenshot"]

    public init(display: Display, clipboard watchClipboard: Bool, tools watchTools: Bool,
                extraToolClasses: [String]) throws(X11Error) {
        self.display = display
        let handle = display.handle
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard XFixesQueryExtension(handle, &eventBase, &errorBase) != 0 || !watchClipboard else {
            throw X11Error(.unsupported, "the X server has no XFixes extension: cannot watch the clipboard")
        }
        fixesEventBase = eventBase
        clipboard = display.atom("CLIPBOARD")
        targets = display.atom("TARGETS")
        imageTargets = Self.readableImageTargets.map { (display.atom($0), $0) }
        incr = display.atom("INCR")
        targetsProperty = display.atom("SHOTGUARD_TARGETS")
        clipboardManager = display.atom("CLIPBOARD_MANAGER")
        dataProperties = (0..<4).map { display.atom("SHOTGUARD_DATA_\($0)") }
        self.toolClasses = Set((Self.knownTools + extraToolClasses).map { $0.lowercased() })
        watchesClipboard = watchClipboard
        watchesTools = watchTools
        var attributes = XSetWindowAttributes()
        attributes.event_mask = PropertyChangeMask
        window = XCreateWindow(handle, display.root, -10, -10, 1, 1, 0, 0, UInt32(InputOnly), nil,
                               UInt(CWEventMask), &attributes)
        XStoreName(handle, window, "shotguard")
        clipboardServer = ClipboardServer(display: display, window: window)
        if watchClipboard {
            XFixesSelectSelectionInput(handle, display.root, clipboard, UInt(XFixesSetSelectionOwnerNotifyMask))
            XFixesSelectSelectionInput(handle, display.root, clipboardManager, UInt(XFixesSetSelectionOwnerNotifyMask))
            managerWindow = XGetSelectionOwner(handle, clipboardManager)
        }
        if watchTools { XSelectInput(handle, display.root, rootEventMask) }
        display.sync()
    }

    func isTool(_ name: String) -> Bool { toolClasses.contains(name) }

    /// The root's event mask: one mask per client and window, so every source shares it.
    var rootEventMask: Int {
        (watchesTools || followsWindows ? SubstructureNotifyMask : 0) | (followsWindows ? PropertyChangeMask : 0)
    }

    /// The next time `expire` has work (a clipboard transfer must progress, a held failure is
    /// due, a timer of the clipboard server), or nil when there is none.
    public var deadline: Double? {
        [fetch?.deadline, fetch == nil ? retry?.deadline : nil, clipboardServer.deadline].compactMap { $0 }.min()
    }

    /// Abandons a stalled transfer, reports a held failure no new owner made good, and runs
    /// the clipboard server's timers (its events are read with `clipboardServer.takeEvents()`).
    public func expire(now: Double) -> [DesktopSignal] {
        clipboardServer.expire(now: now)
        if let fetch, now >= fetch.deadline {
            // A stall after the image is in ends the read with what was read.
            guard fetch.readingImage else { return delivered(from: fetch) }
            // A clipboard manager that took the image over is still saving every target of it (a
            // slow machine takes seconds): it is asked again, as one that refused it is.
            return failed("the clipboard owner \(hexID(UInt(fetch.owner))) stalled for \(Int(ClipboardFetch.timeout)) s",
                          refusal: fetch.handedOverBy != nil, now: now)
        }
        if fetch == nil, let retry, now >= retry.deadline { return retryExpired(now: now) }
        return []
    }

    /// Handles every event Xlib has read or can read without blocking.
    public func process(now: Double) -> [DesktopSignal] {
        var signals: [DesktopSignal] = []
        var event = XEvent()
        while XPending(display.handle) > 0 {
            XNextEvent(display.handle, &event)
            signals += handle(&event, now: now)
        }
        signals += checkNewWindows()
        if windowsChanged {
            windowsChanged = false
            signals.append(.windowsChanged)
        }
        return signals
    }

    private func handle(_ event: inout XEvent, now: Double) -> [DesktopSignal] {
        if followsWindows { observeWindows(event) }
        if clipboardServer.handle(&event, now: now) { return [] }
        switch event.type {
        case fixesEventBase + XFixesSelectionNotify:
            let notify = withUnsafePointer(to: &event) { $0.withMemoryRebound(to: XFixesSelectionNotifyEvent.self, capacity: 1) { $0.pointee } }
            if notify.selection == clipboardManager {
                managerWindow = notify.owner
                return []
            }
            return ownerChanged(notify, now: now)
        case SelectionNotify:
            return selectionArrived(event.xselection, now: now)
        case PropertyNotify where event.xproperty.window == window:
            return chunkArrived(event.xproperty, now: now)
        case CreateNotify where watchesTools || followsWindows:
            noteNewWindow(event.xcreatewindow.window)
            return []
        case PropertyNotify where watchesTools && event.xproperty.atom == XA_WM_CLASS:
            noteNewWindow(event.xproperty.window)
            return []
        case MapNotify:
            guard let tool = toolWindows[event.xmap.window] else { return [] }
            return [.toolWindowMapped(id: UInt(event.xmap.window), toolClass: tool)]
        case UnmapNotify:
            guard toolWindows[event.xunmap.window] != nil else { return [] }
            return [.toolWindowClosed(id: UInt(event.xunmap.window))]
        case DestroyNotify:
            let gone = event.xdestroywindow.window
            newWindows.remove(gone)
            let signals = departed(gone, now: now)
            guard toolWindows.removeValue(forKey: gone) != nil else { return signals }
            return signals + [.toolWindowClosed(id: UInt(gone))]
        default:
            return []
        }
    }
}
