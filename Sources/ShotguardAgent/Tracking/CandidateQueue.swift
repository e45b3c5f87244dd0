// The candidates waiting to be examined: urgent ones first, weak ones within a budget.

/// Holds candidates until their turn. Urgent candidates (a clipboard image, a strongly named
/// file, one with capture evidence) always go before weak ones (any other image in a watched
/// folder), which are bounded: at most `weakPerSecond` examined per second and
/// `weakPerEvent` per event, so that copying thousands of photos into a watched folder can
/// neither blind the agent nor delay a real screenshot.
struct CandidateQueue {
    private struct Waiting {
        var candidate: Candidate
        /// Not before this monotonic time (a file looked at again once its writer is done).
        var notBefore: Double
    }

    private var urgent: [Waiting] = []
    private var weak: [Waiting] = []
    /// Monotonic times of the weak examinations of the last second.
    private var weakStarts: [Double] = []
    private(set) var weakTaken = 0

    static let weakPerSecond = 20
    static let weakPerEvent = 64

    var isEmpty: Bool { urgent.isEmpty && weak.isEmpty }
    var count: Int { urgent.count + weak.count }

    mutating func add(_ candidate: Candidate, notBefore: Double = 0) {
        let waiting = Waiting(candidate: candidate, notBefore: notBefore)
        if candidate.isUrgent { urgent.append(waiting) } else { weak.append(waiting) }
    }

    /// The next candidate due at `now`: the oldest urgent one that is due, else a weak one if
    /// the budget allows. Nil when none is due yet.
    mutating func next(at now: Double) -> Candidate? {
        if let index = urgent.firstIndex(where: { $0.notBefore <= now }) { return urgent.remove(at: index).candidate }
        weakStarts.removeAll { now - $0 >= 1 }
        guard weakStarts.count < Self.weakPerSecond, let index = weak.firstIndex(where: { $0.notBefore <= now }) else {
            return nil
        }
        weakStarts.append(now)
        weakTaken += 1
        return weak.remove(at: index).candidate
    }

    /// Removes the weak candidates beyond the per-event cap; returns how many went.
    mutating func dropWeakOverCap() -> Int {
        let room = max(0, Self.weakPerEvent - weakTaken)
        guard weak.count > room else { return 0 }
        let dropped = weak.count - room
        weak.removeLast(dropped)
        return dropped
    }

    /// Starts counting the per-event cap again (a new event).
    mutating func newEvent() { weakTaken = 0 }

    /// When the next waiting candidate may be taken: now (`now`) when one is due, the earliest
    /// `notBefore` otherwise, or a second's budget ahead; nil when nothing waits.
    func deadline(at now: Double) -> Double? {
        // No copy of the queues: a burst can leave thousands waiting, and this runs every turn.
        let earliest = min(urgent.lazy.map(\.notBefore).min() ?? .infinity, weak.lazy.map(\.notBefore).min() ?? .infinity)
        guard earliest.isFinite else { return nil }
        if urgent.contains(where: { $0.notBefore <= now }) { return now }
        if weak.contains(where: { $0.notBefore <= now }) {
            if weakStarts.count < Self.weakPerSecond { return now }
            return min(earliest > now ? earliest : .infinity, (weakStarts.min() ?? now) + 1)
        }
        return earliest
    }

    /// Everything still waiting, urgent first (at shutdown).
    mutating func drain() -> [Candidate] {
        defer { urgent = []; weak = [] }
        return (urgent + weak).map(\.candidate)
    }
}
