// A recorder's frames that read what its last said read did, said together a few times a second.

/// The reads the sentinel holds back before saying them to the agent. A screen share says a
/// read 30 or 60 times a second, each the same pixels as the one before; each woke the agent's
/// loop, which has nothing new to do with it but count it (the covers are the sentinel's, up at
/// the first read). A read just like its client's last said one, less than `interval` after
/// it, is counted in the held read instead (the latest read, with the count of all), said when `interval` has passed since the last one
/// said, or before anything else of that client's (a different read, a watch, its end), so
/// the agent still sees each client's reads in order and every frame in `repeats`. A first
/// read, and any read that differs, is said at once: a screenshot tool is never held.
struct HeldFrames {
    static let interval = 0.25

    private var said: [UInt32: (read: ScreenRead, at: Double)] = [:]
    private var held: [UInt32: SentinelEvent] = [:]

    /// Holds `event` (a placed read) when its client's last said read, less than `interval`
    /// ago, read the same; true when held. Otherwise the caller says it now.
    mutating func hold(_ event: SentinelEvent, at now: Double) -> Bool {
        guard case .read(let read, _, _, _) = event, let last = said[read.client], now - last.at < Self.interval,
              last.read.isRepeated(by: read) else { return false }
        // The latest read stands for all held: its time is when the recorder last read.
        var latest = read
        if case .read(let earlier, _, _, _)? = held[read.client] { latest.repeats += earlier.repeats }
        guard case .read(_, let area, let process, let trusted) = event else { return false }
        held[read.client] = .read(latest, rootArea: area, process: process, trusted: trusted)
        return true
    }

    /// `event` was said at `now`: the reads after it like it may be held.
    mutating func noteSaid(_ event: SentinelEvent, at now: Double) {
        if case .read(let read, _, _, _) = event { said[read.client] = (read, now) }
    }

    /// The held read of `client`, to say before anything else of its own.
    mutating func release(_ client: UInt32) -> SentinelEvent? {
        held.removeValue(forKey: client)
    }

    /// `client` ended: nothing of it is remembered.
    mutating func forget(_ client: UInt32) {
        said[client] = nil
        held[client] = nil
    }

    /// The held reads due at `now`, in their clients' order; each is then the last said.
    mutating func due(at now: Double) -> [SentinelEvent] {
        let clients = held.keys.filter { client in said[client].map { now - $0.at >= Self.interval } ?? true }.sorted()
        return clients.compactMap { client in
            guard let event = held.removeValue(forKey: client) else { return nil }
            noteSaid(event, at: now)
            return event
        }
    }

    /// When the next held read is due (nil: none is held).
    var deadline: Double? {
        held.keys.compactMap { said[$0].map { $0.at + Self.interval } }.min()
    }
}
