// The monitors of a screen (RandR 1.5), as the resolver and the listings need them.

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

/// Which monitors a `monitor` rule covers.
public enum MonitorSelector: Hashable, Sendable {
    /// Every monitor.
    case all
    /// The primary monitor (none when RandR names no primary).
    case primary
    /// The monitor of this exact name.
    case named(String)

    /// The monitors of `monitors` this selector picks, in their order.
    public func select(_ monitors: [MonitorInfo]) -> [MonitorInfo] {
        switch self {
        case .all: return monitors
        case .primary: return monitors.filter(\.isPrimary)
        case .named(let name): return monitors.filter { $0.name == name }
        }
    }

    /// How the rule names its monitors in messages: `every monitor`, `the primary monitor`, `DP-1`.
    public var description: String {
        switch self {
        case .all: return "every monitor"
        case .primary: return "the primary monitor"
        case .named(let name): return "monitor '\(name)'"
        }
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
