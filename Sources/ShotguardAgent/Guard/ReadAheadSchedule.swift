// When the agent reads the screen's text ahead of a screenshot: a look a second, a reading only when the screen changed.
import ShotguardImaging
import ShotguardText

/// The schedule of readings ahead (`watch` with `text` rules, unless `--no-read-ahead`). OCR of
/// a full screen takes about a second on two cores, too long to start when a screenshot begins
/// if its file is to be covered at once; the lines of a screen already read are remembered
/// (`LineCache`), so the agent reads the screen while nobody takes one: a screenshot then needs
/// OCR only for the lines that changed since.
///
/// Pure: the agent grabs the screen when `isDue`, hands its digest to `looked`, and starts a
/// reading when that says the screen changed; `read` takes the reading's result.
struct ReadAheadSchedule {
    /// The screen is looked at (grabbed and hashed: a few milliseconds) at most this often.
    static let interval = 1.0
    /// Readings take at most this share of the time on average (each on two threads at nice 10:
    /// a tenth of one core at most, for a screen that never stops changing)...
    static let share = 0.05
    /// ...and this many seconds of readings in a row (a reading starts no line past what is left
    /// of them, `allowance`), so a screen that changes now and then (a new page, another window)
    /// is read as soon as it is looked at.
    static let burst = 3.0
    /// After OCR failed to start (no Tesseract, no model), the next look waits this long: the
    /// screenshots' own passes say the failure, and fail closed.
    static let afterFailure = 60.0

    private(set) var nextLook = 0.0
    /// The digest of the screen last read (or being read); nil when its reading was cut short.
    private var lastRead: Int?
    /// The seconds of reading that may be spent now, and when that was reckoned.
    private var budget = burst
    private var reckoned: Double?

    func isDue(at now: Double) -> Bool { now >= nextLook }

    /// Every how many rows `digest` reads: a line of text is at least 7 rows tall, so a change
    /// to it changes rows the digest reads but for a few glyph pairs that differ only in a row
    /// or two ("O" and "Q"); such a change goes unread ahead, and the screenshot's own pass
    /// reads that line itself. A look then costs a quarter of hashing the whole screen.
    static let rowStep = 4

    /// A digest of `image`'s pixels, every `rowStep`th row, and of the rules it is read for
    /// (other rules read other lines: narrower ones, another window's), keyed by the process's
    /// hash seed.
    static func digest(of image: PixelBuffer, rules: [TextRule]) -> Int {
        var hasher = Hasher()
        for rule in rules {
            hasher.combine(rule.kind.rawValue)
            for area in rule.areas ?? [] { hasher.combine(area) }
            hasher.combine(rule.areas == nil)
        }
        hasher.combine(image.width)
        hasher.combine(image.height)
        image.pixels.withUnsafeBytes { bytes in
            let rowBytes = image.width * 4
            for row in stride(from: 0, to: image.height, by: rowStep) {
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[(row * rowBytes)..<((row + 1) * rowBytes)]))
            }
        }
        return hasher.finalize()
    }

    /// The screen was grabbed at `now` with `digest`: whether it changed since it was last read
    /// (and should be read now).
    mutating func looked(at now: Double, digest: Int) -> Bool {
        nextLook = now + Self.interval
        guard digest != lastRead else { return false }
        lastRead = digest
        return true
    }

    /// The screen could not be grabbed at `now` (a size change under way): looked at again at
    /// the next look's time.
    mutating func missed(at now: Double) {
        nextLook = now + Self.interval
    }

    /// How long a reading started at `now` may go on starting lines: what is left of the budget
    /// (half a second at least); a reading cut short is taken up again at the next look.
    func allowance(at now: Double) -> Double {
        max(0.5, min(Self.burst, budget + (now - (reckoned ?? now)) * Self.share))
    }

    /// A reading ended at `now`: its time comes off the budget, and the next look waits until
    /// the budget is back above nothing; a screen left partly unread (a screenshot began) is
    /// read again at the next look.
    mutating func read(_ result: ScreenReading, endedAt now: Double) {
        budget = min(Self.burst, budget + (now - (reckoned ?? now)) * Self.share) - result.seconds
        reckoned = now
        let wait = result.failure != nil ? Self.afterFailure : max(Self.interval, -budget / Self.share)
        nextLook = max(nextLook, now + wait)
        if result.linesLeft > 0, result.failure == nil { lastRead = nil }
    }
}
