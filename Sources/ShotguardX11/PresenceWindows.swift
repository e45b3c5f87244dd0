// The agent's own windows on the desktop — the tray icon, its menu, the recording mark — on an X
// connection of their own, so that their events never mix with the agent's clipboard and shield.
import CX11
import ShotguardBase
import ShotguardImaging

/// The windows that show the agent's state. They live on their own connection: its events
/// (exposes, clicks, the tray's messages) are read here alone, and the agent's connection is
/// left to what it guards. Nothing here reads the screen. Fits a poll loop: when
/// `fileDescriptor` is readable, or each turn, call `process()`, which never blocks and leaves
/// nothing in Xlib's queue. Not thread-safe: use it from one thread, like `Display`.
public final class PresenceWindows {
    private let display: Display
    private let icon: TrayIcon?
    private let menu: PopupMenu
    private let indicator: RecordingIndicator?
    private var items: [PresenceMenuItem] = []

    /// Opens a connection to `displayName` (`$DISPLAY` when nil, as the agent's own); the tray icon docks in whatever tray runs (and in
    /// one started later) when `tray`, and the recording mark shows when asked when `indicator`.
    public init(displayName: String?, tray: Bool, indicator: Bool) throws(X11Error) {
        display = try Display(name: displayName)
        // The root's StructureNotify brings a tray's MANAGER message.
        XSelectInput(display.handle, display.root, StructureNotifyMask)
        icon = tray ? TrayIcon(display: display) : nil
        menu = PopupMenu(display: display)
        self.indicator = indicator ? RecordingIndicator(display: display) : nil
        display.sync()
    }

    public var fileDescriptor: Int32 { display.isLost ? -1 : display.fileDescriptor }
    public var isLost: Bool { display.isLost }

    /// Whether the icon is docked in a tray now.
    public var isDocked: Bool { icon?.isDocked ?? false }

    /// Whether the XEmbed icon should show: false while a StatusNotifierItem host shows the item.
    public var trayWanted: Bool {
        get { icon?.wanted ?? false }
        set { icon?.wanted = newValue }
    }

    /// How the icon looks now: `art(width, height)` draws it with alpha at the tray's size.
    public func setIcon(_ art: @escaping (Int, Int) -> PixelBuffer) {
        guard let icon else { return }
        icon.art = art
        icon.draw()
    }

    /// The menu's items (an open menu keeps the ones it opened with until it closes).
    public func setMenu(_ items: [PresenceMenuItem]) { self.items = items }

    /// Shows the recording mark with `text`, or hides it when nil; returns once the server did.
    public func setRecording(_ text: String?) { indicator?.show(text) }

    /// Handles every event read or readable without blocking; returns the tags of the menu
    /// items chosen.
    public func process(now: Double) -> [Int] {
        var chosen: [Int] = []
        var event = XEvent()
        while !display.isLost, XPending(display.handle) > 0 {
            XNextEvent(display.handle, &event)
            if let tag = menu.handle(&event) { chosen.append(tag) }
            if let click = icon?.handle(&event) {
                if menu.isOpen { menu.close() } else { menu.open(items, beside: click) }
            }
            indicator?.handle(&event, now: now)
        }
        return chosen
    }
}
