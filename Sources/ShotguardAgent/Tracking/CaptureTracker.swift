// The capture tracker: signals in, decisions out — which images to examine, when an event settles.
import ShotguardBase
import ShotguardImaging
import ShotguardScreen

/// A signal from one of the sources, already turned into values.
enum CaptureSignal: Sendable {
    /// A file or clipboard image that may be a screenshot.
    case image(Candidate)
    /// A screenshot tool's window was created (before it paints): the screen is grabbed now.
    case toolWindowCreated(id: UInt, tool: String)
    /// It was mapped: the tool is in use, not idle in a tray.
    case toolWindowShown(id: UInt, tool: String)
    case toolWindowClosed(id: UInt)
    case shieldKey(ShieldRecord)
    /// A program read the screen (one read, not a recording's frames).
    case screenRead(ScreenReadRecord)
}

/// What became of one examined candidate, as the tracker needs to know it.
enum ExaminationOutcome: Sendable {
    /// Placed on a screen of the event; `fingerprint` names its pixels.
    case placed(PlacedImage, fingerprint: String)
    /// A screenshot (by its evidence) that could not be placed.
    case screenshotUnplaced(reason: String)
    /// Not a screenshot of this screen, or nothing to do with it: left exactly as it was.
    case left(reason: String)
    /// Not complete yet: looked at again after `delay` seconds.
    case lookAgain(delay: Double)
    /// It changed while guard rewrote it: read again once.
    case readAgain
}

extension ExaminationOutcome {
    /// The outcome's name, for the event stream.
    var kind: String {
        switch self {
        case .placed: return "placed"
        case .screenshotUnplaced: return "unplaced"
        case .left: return "left"
        case .lookAgain: return "look-again"
        case .readAgain: return "read-again"
        }
    }
}

/// Signals in, decisions out. Owns the open capture event, the queue of candidates, the one
/// store of recent keys and the history of screen reads. Takes moments as values and grabs no
/// screen itself: opening an event asks `snapshot` for one. Unit-tested without X.
struct CaptureTracker {
    private(set) var event: CaptureEvent?
    private(set) var recent = RecentKeys()
    /// When the screens grabbed as tool windows closed were taken (the last second's).
    private var closedSnapshots: [Double] = []
    private(set) var reads = ReadHistory()
    private var queue = CandidateQueue()
    private var leftUnread = LeftUnreadFiles()

    /// A fresher screen is taken for a later signal only when the last one is older than this.
    static let snapshotInterval = 0.25
    /// How many screens are grabbed as tool windows close, at most, in a second.
    static let closedSnapshotsPerSecond = 4
    /// A file is looked at again this often while it is not complete, at most `maximumLooks` times.
    static let lookInterval = 0.25
    static let maximumLooks = 8
    /// Signals listed per event (its report); more still count, but are not listed.
    static let maximumSignals = 64
    /// A read narrower or shorter than this (a colour picker, a magnifier) is no screenshot.
    static let smallestScreenshotSide = 32
    /// How many times an event with a screenshot signal and no image looks for the newest
    /// screenshot-like file in the watched folders before it settles without one.
    static let looksForAFile = 2

    typealias Snapshotter = () -> Snapshot?

    /// Takes one signal. Returns what it did (for the log and the event stream).
    mutating func receive(_ signal: CaptureSignal, at now: Moment, snapshot: Snapshotter) -> [TrackerNote] {
        switch signal {
        case .image(let candidate):
            return receive(candidate, at: now, snapshot: snapshot)
        case .toolWindowCreated(_, let tool):
            // The screen is grabbed now, before the tool paints over it; the event counts only
            // once the window is mapped (a tray daemon's hidden windows never are).
            return open(with: SignalRecord(kind: .toolWindow, time: now.wall, detail: tool), freshScreen: false, at: now,
                        snapshot: snapshot)
        case .toolWindowShown(let id, let tool):
            var said: [TrackerNote] = []
            if event?.signals.contains(where: { $0.kind == .toolWindow }) != true {
                said = open(with: SignalRecord(kind: .toolWindow, time: now.wall, detail: tool), freshScreen: false, at: now,
                            snapshot: snapshot)
            }
            event?.openToolWindows.insert(id)
            event?.toolName = tool
            event?.count(.toolWindow(id), at: now.monotonic)
            return said
        case .toolWindowClosed(let id):
            guard var current = event, current.openToolWindows.remove(id) != nil else { return [] }
            current.lastSignal = now.monotonic
            // Tools that show a window first and capture when it goes (shutter, a delay timer)
            // read the screen now, not when the event opened.
            // At most a few a second (a storm of tool windows would grab the screen at each
            // one): the flag below gives the next image a fresh screen anyway.
            var said: [TrackerNote] = []
            closedSnapshots.removeAll { now.monotonic - $0 >= 1 }
            if closedSnapshots.count < Self.closedSnapshotsPerSecond, let fresh = snapshot() {
                closedSnapshots.append(now.monotonic)
                current.addSnapshot(fresh)
                said.append(.freshScreen(event: current.id, screens: current.snapshots.count))
            }
            current.toolWindowClosedSinceSnapshot = true
            event = current
            return said
        case .shieldKey(let record):
            let said = open(with: SignalRecord(kind: .shieldKey, time: record.keyTime, detail: "shield"), freshScreen: false, at: now,
                            snapshot: snapshot)
            if event?.shield == nil { event?.shield = record }
            return said
        case .screenRead(let read):
            reads.add(read)
            reads.prune(at: now)
            var record = SignalRecord(kind: .screenRead, time: read.time.wall, detail: read.program)
            record.read = read
            let said = open(with: record, freshScreen: true, at: now, snapshot: snapshot)
            if var shield = event?.shield, shield.readAfterMs == nil {
                shield.readAfterMs = (read.time.wall - shield.keyTime) * 1000
                event?.shield = shield
            }
            // A screenshot program's read is a screenshot even before its image turns up (one
            // saved where the agent cannot see it is reported with the fallback); any other
            // program's read only opens the event, for the image that may follow.
            if ScreenshotPrograms.contains(read.program), Self.isScreenshotSized(read.area) {
                event?.count(.screenRead(read.time.monotonic), at: now.monotonic)
            }
            // Files left a moment ago for want of a read may hold this one's pixels (heard after
            // they closed): they are placed again, and a file placed where it read is its.
            return said + leftUnread.take(after: read, at: now.monotonic).flatMap { takeAgain($0, for: read, at: now, snapshot: snapshot) }
        }
    }

    /// A read of a few pixels (a colour picker, a magnifier) is no screenshot.
    static func isScreenshotSized(_ area: Rect?) -> Bool {
        guard let area else { return true }
        return area.width >= smallestScreenshotSide && area.height >= smallestScreenshotSide
    }

    private mutating func receive(_ candidate: Candidate, at now: Moment, snapshot: Snapshotter) -> [TrackerNote] {
        if recent.contains(candidate.key, as: .own, at: now.monotonic) {
            return [.ignored(name: candidate.name, why: candidate.source == .file ? .ownRewrite : .ownImage)]
        }
        if candidate.source == .file, recent.contains(candidate.key, as: .handled, at: now.monotonic) {
            // Seen again with the read its writer made: still waiting, it takes its turn with
            // the images a program read the screen for.
            if queue.strengthen(with: candidate) {
                event?.count(.image(key: candidate.key), at: now.monotonic)
                event?.hasRealImage = true
            }
            // Examined already and left for want of a read: that read is known now (the
            // follower learnt the writer after the file closed), so it is judged again.
            else if let read = candidate.evidence.screenRead?.read, var left = leftUnread.take(key: candidate.key, at: now.monotonic) {
                left.evidence.screenRead = candidate.evidence.screenRead
                left.readScreens += candidate.readScreens
                if let held = candidate.held { left.held = held }
                return takeAgain(left, for: read, at: now, snapshot: snapshot)
            }
            return [.ignored(name: candidate.name, why: .alreadySeen)]
        }
        return take(candidate, at: now, snapshot: snapshot)
    }

    /// Takes in again a file left for want of a read, now that `read` is learnt.
    private mutating func takeAgain(_ left: Candidate, for read: ScreenReadRecord, at now: Moment,
                                    snapshot: Snapshotter) -> [TrackerNote] {
        let notes = take(left, at: now, snapshot: snapshot)
        // Said only when it is taken: with no screen to open an event on, it is not.
        guard notes.contains(.taken(name: left.name, naming: left.naming)) else { return notes }
        return [.judgedAgain(name: left.name, program: read.program)] + notes
    }

    /// Takes `candidate` in: its signal joins the event (opening one), and it waits its turn.
    private mutating func take(_ candidate: Candidate, at now: Moment, snapshot: Snapshotter) -> [TrackerNote] {
        recent.note(candidate.key, as: .handled, at: now.monotonic)
        // Taken in afresh (its first sight forgotten), it is no longer one left waiting.
        if candidate.judgements == 0 { leftUnread.forget(key: candidate.key) }
        var record = SignalRecord(kind: candidate.source == .file ? .file : .clipboard, time: now.wall,
                                  detail: candidate.path?.description ?? candidate.clipboard?.owner.description ?? "")
        record.read = candidate.evidence.screenRead?.read
        let said = open(with: record, freshScreen: true, at: now, snapshot: snapshot)
        guard event != nil else { return [.ignored(name: candidate.name, why: .noScreen)] }
        queue.add(candidate)
        // Only an urgent candidate keeps the event open longer: a stream of unrelated images
        // cannot hold an old screen context open.
        if candidate.isUrgent {
            event?.count(.image(key: candidate.key), at: now.monotonic)
            event?.hasRealImage = true
        }
        let dropped = queue.dropWeakOverCap()
        if dropped > 0 { event?.weakDropped += dropped }
        return said + [.taken(name: candidate.name, naming: candidate.naming)]
    }

    /// Adds `record` to the open event, opening one (its screen grabbed now) if none is. A
    /// signal that may carry a different screen than the event's first adds a fresh snapshot.
    @discardableResult
    private mutating func open(with record: SignalRecord, freshScreen: Bool, at now: Moment, snapshot: Snapshotter) -> [TrackerNote] {
        var said: [TrackerNote] = []
        if var current = event {
            if freshScreen, let last = current.snapshots.last,
               current.toolWindowClosedSinceSnapshot || now.monotonic - last.time.monotonic >= Self.snapshotInterval,
               let fresh = snapshot() {
                current.addSnapshot(fresh)
                current.toolWindowClosedSinceSnapshot = false
                said.append(.freshScreen(event: current.id, screens: current.snapshots.count))
            }
            // A storm of signals (tool windows made by the thousand) is listed up to a bound.
            if current.signals.count < Self.maximumSignals { current.signals.append(record) }
            event = current
            return said
        }
        guard let first = snapshot() else { return [] }
        var opened = CaptureEvent(id: Self.eventID(at: now), snapshot: first)
        opened.signals.append(record)
        queue.newEvent()
        event = opened
        return [.opened(event: opened.id, windows: first.context.windows.count, fallback: opened.fallbackRect)]
    }

    /// The next candidate to examine now, if one is due (one per loop turn, so that signals
    /// and X events are answered between the images of a burst).
    mutating func next(at now: Moment) -> Candidate? { queue.next(at: now.monotonic) }

    /// What became of an examined candidate. Returns what it did (for the log and the event stream).
    /// `leftBecause`: why a candidate `.left` was left, when the handler says (a file that is
    /// guard's own output now, or gone, waits for no read).
    mutating func examined(_ candidate: Candidate, _ outcome: ExaminationOutcome, leftBecause: LeftBecause? = nil,
                           at now: Moment) -> [TrackerNote] {
        switch outcome {
        case .placed(let placed, let fingerprint):
            // The same pixels again: on the clipboard, the screenshot whose file was just handled
            // (or the reverse); as a file, the same file closed twice. Two files of an unchanged
            // screen are two screenshots.
            let ownKey = fingerprint + ":" + (candidate.path.map { $0.description } ?? "clipboard")
            let isRepeat = recent.contains(ownKey, as: .reported, at: now.monotonic)
                || (candidate.source == .clipboard && recent.contains(fingerprint, as: .reported, at: now.monotonic))
            recent.note(fingerprint, as: .reported, at: now.monotonic)
            recent.note(ownKey, as: .reported, at: now.monotonic)
            guard var current = event else { return [] }
            if isRepeat {
                current.repeats += 1
                event = current
                return [.repeated(name: candidate.name)]
            }
            // The first placed image is the event's, unless a screenshot-named one comes after a weak one.
            if current.placed.map({ $0.candidate.naming == .weak && candidate.naming != .weak }) ?? true {
                current.placed = placed
            }
            if candidate.naming == .weak { current.count(.image(key: candidate.key), at: now.monotonic) }
            event = current
            return []
        case .screenshotUnplaced(let reason):
            event?.unplaced.append((candidate.name, reason))
            return []
        case .left(let reason):
            if candidate.naming == .weak { event?.weakExamined += 1 }
            if leftBecause?.aReadMayChangeIt ?? true {
                var judged = candidate
                judged.judgements += 1
                leftUnread.note(judged, at: now.monotonic)
            }
            // Counted by its name or evidence, it was no screenshot: the event no longer counts
            // for it (no fallback report for a photo copied into a Screenshots folder).
            event?.uncount(.image(key: candidate.key))
            return [.left(name: candidate.name, reason: reason)]
        case .lookAgain(let delay):
            guard candidate.looks < Self.maximumLooks else {
                return [.gaveUp(name: candidate.name)]
            }
            var again = candidate
            again.looks += 1
            queue.add(again, notBefore: now.monotonic + delay)
            if var current = event {
                current.lastSignal = max(current.lastSignal, now.monotonic + delay)
                event = current
            }
            return [.lookingAgain(name: candidate.name, delay: delay)]
        case .readAgain:
            guard candidate.rereads == 0 else { return [] }
            var again = candidate
            again.rereads = 1
            queue.add(again)
            return []
        }
    }

    /// A text pass started for one of the event's screenshots: the event waits for it.
    mutating func textPassStarted() { event?.textPending += 1 }

    /// A text pass ended: the placed image (if it is `key`'s) gets its text covers, or — set aside
    /// — the report carries the fallback and says why.
    mutating func textPassEnded(key: String, image: PixelBuffer?, covers: [(kind: String, line: Int, rect: Rect)], note: String?) {
        guard var current = event else { return }
        current.textPending = max(0, current.textPending - 1)
        if var placed = current.placed, placed.candidate.key == key {
            if let image {
                placed.image = image
                placed.textCovers = covers
                current.placed = placed
            } else {
                current.placed = nil
                current.unplaced.append((placed.candidate.name, note ?? "its text could not be checked"))
            }
        }
        event = current
    }

    /// Guard's own output: bytes it wrote or served, a file identity it renamed into place.
    mutating func noteOwn(_ key: String, at now: Moment) { recent.note(key, as: .own, at: now.monotonic) }

    /// Adds what guard did, and notes, to the open event.
    mutating func record(_ outcome: (inout GuardOutcome) -> Void, note: String? = nil) {
        guard var current = event else { return }
        outcome(&current.guardOutcome)
        if let note { current.notes.append(note) }
        event = current
    }

    /// The open event is due to settle at `now`: returns it (and forgets it), unless the bounded
    /// look for a file found one or plans another look. `lookForFile` returns the newest
    /// screenshot-like file written since the given wall time, as a candidate.
    mutating func settle(at now: Moment, final: Bool = false, lookForFile: (Double) -> Candidate?) -> CaptureEvent? {
        leftUnread.prune(at: now.monotonic)
        guard var current = event else { return nil }
        if !final {
            guard queue.isEmpty, current.textPending == 0 || now.monotonic >= current.start.monotonic + CaptureEvent.limit + TextPasses.limit,
                  now.monotonic >= current.settleTime else { return nil }
            if current.hasCountedSignal, !current.hasRealImage, current.looks < Self.looksForAFile {
                current.looks += 1
                current.retryAt = nil
                if let found = lookForFile(current.start.wall - ScreenshotFileClassifier.maximumAge),
                   !recent.contains(found.key, as: .handled, at: now.monotonic), !recent.contains(found.key, as: .own, at: now.monotonic) {
                    recent.note(found.key, as: .handled, at: now.monotonic)
                    current.signals.append(SignalRecord(kind: .file, time: now.wall, detail: found.name))
                    current.hasRealImage = true
                    queue.add(found)
                    event = current
                    return nil
                }
                if current.looks < Self.looksForAFile {
                    current.retryAt = now.monotonic + CaptureEvent.retryDelay
                    event = current
                    return nil
                }
            }
        }
        event = nil
        queue.newEvent()
        return current
    }

    /// Every candidate still waiting (examined at shutdown, before the final settle).
    mutating func drainQueue() -> [Candidate] { queue.drain() }

    /// When the tracker next has work: a candidate due, the event's settle time, a planned look,
    /// a file left for want of a read to forget.
    func deadline(at now: Moment) -> Double? {
        [queue.deadline(at: now.monotonic), event?.settleTime, leftUnread.deadline].compactMap { $0 }.min()
    }

    /// `20261129-140703-120`: local time to the millisecond, unique enough for one user's screen.
    static func eventID(at now: Moment) -> String {
        let t = CalendarTime(now.wall)
        let pad = CalendarTime.pad
        return "\(pad(t.year, 4))\(pad(t.month, 2))\(pad(t.day, 2))-\(pad(t.hour, 2))\(pad(t.minute, 2))\(pad(t.second, 2))-"
            + pad(t.millisecond, 3)
    }
}
