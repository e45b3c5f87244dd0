// One capture event: the signals of one screenshot, the screens seen meanwhile, and its images.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// The screen at one moment: its pixels (opaque, for alignment) and its windows.
struct Snapshot {
    let root: PixelBuffer
    let context: ScreenContext
    let wallTime: Double
}

/// A real image that came with a signal, to replace the fallback if it can be placed. Files are
/// kept as paths and read when examined, so a burst of files holds no bytes in memory.
struct Candidate {
    let source: Report.Source
    /// The file, for file candidates.
    let path: BytePath?
    /// The image bytes, for clipboard candidates (a clipboard dies with its owner).
    let bytes: [UInt8]?
    /// Weak candidates (any image in a watched folder) count only if found on the screen.
    let isWeak: Bool
    /// What recognises the same file or image when it is signalled again.
    let key: String
    /// 1 once the file changed under a rewrite and is being read again (it is read twice at most).
    var attempt = 0
    /// For clipboard candidates: the image targets the owner offered, the one read first.
    var clipboardTargets: [String] = []
}

/// A candidate that was examined and placed: its image with the rules applied.
struct PlacedImage {
    let candidate: Candidate
    var image: PixelBuffer
    let alignment: Alignment
    let redactions: [RegionHit]
    let notes: [String]
}

/// Everything recorded since the first signal.
final class CaptureEvent {
    let id: String
    let wallStart: Double
    let start: Double
    /// The event-time screen first, then fresher ones taken at later signals (bounded).
    private(set) var snapshots: [Snapshot]
    var signals: [SignalRecord] = []
    /// Candidates waiting to be examined, in arrival order.
    var pending: [Candidate] = []
    /// How many candidates joined, and how many were files (a burst of files is not a screenshot).
    var candidateCount = 0
    var fileCount = 0
    /// The image the report will carry, when one was placed.
    var placed: PlacedImage?
    /// Strong candidates that could not be placed, with why: quarantined at settle when a rule
    /// hit a window at the event.
    var unplaced: [(candidate: Candidate, reason: String)] = []
    var weakUnplaced = 0
    /// Candidates that showed a screenshot already handled (guarded again, not reported again).
    var repeats = 0
    var guardOutcome = GuardOutcome()
    var notes: [String] = []
    var openToolWindows: Set<UInt> = []
    /// A tool window closed since the last snapshot: the screen grabbed at its close may still
    /// show the window manager's frame around it, so the next file or clipboard image brings a
    /// fresh screen however soon it comes.
    var toolWindowClosedSinceSnapshot = false
    /// The shield key press of this event, when the shield went up for it.
    var shield: ShieldRecord?
    var hasCountedSignal = false
    var lastSignal: Double
    var lastCountedSignal: Double
    /// The second look for a file, when the signals brought none.
    var retryAt: Double?
    var looks = 0
    let toolDeadline: Double

    /// Settle this long after the last signal; keep counted signals together at least `debounce`.
    static let settle = 0.75
    static let debounce = 1.0
    static let toolWindowLimit = 60.0
    static let limit = 10.0
    static let retryDelay = 0.75
    /// Screens kept per event: the event-time one and the freshest others.
    static let maximumSnapshots = 3
    /// More files than this in one event is a bulk copy, not a screenshot.
    static let burstSize = 8

    init(id: String, now: Double, snapshot: Snapshot) {
        self.id = id
        wallStart = snapshot.wallTime
        start = now
        snapshots = [snapshot]
        lastSignal = now
        lastCountedSignal = now
        toolDeadline = now + Self.toolWindowLimit
    }

    var eventTime: Snapshot { snapshots[0] }

    /// The active window's rectangle at the event (or the screen): the fallback image.
    var fallbackRect: Rect {
        let context = eventTime.context
        let active = context.windows.first { $0.id == context.activeWindowID }
        let clipped = active.map { $0.frame.intersection(context.bounds) }
        return clipped.flatMap { $0.isEmpty ? nil : $0 } ?? context.bounds
    }

    /// Keeps a fresher screen, dropping the oldest fresh one beyond the bound (never the first).
    func addSnapshot(_ snapshot: Snapshot) {
        if snapshots.count >= Self.maximumSnapshots { snapshots.remove(at: 1) }
        snapshots.append(snapshot)
    }

    /// Adds a signal. Only a counted one (classified as a screenshot) keeps the event open
    /// longer: a stream of unrelated images cannot hold an old screen context open.
    func add(_ signal: SignalRecord, counted: Bool, candidate: Candidate?, now: Double) {
        signals.append(signal)
        if let candidate {
            pending.append(candidate)
            candidateCount += 1
            if candidate.source == .file { fileCount += 1 }
        }
        if counted { count(now: now) }
    }

    /// Marks the event as a screenshot (a counted signal, or a tool window that was mapped).
    func count(now: Double) {
        hasCountedSignal = true
        lastSignal = now
        lastCountedSignal = now
    }

    var isBurst: Bool { fileCount > Self.burstSize }

    /// When the event may settle: after the quiet period (at most `limit` after it opened), and
    /// not while a tool window is shown (for at most a minute), nor before a planned retry.
    var settleTime: Double {
        var quiet = min(max(lastSignal + Self.settle, lastCountedSignal + Self.debounce), start + Self.limit)
        if let retryAt { quiet = max(quiet, retryAt) }
        return openToolWindows.isEmpty ? quiet : max(quiet, toolDeadline)
    }

    /// Whether a strong image arrived (placed or not): then no look for a file is needed.
    var hasRealImage: Bool {
        (placed.map { !$0.candidate.isWeak } ?? false) || !unplaced.isEmpty || pending.contains { !$0.isWeak }
    }
}
