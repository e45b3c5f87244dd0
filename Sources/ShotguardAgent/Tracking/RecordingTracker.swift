// Recordings and screen shares: one client reading the screen again and again, told apart from a screenshot.
import ShotguardImaging

/// What the recording tracker saw happen.
enum RecordingChange: Equatable, Sendable {
    /// A client's reads became a recording: the first read, and how many so far.
    case started(RecordingInfo)
    /// It stopped reading (no read for `quiet` seconds): how many frames it read in all.
    case stopped(RecordingInfo)
}

/// One recording, as `watch --json` and the bus report it.
struct RecordingInfo: Equatable, Sendable {
    var client: UInt32
    var program: String
    var pid: Int32?
    /// The rectangle it reads (the last read's), nil where it cannot be traced.
    var area: Rect?
    var frames: Int
    var started: Moment
    var lastRead: Moment
}

/// Sorts screen reads: a client that reads `minimumReads` times within `window` seconds, over at
/// least `minimumSpan`, is recording (ffmpeg, OBS, a browser sharing the screen): noticed within
/// a second of its first frame at 3 frames a second or more; a screenshot tool's one read, or a
/// few reads of each monitor at once, is not. A recording ends `quiet` seconds after its last
/// read, so a recorder that stalls for a moment under load keeps its covers; one that reads
/// again within `remembered` seconds of its end is recording again at its first read, not its
/// third. Pure: moments in, changes out.
struct RecordingTracker {
    static let window = 1.0
    static let minimumReads = 3
    static let minimumSpan = 0.1
    static let quiet = 3.0
    static let remembered = 30.0
    /// Clients followed at once (a flood of clients each reading once cannot grow it).
    static let capacity = 64

    /// Reads and recordings by client. An X client's resource base is used again by the next
    /// client the moment the last one closes (and RECORD may tell of the close late): the
    /// process is part of the key, so two scrot runs are never one client reading twice.
    struct Reader: Hashable, Sendable {
        let client: UInt32
        let pid: Int32?
    }

    private var recent: [Reader: [ScreenReadRecord]] = [:]
    private(set) var recordings: [Reader: RecordingInfo] = [:]
    /// Readers whose recording ended lately, with when it ended.
    private var ended: [Reader: Double] = [:]

    /// Takes one read. Returns a change when it made its client's reads a recording; `isFrame`
    /// says whether the read belongs to a recording (then it is no screenshot signal).
    mutating func add(_ read: ScreenReadRecord) -> (change: RecordingChange?, isFrame: Bool) {
        let now = read.time
        let reader = Reader(client: read.client, pid: read.pid)
        if var recording = recordings[reader] {
            recording.frames += 1
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
            let recording = RecordingInfo(client: read.client, program: read.program, pid: read.pid, area: read.area,
                                          frames: reads.count, started: reads[0].time, lastRead: now)
            recordings[reader] = recording
            return (.started(recording), true)
        }
        recent[reader] = reads
        if recent.count > Self.capacity, let oldest = recent.min(by: { ($0.value.last?.time.monotonic ?? 0) < ($1.value.last?.time.monotonic ?? 0) }) {
            recent[oldest.key] = nil
        }
        return (nil, false)
    }

    /// The recordings whose client has not read for `quiet` seconds, ended.
    mutating func expire(at now: Moment) -> [RecordingChange] {
        var changes: [RecordingChange] = []
        for (client, recording) in recordings where now.monotonic - recording.lastRead.monotonic >= Self.quiet {
            recordings[client] = nil
            ended[client] = now.monotonic
            changes.append(.stopped(recording))
        }
        ended = ended.filter { now.monotonic - $0.value <= Self.remembered }
        recent = recent.filter { _, reads in reads.contains { now.monotonic - $0.time.monotonic <= Self.window } }
        return changes
    }

    /// When the next recording may end.
    var deadline: Double? { recordings.values.map { $0.lastRead.monotonic + Self.quiet }.min() }

    var isRecording: Bool { !recordings.isEmpty }
}
