// Where the rules protected the screen, and when: a protected window seen at any moment of a capture is covered where it was.
import ShotguardImaging
import ShotguardRegions

/// The rules' rectangles over time. The agent hands it what the rules hit each time it resolves
/// them against the windows (a snapshot, a window that moved, a reload); a rectangle that is no
/// longer hit is closed at that moment and kept a while. A capture is then held to every
/// rectangle protected at any time between its read (or its event's first signal) and its
/// placement: a pop-up with a code that closed before the agent grabbed the screen is still
/// covered where it was. Pure: moments are given, nothing is read.
struct ProtectionTimeline: Sendable {
    /// One protected rectangle and the time it was protected (monotonic seconds).
    struct Span: Sendable, Equatable {
        let hit: RegionHit
        let from: Double
        /// When it stopped being protected; nil while it still is.
        var until: Double?
    }

    /// The rectangles protected now, and those closed in the last `retention` seconds.
    private(set) var spans: [Span] = []

    /// How long a closed rectangle is kept: the longest a screenshot is followed to its file.
    static let retention = 600.0
    /// The most spans kept; the oldest closed ones go first (a window storm cannot grow it).
    static let capacity = 4096

    /// What the rules hit on the windows now. Returns whether that changed.
    @discardableResult
    mutating func update(_ hits: [RegionHit], at now: Double) -> Bool {
        let before = spans.count
        var changed = false
        var remaining = Set(hits)
        for index in spans.indices where spans[index].until == nil {
            if remaining.remove(spans[index].hit) == nil {
                spans[index].until = now
                changed = true
            }
        }
        // Kept in the order they were hit, so a test (and a reader of the log) sees them in order.
        for hit in hits where remaining.contains(hit) {
            spans.append(Span(hit: hit, from: now))
            remaining.remove(hit)
        }
        prune(at: now)
        return changed || spans.count != before
    }

    /// Every rectangle protected at any moment from `start` to `end`, once each.
    func hits(from start: Double, to end: Double) -> [RegionHit] {
        var seen = Set<RegionHit>()
        return spans.compactMap { span in
            guard span.from <= end, (span.until ?? .infinity) >= start, seen.insert(span.hit).inserted else { return nil }
            return span.hit
        }
    }

    /// The rectangles protected now.
    var current: [RegionHit] { spans.filter { $0.until == nil }.map(\.hit) }

    private mutating func prune(at now: Double) {
        spans.removeAll { span in span.until.map { now - $0 > Self.retention } ?? false }
        guard spans.count > Self.capacity else { return }
        var excess = spans.count - Self.capacity
        spans.removeAll { span in
            guard excess > 0, span.until != nil else { return false }
            excess -= 1
            return true
        }
    }
}
