// The sentinel: a thread with X connections of its own that sees every screen read and hears the shield's key the moment they happen, and puts the covers up itself.
import CShotguardSys
import CX11
import Glibc
import ShotguardBase
import ShotguardImaging
import Synchronization

/// What the sentinel saw, in the order it saw it.
public enum SentinelEvent: Sendable {
    /// A client read the screen: what it read in root coordinates (nil: pixels of the screen it
    /// cannot place, such as a pixmap the reader filled before its copies were seen), and its
    /// process as /proc showed it at that moment (the program may be gone by the time the agent
    /// looks), nil when X-Resource gave no pid; `trusted` when a rule trusts its program (its
    /// reads raise no covers). Reads of no pixel of the screen (another client's pixmap, a
    /// tray's icons) are not said.
    case read(ScreenRead, rootArea: Rect?, process: ProcessSnapshot?, trusted: Bool)
    /// A client started watching the screen (DAMAGE, a redirection or a named pixmap of another
    /// client's window): what it watches in root coordinates, its process, whether it is trusted.
    case watchStarted(ScreenWatch, rootArea: Rect?, process: ProcessSnapshot?, trusted: Bool)
    /// A watch said by `watchStarted` ended (its client's end says so of all of its watches).
    case watchEnded(ScreenWatchKey)
    /// A client that read or watched the screen disconnected.
    case clientEnded(UInt32)
    /// A shield key was pressed and the covers were mapped at once: when the key was read and
    /// the maps flushed (monotonic), the key's server time, and the server time the covers were
    /// up by (nil when it could not be told), and how many covers went up (none while paused).
    case key(readAt: Double, mappedAt: Double, serverTime: UInt, coveredTime: UInt?, covers: Int)
    /// A hold (a reader's first read, a watch, a helper) put covers up over `area` (nil: the
    /// whole screen): how many of the covers are under it.
    case coversRaised(hold: CoverHold, area: Rect?, covers: Int, at: Double)
    /// Which covers are up changed (a key's or a reader's came down): how many are up now.
    case coversShown(Int)
    /// The sentinel's connection or thread ended (the server went away).
    case stopped(reason: String)
}

/// What the agent tells the sentinel.
enum SentinelCommand: Sendable {
    case covers([ShieldCover])
    /// The protected windows, covered inside while something captures their own pixels.
    case innerCovers([InnerCoverTarget])
    /// Reads of the screen put the covers over what they read, until `release`.
    case coverReads(Bool)
    /// The shield's keys put every cover up (not while protection is paused).
    case coverKeys(Bool)
    /// The covers a key put up come down (the screenshot settled).
    case lowerKey
    /// A hold of the agent's own (a helper process reading past the X server) puts covers up
    /// over `area` (nil: the whole screen) while reads do, until released.
    case hold(CoverHold, area: Rect?)
    /// The covers a hold put up come down (a reader's, a helper's).
    case release(CoverHold)
    /// The programs whose reads and watches raise no covers.
    case trust([ProgramName])
    case stop
}

/// Starts a thread that owns the RECORD source (when the server has RECORD), the shield's
/// covers and the keys that raise them, each on connections of its own: a read or a key is
/// answered without waiting for the agent's loop, whatever that loop is doing (placing a
/// screenshot, rewriting a file). A client's pid is asked the moment it connects and its
/// process read from /proc the moment it reads, so a program that reads and exits at once is
/// still named. The agent reads the events when `fileDescriptor` is readable (`take()`) and
/// sends commands; the covers' state (which are up, for what) is the sentinel's alone.
public final class Sentinel: Sendable {
    private let channel: SentinelChannel
    private let thread: pthread_t
    /// Why the server's reads are not seen (no RECORD, no libXtst), or nil when they are.
    public let sensingFailure: String?
    public let keys: [String]
    /// Whether the sentinel has covers to put up.
    public let makesCovers: Bool

    /// Opens the sentinel's connections to `displayName` and starts its thread. `excluding`:
    /// the agent's own connections, whose reads are its own. `keys`: the shield's keysyms
    /// (none: no key raises the covers). Throws when the covers cannot be made (no XFixes 2.0)
    /// or a key is no keysym; a server without RECORD only leaves `sensingFailure`.
    public init(displayName: String, excluding: [Display], keys: [String], makesCovers: Bool) throws(X11Error) {
        let channel = try SentinelChannel()
        let worker = try SentinelWorker(displayName: displayName, excluding: excluding, keys: keys, makesCovers: makesCovers,
                                        channel: channel)
        sensingFailure = worker.sensingFailure
        self.keys = keys
        self.makesCovers = makesCovers
        self.channel = channel
        guard let thread = worker.start() else {
            throw X11Error(.unsupported, "cannot start the sentinel's thread: \(errnoText())")
        }
        self.thread = thread
    }

    deinit {
        channel.send(.stop)
        // Bounded: a worker stuck in Xlib on a connection the server no longer answers must not
        // keep the process from ending (it ends with the process).
        if sg_thread_join_within(thread, 2) != 0 { pthread_detach(thread) }
    }

    /// Readable when events wait.
    public var fileDescriptor: Int32 { channel.events }

    /// Everything the sentinel saw since the last call, in order.
    public func take() -> [SentinelEvent] { channel.take() }

    /// The covers to keep ready: moved, resized and recoloured now, mapped when raised.
    public func setCovers(_ covers: [ShieldCover]) { channel.send(.covers(covers)) }

    /// The protected windows, whole: covered from inside while a program captures one of them
    /// (or its frame) from its own pixels (`ShieldInnerCovers`).
    public func setInnerCovers(_ windows: [InnerCoverTarget]) { channel.send(.innerCovers(windows)) }

    /// Whether a read of the screen puts the covers up over what it read.
    public func setCoversReads(_ on: Bool) { channel.send(.coverReads(on)) }

    /// Whether the shield's keys put the covers up.
    public func setCoversKeys(_ on: Bool) { channel.send(.coverKeys(on)) }

    /// The covers a shield key put up come down (those a reader holds up stay).
    public func lowerKeyCovers() { channel.send(.lowerKey) }

    /// The covers `client`'s reads put up come down.
    public func release(client: UInt32) { channel.send(.release(.reader(client))) }

    /// Covers go up over `area` (nil: the whole screen) for `hold` (a helper process) while
    /// reads put covers up, until `release(hold)`.
    public func hold(_ hold: CoverHold, area: Rect?) { channel.send(.hold(hold, area: area)) }

    public func release(_ hold: CoverHold) { channel.send(.release(hold)) }

    /// The programs trusted to see everything: their reads and watches raise no covers.
    public func trust(_ programs: [ProgramName]) { channel.send(.trust(programs)) }
}

/// What the agent's thread and the sentinel's share: events one way, commands the other, each
/// with an eventfd that wakes the side that reads them.
final class SentinelChannel: Sendable {
    private let shared = Mutex(SentinelShared())
    /// Readable when events wait for the agent.
    let events: Int32
    /// Readable when commands wait for the sentinel.
    let wake: Int32

    init() throws(X11Error) {
        events = sg_eventfd()
        wake = sg_eventfd()
        guard events >= 0, wake >= 0 else {
            throw X11Error(.unsupported, "cannot make the sentinel's descriptors: \(errnoText())")
        }
    }

    deinit {
        close(events)
        close(wake)
    }

    func take() -> [SentinelEvent] {
        var count: UInt64 = 0
        _ = read(events, &count, 8)
        return shared.withLock { state in
            defer { state.events = [] }
            return state.events
        }
    }

    func send(_ command: SentinelCommand) {
        shared.withLock { $0.commands.append(command) }
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    func post(_ new: [SentinelEvent]) {
        guard !new.isEmpty else { return }
        shared.withLock { $0.events += new }
        var one: UInt64 = 1
        _ = write(events, &one, 8)
    }

    func takeCommands() -> [SentinelCommand] {
        var count: UInt64 = 0
        _ = read(wake, &count, 8)
        return shared.withLock { state in
            defer { state.commands = [] }
            return state.commands
        }
    }
}

/// What the two threads share, under the channel's lock.
struct SentinelShared: Sendable {
    var events: [SentinelEvent] = []
    var commands: [SentinelCommand] = []
}

