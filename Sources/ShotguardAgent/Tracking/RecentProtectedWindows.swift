// The windows the rules protected lately, by id: a read of a window's own pixels is checked against them.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// The windows the rules protected in the last `keptFor` seconds (`RegionsFile.protectedWindows`,
/// whole, wherever they were), each as last seen. A program that reads a window's own pixels
/// (`maim -i` redirects the window; under a compositor every window has them) reads all of it,
/// the parts hidden under other windows or past the screen's edge too, which the screen never
/// showed and no rule's rectangle names. Kept a while after a window closes or stops matching:
/// the agent may hear the read after that.
struct RecentProtectedWindows: Sendable {
    static let keptFor = 10.0

    private var windows: [UInt: (window: ProtectedWindow, seen: Double)] = [:]
    /// Every client window on the screen now: a read of one is no read of a frame.
    private var clients: Set<UInt> = []

    /// The windows protected now, among the client windows `all`; those not seen for
    /// `keptFor` go.
    mutating func update(_ protected: [ProtectedWindow], all: [WindowInfo], at now: Double) {
        for window in protected { windows[window.window.id] = (window, now) }
        windows = windows.filter { now - $0.value.seen <= Self.keptFor }
        clients = Set(all.map(\.id))
    }

    /// The protected window a read of `window` takes whole: that window, or the frame the window
    /// manager put around it (whose rectangle on the screen, `area`, is the window's outer frame
    /// there, or all of it for a frame wholly past the screen's edge; another client window of
    /// the same rectangle, two maximised or two on a hidden dwm tag, is no frame). A window's
    /// own pixels hold nothing of the windows above or below it.
    func read(of window: UInt, area: Rect?, screen: Rect) -> ProtectedWindow? {
        if let own = windows[window]?.window { return own }
        guard let area, !clients.contains(window) else { return nil }
        let shown = area.intersection(screen)
        return windows.values.map(\.window).first {
            shown.isEmpty ? $0.window.outerFrame == area : $0.window.outerFrame.intersection(screen) == shown
        }
    }
}
