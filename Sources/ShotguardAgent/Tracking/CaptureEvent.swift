// One capture event: the signals of one screenshot, the screens seen meanwhile, and what became of its images.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

/// One signal that joined a capture event, for the report.
struct SignalRecord: Sendable {
    enum Kind: String, Sendable {
        case file, clipboard, toolWindow = "tool-window", shieldKey = "shield-key", screenRead = "screen-read"
    }

    let kind: Kind
    let time: Double
    /// The file path, the clipboard owner, the tool's class, the program that read the screen.
    let detail: String
    /// For `screen-read`: the read itself.
    var read: ScreenReadRecord?
}

/// Why an event counts as a screenshot.
enum CountingSignal: Hashable, Sendable {
    case toolWindow(UInt)
    /// A screenshot program's read of the screen (by the read's time, monotonic).
    case screenRead(Double)
    /// An image: by its name or its evidence before it is examined, by its pixels after.
    case image(key: String)
}

/// The shield's part of an event: the first key press that raised the covers.
struct ShieldRecord: Sendable {
    /// Wall-clock time the agent read the key event.
    let keyTime: Double
    /// From reading the key event to flushing the covers' map requests.
    let mappedAfterMs: Double
    /// How many covers went up.
    let covers: Int
    /// The key's server time: reads recorded after it were made with the covers up.
    var serverTime: UInt = 0
    /// From the key to the screenshot's read, when capture sensing saw it (the covers were up
    /// for it); negative when the read came first (the shield lost the race).
    var readAfterMs: Double?
}

/// A candidate that was examined and placed: its image with the rules applied.
struct PlacedImage: Sendable {
    let candidate: Candidate
    var image: PixelBuffer
    let alignment: Alignment
    let redactions: [RegionHit]
    let notes: [String]
    let evidence: [String]
    /// What the text rules covered (kind, rule line, box in image coordinates), once their pass ran.
    var textCovers: [(kind: String, line: Int, rect: Rect)] = []
}

/// Everything recorded since the first signal. A value owned by `CaptureTracker`; the parts
/// that act on an event get copies.
struct CaptureEvent: Sendable {
    let id: String
    let start: Moment
    /// The event-time screen first, then fresher ones taken at later signals (bounded).
    private(set) var snapshots: [Snapshot]
    var signals: [SignalRecord] = []
    /// The image the report will carry, when one was placed.
    var placed: PlacedImage?
    /// Screenshots (images judged to be of this screen) that could not be placed, with why.
    var unplaced: [(name: String, reason: String)] = []
    /// Candidates that showed a screenshot already reported (guarded again, not reported again).
    var repeats = 0
    var guardOutcome = GuardOutcome()
    var notes: [String] = []
    /// Tool windows shown and not yet closed.
    var openToolWindows: Set<UInt> = []
    /// The tool that showed a window in this event (evidence for its images).
    var toolName: String?
    /// A tool window closed since the last snapshot: the next image brings a fresh screen.
    var toolWindowClosedSinceSnapshot = false
    /// The shield key press of this event, when the shield went up for it.
    var shield: ShieldRecord?
    /// The signals that said a screenshot happened (a strong file, a clipboard image, a tool
    /// window shown, a screenshot program's read): without one, an event with no placed image
    /// ends without a report. An image that counted by its name alone stops counting once it
    /// is examined and found to be no screenshot (a photo copied into a Screenshots folder).
    private(set) var countedBy: Set<CountingSignal> = []
    var hasCountedSignal: Bool { !countedBy.isEmpty }
    var lastSignal: Double
    var lastCountedSignal: Double
    /// The second look for a file, when the signals brought no image.
    var retryAt: Double?
    var looks = 0
    /// Whether a strong image arrived (placed or not): then no look for a file is needed.
    var hasRealImage = false
    /// Weak candidates examined and left alone, and dropped over the burst cap.
    var weakExamined = 0
    var weakDropped = 0
    /// Text passes still running for this event's screenshots: it settles after them.
    var textPending = 0

    /// Settle this long after the last signal; keep counted signals together at least `debounce`.
    static let settle = 0.75
    static let debounce = 1.0
    static let toolWindowLimit = 60.0
    static let limit = 10.0
    static let retryDelay = 0.75
    /// Screens kept per event: the event-time one and the freshest others.
    static let maximumSnapshots = 3

    init(id: String, snapshot: Snapshot) {
        self.id = id
        start = snapshot.time
        snapshots = [snapshot]
        lastSignal = snapshot.time.monotonic
        lastCountedSignal = snapshot.time.monotonic
    }

    var eventTime: Snapshot { snapshots[0] }

    /// What a screenshot program read at the event, else the active window's rectangle (or the
    /// screen): the fallback image.
    var fallbackRect: Rect {
        let context = eventTime.context
        // What a screenshot program read is what its image shows, better than a guess.
        if let read = signals.lazy.compactMap(\.read).first(where: { ScreenshotPrograms.contains($0.program) && $0.area != nil }),
           let area = read.area?.intersection(context.bounds), !area.isEmpty {
            return area
        }
        let active = context.windows.first { $0.id == context.activeWindowID }
        let clipped = active.map { $0.frame.intersection(context.bounds) }
        return clipped.flatMap { $0.isEmpty ? nil : $0 } ?? context.bounds
    }

    /// Keeps a fresher screen, dropping the oldest fresh one beyond the bound (never the first).
    mutating func addSnapshot(_ snapshot: Snapshot) {
        if snapshots.count >= Self.maximumSnapshots { snapshots.remove(at: 1) }
        snapshots.append(snapshot)
    }

    /// Marks the event as a screenshot, for `reason`.
    mutating func count(_ reason: CountingSignal, at now: Double) {
        countedBy.insert(reason)
        lastSignal = now
        lastCountedSignal = now
    }

    /// `reason` turned out not to be a screenshot after all.
    mutating func uncount(_ reason: CountingSignal) { countedBy.remove(reason) }

    /// What the event itself tells of its images: a tool window shown, the shield's key.
    var evidence: Evidence {
        var evidence = Evidence()
        evidence.toolWindow = toolName
        evidence.shieldKey = shield != nil
        return evidence
    }

    /// When the event may settle: after the quiet period (at most `limit` after it opened), and
    /// not while a tool window is shown (for at most a minute), nor before a planned retry.
    var settleTime: Double {
        var quiet = min(max(lastSignal + Self.settle, lastCountedSignal + Self.debounce), start.monotonic + Self.limit)
        if let retryAt { quiet = max(quiet, retryAt) }
        return openToolWindows.isEmpty ? quiet : max(quiet, start.monotonic + Self.toolWindowLimit)
    }
}
