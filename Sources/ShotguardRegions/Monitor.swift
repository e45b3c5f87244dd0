// Which monitors a `monitor` rule covers.

import ShotguardScreen

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
