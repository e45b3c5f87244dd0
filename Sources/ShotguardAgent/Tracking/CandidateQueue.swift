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

    /// The next candidate due at `now`: the oldest urgent one that is due, a clipboard image
    /// first (someone may be pasting it), then an image a program that read the screen wrote
    /// (copying a hundred old screenshots into a watched folder must not delay the one scrot
    /// writes among them), else a weak one if the budget allows. Nil when none is due yet.
    mutating func next(at now: Double) -> Candidate? {
        var chosen: (index: Int, rank: Int)?
        for (index, waiting) in urgent.enumerated() where waiting.notBefore <= now {
            let rank = Self.rank(waiting.candidate)
            if chosen.map({ rank < $0.rank }) ?? true { chosen = (index, rank) }
            if rank == 0 { break }
        }
        if let chosen { return urgent.remove(at: chosen.index).candidate }
        weakStarts.removeAll { now - $0 >= 1 }
        guard weakStarts.count < Self.weakPerSecond, let index = weak.firstIndex(where: { $0.notBefore <= now }) else {
            return nil
        }
        weakStarts.append(now)
        weakTaken += 1
        return weak.remove(at: index).candidate
    }

    /// An urgent candidate's turn among the due ones: 0 a clipboard image, 1 an image with a
    /// screen read tied to it, 2 any other.
    private static func rank(_ candidate: Candidate) -> Int {
        candidate.source == .clipboard ? 0 : candidate.evidence.screenRead != nil ? 1 : 2
    }

    /// The candidate waiting under `candidate`'s key takes its screen read, when it has none:
    /// a file signalled before the program that wrote it was known (its creation, then its
    /// writer's read) goes with the images a program read the screen for, in its place among
    /// the urgent ones (a weak one joins them). True when one did.
    mutating func strengthen(with candidate: Candidate) -> Bool {
        guard let read = candidate.evidence.screenRead else { return false }
        let sameKey = { (waiting: Waiting) in waiting.candidate.key == candidate.key }
        if let index = urgent.firstIndex(where: sameKey) {
            guard urgent[index].candidate.evidence.screenRead == nil else { return false }
            urgent[index].candidate.evidence.screenRead = read
            urgent[index].candidate.readScreens += candidate.readScreens
            return true
        }
        guard let index = weak.firstIndex(where: sameKey), weak[index].candidate.evidence.screenRead == nil else { return false }
        var waiting = weak.remove(at: index)
        waiting.candidate.evidence.screenRead = read
        waiting.candidate.readScreens += candidate.readScreens
        urgent.append(waiting)
        return true
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
