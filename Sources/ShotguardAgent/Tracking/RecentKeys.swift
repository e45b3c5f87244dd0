// The one store of what the agent saw or did lately: handled files and images, its own outputs.

/// What a recent key stands for. Every "seen before" question of the agent goes through this
/// one store (after i3's ignore list): a candidate already handled, an image or file that guard
/// wrote or served itself, a screenshot already reported.
enum RecentKind: Hashable, Sendable {
    /// A file (by identity) or a clipboard image (by bytes and owner) that was taken in.
    case handled
    /// Bytes or a file identity that guard produced: never a new screenshot.
    case own
    /// The pixels of a screenshot already reported: a second copy is guarded, not reported.
    case reported
}

/// Keys with the moment they were noted and how long they stay; expired keys are dropped as
/// the store is used, and the store is bounded so a flood cannot grow it without end.
struct RecentKeys {
    private struct Entry { var kind: RecentKind; var until: Double }
    private var entries: [String: Entry] = [:]
    /// The most keys kept; past it the ones that expire first go.
    let capacity: Int

    /// How long each kind is remembered, in seconds.
    static func lifetime(of kind: RecentKind) -> Double {
        switch kind {
        case .handled: return 5
        case .own: return 60
        case .reported: return 5
        }
    }

    init(capacity: Int = 4096) { self.capacity = capacity }

    /// Notes `key` as `kind` at `now` (monotonic seconds), for the kind's lifetime.
    mutating func note(_ key: String, as kind: RecentKind, at now: Double) {
        entries[Self.scoped(key, kind)] = Entry(kind: kind, until: now + Self.lifetime(of: kind))
        if entries.count > capacity { prune(at: now) }
    }

    /// Whether `key` was noted as `kind` and has not expired at `now`.
    func contains(_ key: String, as kind: RecentKind, at now: Double) -> Bool {
        guard let entry = entries[Self.scoped(key, kind)] else { return false }
        return entry.until > now
    }

    /// Drops expired keys, then, while over capacity, the soonest to expire until a quarter of
    /// the room is free again: a flood of new keys (ten thousand photos copied at once) sorts
    /// the store once per thousand keys, not once per key. Guard's own outputs live longest, so
    /// they are the last to go.
    mutating func prune(at now: Double) {
        entries = entries.filter { $0.value.until > now }
        guard entries.count > capacity else { return }
        let keep = entries.sorted { $0.value.until > $1.value.until }.prefix(capacity - capacity / 4)
        entries = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
    }

    var count: Int { entries.count }

    private static func scoped(_ key: String, _ kind: RecentKind) -> String {
        switch kind {
        case .handled: return "h:" + key
        case .own: return "o:" + key
        case .reported: return "r:" + key
        }
    }
}
