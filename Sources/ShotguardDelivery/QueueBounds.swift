// How much the queue may hold: reports waiting are dropped oldest first beyond a count, a size or an age.

/// The queue's limits (`--report-queue`, `--report-queue-size`, `--report-queue-for`). Pure.
public struct QueueBounds: Sendable, Equatable {
    /// Reports waiting for a destination (held ones count).
    public var reports: Int
    /// Bytes of reports waiting (images and report.json).
    public var bytes: Int
    /// Seconds a report may wait; nil keeps them whatever their age.
    public var age: Double?
    /// Delivered (or refused) entries kept for `reports list`: their image is already gone.
    public var finishedKept = 500

    public static let standard = QueueBounds(reports: 2000, bytes: 1 << 30, age: 7 * 86_400)

    public init(reports: Int, bytes: Int, age: Double?) {
        self.reports = reports
        self.bytes = bytes
        self.age = age
    }

    /// Why a waiting report was dropped.
    public enum Reason: Sendable, Equatable {
        case age, count, size

        public var text: String {
            switch self {
            case .age: "waited longer than the queue keeps reports"
            case .count: "the queue holds its most reports"
            case .size: "the queue holds its most bytes"
            }
        }
    }

    /// The waiting entries to drop, oldest first, with why: first those too old, then the oldest
    /// until the rest fit the count and the size. `entries` are in queue order.
    public func overflow(_ entries: [OutboxEntry], now: Double) -> [(name: String, reason: Reason)] {
        var waiting = entries.filter(\.isPending)
        var dropped: [(name: String, reason: Reason)] = []
        if let age {
            for entry in waiting where now - entry.created > age { dropped.append((entry.name, .age)) }
            waiting.removeAll { now - $0.created > age }
        }
        var total = waiting.reduce(0) { $0 + $1.bytes }
        var index = 0
        // The newest report always stays, even alone over the size: it is what the user just took.
        while index < waiting.count - 1, waiting.count - index > reports || total > bytes {
            dropped.append((waiting[index].name, waiting.count - index > reports ? .count : .size))
            total -= waiting[index].bytes
            index += 1
        }
        return dropped
    }

    /// Finished entries (nothing waits for them) beyond `finishedKept`, or older than `age`:
    /// history, removed without a word.
    public func finishedToRemove(_ entries: [OutboxEntry], now: Double) -> [String] {
        let finished = entries.filter { !$0.isPending }
        var names = finished.filter { entry in age.map { now - entry.created > $0 } ?? false }.map(\.name)
        let kept = finished.filter { !names.contains($0.name) }
        if kept.count > finishedKept { names += kept.prefix(kept.count - finishedKept).map(\.name) }
        return names
    }
}
