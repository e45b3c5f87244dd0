// One capture event: the signals of one screenshot, the screen at that moment, and the images.
import ShotguardImaging
import ShotguardRegions

/// A real image that came with a signal, to replace the fallback if it can be placed.
struct Candidate {
    let source: Report.Source
    /// PNG bytes; nil when the file is an image format shotguard does not decode.
    let png: [UInt8]?
    let path: BytePath?
    /// Weak candidates (any image in a watched folder) count only if found on the screen.
    let isWeak: Bool
    let key: String
}

/// Everything recorded at the first signal, and what joined since.
final class CaptureEvent {
    let id: String
    let wallStart: Double
    let context: ScreenContext
    /// The whole screen at event time, opaque, for alignment.
    let root: PixelBuffer
    /// The active window's rectangle (or the screen), cut from the event-time grab of the root.
    let fallbackRect: Rect
    var signals: [SignalRecord] = []
    var candidates: [Candidate] = []
    var openToolWindows: Set<UInt> = []
    var hasCountedSignal = false
    var lastSignal: Double
    var lastCountedSignal: Double
    let toolDeadline: Double
    let start: Double
    var looks = 0

    /// Settle this long after the last signal; keep counted signals together at least `debounce`.
    static let settle = 0.75
    static let debounce = 1.0
    static let toolWindowLimit = 60.0
    static let limit = 10.0

    init(id: String, now: Double, wallNow: Double, context: ScreenContext, root: PixelBuffer) {
        self.id = id
        wallStart = wallNow
        self.context = context
        self.root = root
        let active = context.windows.first { $0.id == context.activeWindowID }
        let clipped = active.map { $0.frame.intersection(context.bounds) }
        fallbackRect = clipped.flatMap { $0.isEmpty ? nil : $0 } ?? context.bounds
        lastSignal = now
        lastCountedSignal = now
        toolDeadline = now + Self.toolWindowLimit
        start = now
    }

    /// Adds a signal. Only a counted one (classified as a screenshot) keeps the event open
    /// longer: a stream of unrelated images cannot hold an old screen context open.
    func add(_ signal: SignalRecord, counted: Bool, candidate: Candidate?, now: Double) {
        signals.append(signal)
        if let candidate { candidates.append(candidate) }
        if counted { count(now: now) }
    }

    /// Marks the event as a screenshot (a counted signal, or a tool window that was mapped).
    func count(now: Double) {
        hasCountedSignal = true
        lastSignal = now
        lastCountedSignal = now
    }

    /// When the event may settle: after the quiet period (at most `limit` after it opened), and
    /// not while a tool window is shown (for at most a minute).
    var settleTime: Double {
        let quiet = min(max(lastSignal + Self.settle, lastCountedSignal + Self.debounce), start + Self.limit)
        return openToolWindows.isEmpty ? quiet : max(quiet, toolDeadline)
    }

    var hasRealImage: Bool { candidates.contains { !$0.isWeak } }
}
