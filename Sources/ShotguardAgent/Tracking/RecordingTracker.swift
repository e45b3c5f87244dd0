// Recordings and screen shares: one client reading the screen again and again, or watching it, told apart from a screenshot.
import ShotguardImaging
import ShotguardX11

/// What the recording tracker saw happen.
enum RecordingChange: Equatable, Sendable {
    /// A client's reads became a recording, or it started watching the screen: the first read
    /// (or the watch), and how many reads so far.
    case started(RecordingInfo)
    /// It stopped (no read for `quiet` seconds and no watch left, or it disconnected): how
    /// many frames it read in all.
    case stopped(RecordingInfo)
}

/// How a recording reads the screen.
enum RecordingPath: Equatable, Sendable {
    /// Read after read: the request (`ShmGetImage`, `GetImage`, `CopyArea`, `RenderComposite`).
    case reads(String)
    /// Watching: the request that started it (`DamageCreate`, `RedirectWindow`, `NameWindowPixmap`).
    case watch(ScreenWatch.Kind)
    /// A process reading the screen past the X server: what it uses.
    case helper(String)

    /// The request or means, as `status` and the bus say it.
    var name: String {
        switch self {
        case .reads(let request): request
        case .watch(let kind): kind.rawValue
        case .helper(let means): means
        }
    }

    /// Whether a browser-like share (a copy into a pixmap, a window's contents) rather than a recorder's reads.
    var isShare: Bool {
        switch self {
        case .reads(let request): request == ScreenRead.Request.copyArea.rawValue || request == ScreenRead.Request.copyPlane.rawValue
            || request == ScreenRead.Request.renderComposite.rawValue
        case .watch: true
        case .helper: false
        }
    }
}

/// One recording, as `watch --json`, `status` and the bus report it.
struct RecordingInfo: Equatable, Sendable {
    var client: UInt32
    var program: String
    var pid: Int32?
    /// The rectangle it reads (the last read's, or what it watches), nil where it cannot be traced.
    var area: Rect?
    var frames: Int
    var started: Moment
    var lastRead: Moment
    var path: RecordingPath
    /// The watches it holds: while one lives, the recording goes on without reads.
    var watches: Set<ScreenWatchKey> = []
    /// How many protected areas the shield covered for it when it started.
    var covers = 0
    /// Whether a rule trusts its program (nothing is covered for it).
    var trusted = false

    /// The mean time between its reads so far.
    var interval: Double { frames > 1 ? (lastRead.monotonic - started.monotonic) / Double(frames - 1) : 0 }

    /// How long it may go without reading before it counts as stopped.
    var quiet: Double { max(RecordingTracker.quiet, 2 * interval) }
}

/// Sorts screen reads: a client that reads the screen again within `window` seconds, at least
/// `minimumSpan` after its first read, is recording (ffmpeg at any rate down to one frame in
/// ten seconds, OBS, a browser sharing the screen); a screenshot tool's one read, or a few
/// reads of each monitor at once, is not. A client watching the screen (DAMAGE on the root, a
/// named pixmap or a redirection of another client's window) for `watchGrace` seconds is
/// recording from its first watch until its last watch ends and it has not read for a while; a
/// watch that ends sooner is a screenshot tool's (maim redirects the root's children for the
/// moment of its read). A recording ends once it has not
/// read for its own interval twice over, and never sooner than `quiet` seconds: a recorder that
/// stalls for a moment under load keeps its covers. One that reads again within `remembered`
/// seconds of its end is recording again at its first read. The covers are not this tracker's
/// business (the sentinel puts them up at every first read): it tells what a recording is, for
/// the status, the bus, the notifications, and that its frames are no screenshots. Pure:
/// moments in, changes out.
struct RecordingTracker {
    static let window = 10.0
    static let minimumReads = 2
    static let minimumSpan = 0.1
    static let quiet = 3.0
    static let remembered = 30.0
    /// Clients followed at once (a flood of clients each reading once cannot grow it).
    static let capacity = 64
    /// How long a watch lives before it is a recording.
    static let watchGrace = 1.0

    /// Reads and recordings by client. An X client's resource base is used again by the next
    /// client the moment the last one closes (and RECORD may tell of the close late): the
    /// process is part of the key, so two scrot runs are never one client reading twice.
    struct Reader: Hashable, Sendable {
        let client: UInt32
        let pid: Int32?
    }

    private var recent: [Reader: [ScreenReadRecord]] = [:]
    private(set) var recordings: [Reader: RecordingInfo] = [:]
    /// Watches younger than `watchGrace` of clients not recording: the recording each would start.
    private var pending: [ScreenWatchKey: (reader: Reader, recording: RecordingInfo)] = [:]
    /// Readers whose recording ended lately, with when it ended.
    private var ended: [Reader: Double] = [:]

    /// Takes one read. Returns a change when it made its client's reads a recording; `isFrame`
    /// says whether the read belongs to a recording (then it is no screenshot signal). `covers`:
    /// how many protected areas the shield covered for its client; `trusted`: whether a rule
    /// trusts it.
    mutating func add(_ read: ScreenReadRecord, covers: Int = 0, trusted: Bool = false) -> (change: RecordingChange?, isFrame: Bool) {
        let now = read.time
        let reader = Reader(client: read.client, pid: read.pid)
        if var recording = recordings[reader] {
            recording.frames += read.repeats
            recording.lastRead = now
            recording.area = read.area ?? recording.area
            recordings[reader] = recording
            return (nil, true)
        }
        var reads = (recent[reader] ?? []).filter { now.monotonic - $0.time.monotonic <= Self.window }
        reads.append(read)
        let resumed = ended[reader].map { now.monotonic - $0 <= Self.remembered } ?? false
        if resumed || (reads.count >= Self.minimumReads && now.monotonic - reads[0].time.monotonic >= Self.minimumSpan) {
            ended[reader] = nil
            recent[reader] = nil
            let watches = pending.filter { $0.value.reader == reader }.map(\.key)
            for key in watches { pending[key] = nil }
            let recording = RecordingInfo(client: read.client, program: read.program, pid: read.pid, area: read.area,
                                          frames: reads.reduce(0) { $0 + $1.repeats }, started: reads[0].time, lastRead: now, path: .reads(read.request),
                                          watches: Set(watches), covers: covers, trusted: trusted)
            recordings[reader] = recording
            return (.started(recording), true)
        }
        recent[reader] = reads
        if recent.count > Self.capacity, let oldest = recent.min(by: { ($0.value.last?.time.monotonic ?? 0) < ($1.value.last?.time.monotonic ?? 0) }) {
            recent[oldest.key] = nil
        }
        return (nil, false)
    }

    /// A client started watching the screen: a recording once the watch has lived
    /// `watchGrace` seconds (`expire`), or one more watch of the recording it already is.
    mutating func watchStarted(_ key: ScreenWatchKey, program: String, pid: Int32?, area: Rect?, at now: Moment, covers: Int = 0,
                               trusted: Bool = false) {
        let reader = Reader(client: key.client, pid: pid)
        if var recording = recordings[reader] {
            recording.watches.insert(key)
            recordings[reader] = recording
            return
        }
        guard pending.count < Self.capacity else { return }
        pending[key] = (reader, RecordingInfo(client: key.client, program: program, pid: pid, area: area, frames: 0, started: now,
                                              lastRead: now, path: .watch(key.kind), watches: [key], covers: covers, trusted: trusted))
    }

    /// A watch ended: its recording goes on while it reads or holds another watch, and stops
    /// at once when it had not read for its quiet time.
    mutating func watchEnded(_ key: ScreenWatchKey, at now: Moment) -> RecordingChange? {
        if pending.removeValue(forKey: key) != nil { return nil }
        guard let reader = recordings.first(where: { $0.value.watches.contains(key) })?.key, var recording = recordings[reader] else {
            return nil
        }
        recording.watches.remove(key)
        recordings[reader] = recording
        guard recording.watches.isEmpty, now.monotonic - recording.lastRead.monotonic >= recording.quiet else { return nil }
        // It stopped when its last watch ended.
        recording.lastRead = now
        recordings[reader] = nil
        ended[reader] = now.monotonic
        return .stopped(recording)
    }

    /// Watches that lived `watchGrace` seconds, made recordings; the recordings whose client has
    /// not read for `quiet` seconds and holds no watch, ended.
    mutating func expire(at now: Moment) -> [RecordingChange] {
        var changes: [RecordingChange] = []
        for (key, watch) in pending.sorted(by: { $0.value.recording.started.monotonic < $1.value.recording.started.monotonic })
        where now.monotonic - watch.recording.started.monotonic >= Self.watchGrace {
            pending[key] = nil
            if var recording = recordings[watch.reader] {
                recording.watches.insert(key)
                recordings[watch.reader] = recording
                continue
            }
            // Its reads so far are the recording's frames.
            let reads = recent.removeValue(forKey: watch.reader) ?? []
            ended[watch.reader] = nil
            var recording = watch.recording
            recording.frames = reads.reduce(0) { $0 + $1.repeats }
            recording.lastRead = reads.last?.time ?? recording.started
            recordings[watch.reader] = recording
            changes.append(.started(recording))
        }
        for (client, recording) in recordings where recording.watches.isEmpty && now.monotonic - recording.lastRead.monotonic >= recording.quiet {
            recordings[client] = nil
            ended[client] = now.monotonic
            changes.append(.stopped(recording))
        }
        ended = ended.filter { now.monotonic - $0.value <= Self.remembered }
        recent = recent.filter { _, reads in reads.contains { now.monotonic - $0.time.monotonic <= Self.window } }
        return changes
    }

    /// When the next recording may end, or a watch become one.
    var deadline: Double? {
        (recordings.values.filter(\.watches.isEmpty).map { $0.lastRead.monotonic + $0.quiet }
            + pending.values.map { $0.recording.started.monotonic + Self.watchGrace }).min()
    }

    /// A client disconnected: its recording, if any, stopped.
    mutating func clientEnded(_ client: UInt32, at now: Moment) -> [RecordingChange] {
        var changes: [RecordingChange] = []
        for (reader, recording) in recordings where reader.client == client {
            recordings[reader] = nil
            changes.append(.stopped(recording))
        }
        recent = recent.filter { $0.key.client != client }
        ended = ended.filter { $0.key.client != client }
        pending = pending.filter { $0.key.client != client }
        return changes
    }

    var isRecording: Bool { !recordings.isEmpty }
}
