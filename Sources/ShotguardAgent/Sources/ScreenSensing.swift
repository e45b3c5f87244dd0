// Capture sensing in the agent: who reads the screen, where, and whether it is a screenshot or a recording.
import ShotguardBase
import ShotguardImaging
import ShotguardX11

/// What the sentinel tells the agent, in the agent's terms.
enum SensedEvent: Sendable {
    /// A program read the screen (not a recording's frame): a screenshot signal; its process
    /// as /proc showed it at the moment of the read.
    case read(ScreenReadRecord, process: ProcessSnapshot?)
    /// A recording's frame (its covers are up; no screenshot signal).
    case frame(ScreenReadRecord)
    /// A recording started or stopped.
    case recording(RecordingChange)
    /// A client that read the screen disconnected.
    case clientEnded(UInt32)
    /// The shield's key: the sentinel mapped the covers.
    case key(readAt: Double, mappedAt: Double, serverTime: UInt, coveredTime: UInt?, covers: Int)
    /// A hold (a reader's first read, a watch, a helper) put the covers over what it reads.
    case coversRaised(hold: CoverHold, area: Rect?, covers: Int)
    /// How many covers are up changed.
    case coversShown(Int)
    /// A program reading the screen past the X server started or ended.
    case helper(CaptureHelperChange)
    /// The sentinel stopped (the server went away).
    case stopped(String)
}

/// Turns the sentinel's events into the agent's: each read placed on the root and named by its
/// process (as the sentinel found it when it read), and one client's repeated reads told apart
/// as a recording.
final class ScreenSensing {
    private let sentinel: Sentinel
    private let clock: any AgentClock
    private var recordings = RecordingTracker()
    private var processes: [UInt32: ProcessIdentity] = [:]
    /// How many covers each client's reads or watches put up.
    private var covered: [UInt32: Int] = [:]

    /// Capture helpers (NvFBC, DRM/KMS): nil when inotify cannot be had.
    private let helpers: CaptureHelperWatch?
    /// The recordings of capture helpers, by pid.
    private var helperRecordings: [Int32: RecordingInfo] = [:]

    /// The root window: a read of anything else reads a window's own pixels (or a pixmap's).
    private let root: UInt?

    init(sentinel: Sentinel, clock: any AgentClock, root: UInt? = nil, helpers: CaptureHelperWatch? = CaptureHelperWatch()) {
        self.sentinel = sentinel
        self.clock = clock
        self.root = root
        self.helpers = helpers
    }

    /// Whether the server's reads are seen (RECORD), and why not.
    var isSensing: Bool { sentinel.sensingFailure == nil }

    var fileDescriptor: Int32 { sentinel.fileDescriptor }

    /// The capture helpers' descriptors (their watch, each running one's exit).
    var helperDescriptors: [Int32] { helpers?.descriptors ?? [] }

    /// The helpers running when the agent starts.
    func helpersNow() -> [SensedEvent] { helperEvents(helpers?.scanNow() ?? []) }

    /// What a helper's descriptor says.
    func readHelpers(_ fd: Int32) -> [SensedEvent] { helperEvents(helpers?.handle(fd, at: clock.now().monotonic) ?? []) }

    /// A helper's start (the agent judges it and says its recording, `helperRecording`), or
    /// its end and its recording's.
    private func helperEvents(_ changes: [CaptureHelperChange]) -> [SensedEvent] {
        changes.flatMap { change -> [SensedEvent] in
            switch change {
            case .started(let pid, let helper, let process):
                let now = clock.now()
                helperRecordings[pid] = RecordingInfo(client: 0, program: process.program, pid: pid, area: nil, frames: 0, started: now,
                                                      lastRead: now, path: .helper(helper.means))
                return [.helper(change)]
            case .ended(let pid):
                guard var recording = helperRecordings.removeValue(forKey: pid) else { return [.helper(change)] }
                recording.lastRead = clock.now()
                return [.helper(change), .recording(.stopped(recording))]
            }
        }
    }

    /// The recording of helper `pid`, while it runs.
    func helperRecording(_ pid: Int32) -> RecordingInfo? { helperRecordings[pid] }

    /// Marks helper `pid`'s recording trusted or not, with how many covers went up for it.
    func updateHelper(_ pid: Int32, trusted: Bool, covers: Int) {
        helperRecordings[pid]?.trusted = trusted
        helperRecordings[pid]?.covers = covers
    }

    /// The next time a recording may end, or helpers are looked for again.
    var deadline: Double? { [recordings.deadline, helpers?.deadline].compactMap { $0 }.min() }

    var isRecording: Bool { recordings.isRecording }

    /// What the sentinel saw since the last call.
    func read() -> [SensedEvent] {
        var events: [SensedEvent] = []
        for event in sentinel.take() {
            switch event {
            case .read(let read, let area, let process, let trusted):
                let record = self.record(read, area: area, process: process)
                let (change, isFrame) = recordings.add(record, covers: covered[read.client] ?? 0, trusted: trusted)
                if let change { events.append(.recording(change)) }
                events.append(isFrame ? .frame(record) : .read(record, process: process))
            case .watchStarted(let watch, let area, let process, let trusted):
                let identity = self.identity(client: watch.client, processID: watch.processID, snapshot: process)
                recordings.watchStarted(watch.key, program: identity?.program ?? Self.unnamed(watch.client), pid: identity?.pid, area: area,
                                        at: clock.now(), covers: covered[watch.client] ?? 0, trusted: trusted)
            case .watchEnded(let key):
                if let change = recordings.watchEnded(key, at: clock.now()) { events.append(.recording(change)) }
            case .clientEnded(let client):
                processes[client] = nil
                covered[client] = nil
                events += recordings.clientEnded(client, at: clock.now()).map { .recording($0) }
                events.append(.clientEnded(client))
            case .key(let readAt, let mappedAt, let serverTime, let coveredTime, let covers):
                events.append(.key(readAt: readAt, mappedAt: mappedAt, serverTime: serverTime, coveredTime: coveredTime, covers: covers))
            case .coversRaised(let hold, let area, let covers, _):
                if let client = hold.client { covered[client] = max(covered[client] ?? 0, covers) }
                events.append(.coversRaised(hold: hold, area: area, covers: covers))
            case .coversShown(let count):
                events.append(.coversShown(count))
            case .stopped(let reason):
                events.append(.stopped(reason))
            }
        }
        return events
    }

    /// The recordings running now, oldest first.
    var running: [RecordingInfo] {
        (Array(recordings.recordings.values) + helperRecordings.values).sorted { $0.started.monotonic < $1.started.monotonic }
    }

    /// Recordings whose reader stopped reading, ended; helpers that started since the last look.
    func expire() -> [SensedEvent] {
        recordings.expire(at: clock.now()).map { .recording($0) } + helperEvents(helpers?.expire(at: clock.now().monotonic) ?? [])
    }

    private func record(_ read: ScreenRead, area: Rect?, process snapshot: ProcessSnapshot?) -> ScreenReadRecord {
        let process = identity(client: read.client, processID: read.processID, snapshot: snapshot)
        let now = clock.now()
        let age = max(0, now.monotonic - read.receivedAt)
        return ScreenReadRecord(request: read.request.rawValue, program: process?.program ?? Self.unnamed(read.client),
                                pid: process?.pid, readerHungUp: process == nil && read.readerHungUp, parentPID: process?.parentPID,
                                processGroup: process?.processGroup, area: area, time: Moment(monotonic: now.monotonic - age, wall: now.wall - age),
                                client: read.client, serverTime: read.serverTime, repeats: read.repeats,
                                window: read.pixmapWindow ?? (read.drawable == root ? nil : read.drawable))
    }

    /// The process behind `client`: as it was first seen, else as /proc showed it at its read.
    private func identity(client: UInt32, processID: Int32?, snapshot: ProcessSnapshot?) -> ProcessIdentity? {
        let process = processes[client] ?? snapshot.map {
            ProcessIdentity(pid: $0.details.pid, program: $0.details.program, parentPID: $0.details.parentPID,
                            processGroup: $0.details.processGroup)
        } ?? processID.flatMap(ClientProcess.identity(of:))
        if let process { processes[client] = process }
        return process
    }

    /// A client whose process could not be told (over TCP, or gone before it was asked).
    static func unnamed(_ client: UInt32) -> String { "client 0x" + String(client, radix: 16) }
}

/// Which process is behind a window or a pid, as the evidence needs it.
enum ClientProcess {
    /// The process that owns `window` (a clipboard owner): X-Resource's pid, else the window's
    /// `_NET_WM_PID`; nil for a remote client or a process /proc does not show.
    static func of(window: UInt, on display: Display) -> ProcessIdentity? {
        // A client that forked after it connected (xclip) shows the pid that connected, which
        // may be gone: the pid still tells one owner from another.
        if let pid = display.processID(ofWindow: window) { return identity(of: pid) ?? ProcessIdentity(pid: pid, program: "") }
        guard let pid = display.cardinals("_NET_WM_PID", of: window)?.first, pid > 0, let value = Int32(exactly: pid) else {
            return nil
        }
        return identity(of: value)
    }

    /// What /proc says of `pid`.
    static func identity(of pid: Int32) -> ProcessIdentity? {
        ProcessDetails.of(pid: pid).map {
            ProcessIdentity(pid: $0.pid, program: $0.program, parentPID: $0.parentPID, processGroup: $0.processGroup)
        }
    }
}
