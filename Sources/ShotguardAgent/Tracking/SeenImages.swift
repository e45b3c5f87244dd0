// Remembers files and images already handled, so a second signal of one screenshot is not a second report.

/// Keys (a file's identity, an image's content) with the time they were seen; they expire.
struct SeenImages {
    private var seen: [String: Double] = [:]
    let window: Double

    init(window: Double = 5.0) { self.window = window }

    /// Whether `key` was seen within the window before `now`.
    mutating func contains(_ key: String, now: Double) -> Bool {
        seen = seen.filter { now - $0.value < window }
        return seen[key] != nil
    }

    mutating func insert(_ key: String, now: Double) {
        seen[key] = now
    }
}
