// The monitors of a screen (RandR 1.5): what the X11 layer reads and the rules are resolved against.

import ShotguardImaging

/// One RandR monitor: a named part of the root window that one screen (or a few) shows.
public struct MonitorInfo: Hashable, Sendable {
    /// The monitor's name, e.g. `DP-1` or `HDMI-A-0` (a name made with `xrandr --setmonitor`).
    public var name: String
    /// Where the monitor sits on the root window.
    public var frame: Rect
    /// Whether RandR calls it the primary monitor.
    public var isPrimary: Bool

    public init(name: String, frame: Rect, isPrimary: Bool = false) {
        self.name = name
        self.frame = frame
        self.isPrimary = isPrimary
    }
}

extension ScreenContext {
    /// The monitor that holds most of `rect` (the first of equals), or nil when no monitor
    /// holds any of it.
    public func monitor(holdingMostOf rect: Rect) -> MonitorInfo? {
        var best: (monitor: MonitorInfo, area: Int)?
        for monitor in monitors {
            let area = monitor.frame.intersection(rect).area
            if area > 0, area > (best?.area ?? 0) { best = (monitor, area) }
        }
        return best?.monitor
    }

    /// The monitor named `name`, or the primary one for `primary`; nil when there is none.
    public func monitor(named name: String) -> MonitorInfo? {
        name == "primary" ? monitors.first(where: \.isPrimary) : monitors.first { $0.name == name }
    }
}
