// Counting the times the same clipboard original comes back after guard replaced it.

/// A tool (or a clipboard manager restoring its history) may put the original image back on
/// CLIPBOARD after guard served the redacted one. Guard takes it over again, but not forever:
/// two programs fighting over the clipboard would keep the X server busy and the user's paste
/// undecided. `limit` takeovers per image within `window` seconds.
struct ClipboardRetakes {
    static let limit = 5
    static let window = 60.0

    private var counts: [String: (count: Int, since: Double)] = [:]

    /// Records one more return of the image `key` at `now`; the number of returns so far in
    /// the window, counting this one.
    mutating func record(_ key: String, now: Double) -> Int {
        counts = counts.filter { now - $0.value.since < Self.window }
        let count = (counts[key]?.count ?? 0) + 1
        counts[key] = (count, counts[key]?.since ?? now)
        return count
    }
}
