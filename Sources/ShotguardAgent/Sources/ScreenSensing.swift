// Capture sensing in the agent: who reads the screen, where, and whether it is a screenshot or a recording.
import ShotguardBase
import ShotguardImaging
import ShotguardX11

/// What sensing tells the agent.
enum SensedEvent: Sendable {
    /// A program read the screen (not a recording's frame): a screenshot signal.
    case read(ScreenReadRecord)
    /// A recording started or stopped.
    case recording(RecordingChange)
}

/// Wraps the X11 layer's screen-read source: each read placed on the root, its client's process
/// named (X-Resource and /proc, cached per client until the client ends), and one client's
/// repeated reads told apart as a recording. Without RECORD the agent runs without it.
final class ScreenSensing {
    private let source: ScreenReadSource
    private let display: Display
    private let clock: any AgentClock
    private var recordings = RecordingTracker()
    private var processes: [UInt32: ProcessIdentity] = [:]

    /// Opens the source on `display`'s server, leaving out the agent's own connection; nil (with
    /// the reason) when the server has no RECORD.
    static func open(display: Display, clock: any AgentClock) -> (sensing: ScreenSensing?, why: String?) {
        do throws(X11Error) {
            let source = try ScreenReadSource(displayName: display.name, excluding: [display])
            return (ScreenSensing(source: source, display: display, clock: clock), nil)
        } catch {
            return (nil, error.message)
        }
    }

    private init(source: ScreenReadSource, display: Display, clock: any AgentClock) {
        self.source = source
        self.display = display
        self.clock = clock
    }

    var fileDescriptor: Int32? { source.isLost ? nil : source.fileDescriptor }

    /// The next time a recording may end.
    var deadline: Double? { recordings.deadline }

    var isRecording: Bool { recordings.isRecording }

    /// What arrived: reads placed and named, recordings started.
    func read() -> [SensedEvent] {
        var events: [SensedEvent] = []
        for event in source.read() {
            switch event {
            case .clientEnded(let client):
                processes[client] = nil
            case .read(let read):
                let record = self.record(read)
                let (change, isFrame) = recordings.add(record)
                if let change { events.append(.recording(change)) }
                if !isFrame { events.append(.read(record)) }
            }
        }
        return events
    }

    /// Recordings whose last read is a second old, ended.
    func expire() -> [SensedEvent] { recordings.expire(at: clock.now()).map { .recording($0) } }

    private func record(_ read: ScreenRead) -> ScreenReadRecord {
        let process = processes[read.client] ?? read.processID.flatMap(ClientProcess.identity(of:))
        if let process { processes[read.client] = process }
        let now = clock.now()
        let age = max(0, now.monotonic - read.receivedAt)
        return ScreenReadRecord(request: read.request.rawValue, program: process?.program ?? "client 0x" + String(read.client, radix: 16),
                                pid: process?.pid, parentPID: process?.parentPID, processGroup: process?.processGroup,
                                area: display.rootRectangle(of: read), time: Moment(monotonic: now.monotonic - age, wall: now.wall - age),
                                client: read.client, serverTime: read.serverTime)
    }
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
