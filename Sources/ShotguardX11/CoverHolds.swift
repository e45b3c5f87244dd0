// What holds the shield's covers up, and over which part of the screen: the sentinel's bookkeeping, pure.
import ShotguardImaging

/// One reason for covers to be up.
public enum CoverHold: Hashable, Sendable {
    /// A client that read the screen, until the agent says it stopped or it disconnects.
    case reader(UInt32)
    /// A client watching the screen (DAMAGE, a redirection, a named pixmap), while the watch lives.
    case watch(ScreenWatchKey)
    /// A process that reads the screen past the X server (NvFBC, a DRM/KMS helper), while it runs.
    case helper(Int32)

    /// The X client behind it (none for a helper process).
    public var client: UInt32? {
        switch self {
        case .reader(let client): client
        case .watch(let key): key.client
        case .helper: nil
        }
    }
}

/// The holds and the area each holds covered (root coordinates; nil: the whole screen). A
/// cover is up when any hold's area meets it, or a key holds them all. Pure.
struct CoverHolds {
    private(set) var areas: [CoverHold: Rect?] = [:]

    var isEmpty: Bool { areas.isEmpty }

    func contains(_ hold: CoverHold) -> Bool { areas[hold] != nil }

    /// Whether a reader holds covers up (it may stop without a word).
    var hasReaders: Bool { areas.keys.contains { if case .reader = $0 { true } else { false } } }

    /// Adds `hold` over `area`, or grows it to cover `area` too; true when it is new or grew.
    @discardableResult
    mutating func add(_ hold: CoverHold, _ area: Rect?) -> Bool {
        guard let known = areas[hold] else {
            areas[hold] = area
            return true
        }
        let grown = known.flatMap { old in area.map { old.union($0) } }
        areas[hold] = grown
        return grown != known
    }

    /// Removes `hold`; true when it was there.
    @discardableResult
    mutating func remove(_ hold: CoverHold) -> Bool { areas.removeValue(forKey: hold) != nil }

    /// Removes every hold of `client`; true when one was there.
    @discardableResult
    mutating func removeClient(_ client: UInt32) -> Bool {
        let before = areas.count
        areas = areas.filter { $0.key.client != client }
        return areas.count != before
    }

    /// Removes the holds `drop` says so of; true when one was there.
    @discardableResult
    mutating func removeAll(where drop: (CoverHold) -> Bool) -> Bool {
        let before = areas.count
        areas = areas.filter { !drop($0.key) }
        return areas.count != before
    }

    /// Whether a cover over `rect` is held up.
    func holds(_ rect: Rect) -> Bool { areas.values.contains { Self.overlaps(rect, $0) } }

    /// Whether a cover over `rect` is over `area` (nil: the whole screen).
    static func overlaps(_ rect: Rect, _ area: Rect?) -> Bool {
        area.map { !rect.intersection($0).isEmpty } ?? true
    }
}
