// How often the rules are resolved again as windows change: promptly, but never so often that a storm of windows starves the loop.

/// Windows changed: the rules are resolved again at once, unless the last resolution was less
/// than `interval` ago — then when that interval ends. The interval grows with what a
/// resolution costs (three times its duration), so reading the windows of a storm of 20,000
/// takes at most a quarter of the loop's time; on a desktop it stays at 20 ms.
struct ResolveThrottle: Sendable {
    private var pending = false
    private var notBefore = 0.0

    static let interval = 0.02
    static let costFactor = 3.0

    /// Windows changed at `now`.
    mutating func windowsChanged() { pending = true }

    /// Whether the rules are to be resolved now.
    func isDue(at now: Double) -> Bool { pending && now >= notBefore }

    /// A resolution ran from `start` to `end`.
    mutating func resolved(from start: Double, to end: Double) {
        pending = false
        notBefore = end + max(Self.interval, Self.costFactor * (end - start))
    }

    /// When the next resolution is due, if one waits.
    var deadline: Double? { pending ? notBefore : nil }
}
