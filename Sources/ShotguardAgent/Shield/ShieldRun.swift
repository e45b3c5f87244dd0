// `shotguard shield -- COMMAND`: covers up, the command run, covers down once it has read the screen.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardX11

/// A deterministic shield for a key binding (`bindsym Print exec shotguard shield -- flameshot
/// gui`): the covers are mapped before the command exists, so no read of its can come first,
/// and they come down as soon as the server has executed its first read of the screen (seen
/// with RECORD), so the command reads covers and the user sees the windows again at once.
///
/// The command runs in a session of its own (its own process group); SIGINT, SIGTERM and SIGHUP
/// sent to this process are passed on to that group. A read counts when X-Resource names a
/// process of the command: the command itself, a process of its group, or one whose parents
/// lead to it (a helper that made a group of its own). Without RECORD, or with no such read,
/// the covers stay up until the command exits or `limit` seconds have passed.
public final class ShieldRun {
    private let display: Display
    private let covers: [ShieldCover]
    private let limit: Double
    private let waitForKeys: Bool
    private let warn: (String) -> Void
    private let note: (String) -> Void
    /// What the run did, typed, for tests (`SHOTGUARD_EVENTS`, as the agent's; docs/agent.md).
    private let events = EventStream()

    /// How long `--key-wait` waits for the keys to be released.
    public static let keyWait = 2.0
    /// How far up a reading process's parents are followed to find the command.
    static let maximumAncestors = 64

    /// `warn` gets the lines the user must see (no RECORD, the limit reached); `note` what a
    /// verbose run tells as it happens (covers up, the read that lowered them).
    public init(display: Display, covers: [ShieldCover], limit: Double, waitForKeys: Bool,
                warn: @escaping (String) -> Void, note: @escaping (String) -> Void) {
        self.display = display
        self.covers = covers
        self.limit = limit
        self.waitForKeys = waitForKeys
        self.warn = warn
        self.note = note
    }

    /// Runs `command` (a program searched in PATH, then its arguments) under the covers and
    /// returns how it went once the command has exited. Throws before the command starts: no
    /// XFixes 2.0 for covers, no signal descriptor, a command that cannot be started.
    public func run(_ command: [String]) throws(ShieldRunError) -> ShieldRunOutcome {
        guard let program = command.first else { throw ShieldRunError("no command to run (expected shield -- COMMAND [ARGS])") }
        let signals: SignalReader
        do throws(SystemError) {
            signals = try SignalReader()
        } catch {
            throw ShieldRunError(error.description)
        }
        let name = program.excerpt().escapingControlCharacters()
        var source: ScreenReadSource?
        if !covers.isEmpty {
            do throws(X11Error) {
                source = try ScreenReadSource(displayName: display.name, excluding: [display])
            } catch {
                warn("\(error.message); the covers stay up until \(name) exits")
            }
        }
        let overlays: ShieldOverlays
        do throws(X11Error) {
            overlays = try ShieldOverlays(display: display)
        } catch {
            throw ShieldRunError(error.message)
        }
        overlays.update(covers)
        overlays.lookForCompositor()
        let mappedAt = overlays.raiseAndStamp()
        let upAt = monotonicNow()
        note(covers.isEmpty ? "nothing to cover now" : "\(covers.count) cover\(covers.count == 1 ? "" : "s") up")
        events.say("covers-up", [("covers", .number(covers.count))])
        if waitForKeys {
            let released = display.waitForKeysReleased(seconds: Self.keyWait)
            if !released { warn("keys were still held \(Int(Self.keyWait)) s later; running \(name) anyway") }
            events.say("key-wait", [("released", .bool(released))])
        }
        let child: ChildProcess
        do throws(SystemError) {
            child = try ChildProcess(program, Array(command.dropFirst()), output: .inherit, newSession: true, inheritInput: true)
        } catch {
            throw ShieldRunError("cannot start \(name): \(Self.errorText(error.code))")
        }
        var watch = CoverWatch(child: child.pid, mappedAt: mappedAt, up: !covers.isEmpty)
        var lowered: ShieldRunOutcome.Lowered = covers.isEmpty ? .nothingToCover : .commandExited
        while !child.hasExited {
            if watch.up, let source, source.isLost {
                lowered = .serverLost
                watch.up = false
                events.say("covers-lowered", [("why", .string("server-lost"))])
            }
            let deadline = watch.up ? upAt + limit : nil
            var descriptors = [pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            if watch.up, let source { descriptors += source.fileDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } }
            let timeout = deadline.map { Int32(max(0, ($0 - monotonicNow()) * 1000).rounded(.up)) } ?? -1
            guard poll(&descriptors, nfds_t(descriptors.count), timeout) >= 0 || errno == EINTR else {
                throw ShieldRunError("poll: \(errnoText())")
            }
            // Reads first: a command that read and exited in the same turn lowered the covers by its read.
            if watch.up, let source, let read = watch.firstRead(in: source.read()) {
                overlays.sync()
                overlays.lower()
                watch.up = false
                let geometry = display.rootRectangle(of: read.read)?.description
                lowered = .afterRead(program: read.program, pid: read.pid, geometry: geometry)
                note("covers lowered \(Self.milliseconds(since: upAt)) after \(read.program) (pid \(read.pid)) read "
                    + (geometry ?? "a drawable not on the screen"))
                events.say("covers-lowered", [("why", .string("read")), ("program", .string(read.program)),
                                              ("pid", .number(Int(read.pid))), ("geometry", geometry.map(JSON.string) ?? .null)])
            }
            for signal in signals.read() where signal != SIGCHLD { kill(-child.pid, signal) }
            if watch.up, let deadline, monotonicNow() >= deadline {
                if !display.isLost { overlays.lower() }
                watch.up = false
                lowered = .limit
                warn(source == nil ? "covers lowered at the limit of \(Self.seconds(limit)) s; \(name) runs on"
                                   : "\(name) did not read the screen within \(Self.seconds(limit)) s: covers lowered")
                events.say("covers-lowered", [("why", .string("limit"))])
            }
        }
        if watch.up, !display.isLost {
            overlays.lower()
            note("covers lowered \(Self.milliseconds(since: upAt)) after they went up: \(name) exited")
            events.say("covers-lowered", [("why", .string("exited"))])
        }
        return ShieldRunOutcome(lowered: lowered, exitStatus: child.waitForExit())
    }

    /// `60`, `0.5`: a whole number of seconds without decimals, another with what it has (to ms).
    static func seconds(_ value: Double) -> String {
        var text = String(decimal: value, digits: 3)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func milliseconds(since start: Double) -> String {
        "\(Int(((monotonicNow() - start) * 1000).rounded())) ms"
    }

    private static func errorText(_ code: Int32) -> String {
        code == ENOENT ? "no such program in PATH" : String(cString: strerror(code))
    }
}

/// How a shield run went.
public struct ShieldRunOutcome: Sendable, Equatable {
    /// Why the covers came down.
    public enum Lowered: Sendable, Equatable {
        /// The command's first read of the screen was executed.
        case afterRead(program: String, pid: Int32, geometry: String?)
        /// The command exited without a read that counted (or without RECORD to see one).
        case commandExited
        /// The limit passed first; the command ran on.
        case limit
        /// The X server went away (the covers went with it).
        case serverLost
        /// No rule hit anything: nothing was covered.
        case nothingToCover
    }

    public var lowered: Lowered
    /// The command's exit status (128 + N when a signal N ended it).
    public var exitStatus: Int32
}

/// Why a shield run could not start its command.
public struct ShieldRunError: Error, CustomStringConvertible {
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The covers' part of a run: whether they are up, and which read is the command's.
struct CoverWatch {
    /// The command's pid: it leads its own session, so its group's id is the same.
    let child: Int32
    /// The server time at which the covers were mapped; nil when it could not be read.
    let mappedAt: UInt?
    var up: Bool
    /// Clients already looked up: whether each is the command's, and its program and pid.
    private var known: [UInt32: (program: String, pid: Int32)?] = [:]

    init(child: Int32, mappedAt: UInt?, up: Bool) {
        self.child = child
        self.mappedAt = mappedAt
        self.up = up
    }

    /// The first read in `events` by a process of the command, stamped after the covers were
    /// mapped. Clients that end are forgotten: the server gives their base to the next one.
    mutating func firstRead(in events: [ScreenReadEvent]) -> (read: ScreenRead, program: String, pid: Int32)? {
        for event in events {
            switch event {
            case .clientEnded(let client):
                known[client] = nil
            case .read(let read):
                guard isAfterCovers(read.serverTime) else { continue }
                let process: (program: String, pid: Int32)?
                if let cached = known[read.client] {
                    process = cached
                } else {
                    process = read.processID.flatMap(commandProcess)
                    known[read.client] = .some(process)
                }
                if let process { return (read, process.program, process.pid) }
            case .watchStarted, .watchEnded:
                continue
            }
        }
        return nil
    }

    /// Whether a server time is the covers' mapping time or later (the clock wraps at 2^32 ms).
    func isAfterCovers(_ time: UInt) -> Bool {
        guard let mappedAt else { return true }
        return UInt32(truncatingIfNeeded: time) &- UInt32(truncatingIfNeeded: mappedAt) < 1 << 31
    }

    /// The program and pid of `pid` when it is the command, in the command's group, or below
    /// the command among its parents; nil otherwise.
    func commandProcess(_ pid: Int32) -> (program: String, pid: Int32)? {
        guard let details = ProcessDetails.of(pid: pid) else {
            // Gone already: only the command itself can still be told by its pid.
            return pid == child ? ("pid \(pid)", pid) : nil
        }
        if pid == child || details.processGroup == child { return (details.program, pid) }
        var parent = details.parentPID
        for _ in 0..<ShieldRun.maximumAncestors where parent > 1 {
            if parent == child { return (details.program, pid) }
            guard let next = ProcessDetails.of(pid: parent) else { return nil }
            parent = next.parentPID
        }
        return nil
    }
}
