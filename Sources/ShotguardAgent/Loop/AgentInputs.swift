// What the agent listens to: the X connection, the screenshot folders, signals — and its lock on the display.
import Glibc
import ShotguardBase
import ShotguardX11

/// The agent's sources and the descriptors behind them, opened at start and closed at exit.
final class AgentInputs {
    let display: Display
    let desktop: DesktopEvents
    let files: FileSource?
    let signals: SignalReader
    /// The sentinel's thread: screen reads (RECORD), the shield's key and covers.
    let sentinel: Sentinel
    /// Capture sensing (RECORD): nil on a server without it.
    let sensing: ScreenSensing?
    /// Every read, frame and key of the sentinel, the screen reads of servers without RECORD
    /// aside: what the loop polls.
    let sentinelEvents: ScreenSensing
    /// Follows protected pixels from the programs that read them to the files they write.
    let pixels: PixelFollower
    /// The hold helper, when it runs: other programs' opens of a screenshot wait for guard.
    let openers: OpenersHold
    let clock: any AgentClock
    /// Why the loop ends after this turn, once something asked it to (`stop(because:)`).
    private(set) var stopReason: StopReason?
    var stopping: Bool { stopReason != nil }

    /// Ends the loop after this turn; the first reason given is the one kept.
    func stop(because reason: StopReason) {
        if stopReason == nil { stopReason = reason }
    }
    /// The X connection hung up (POLLHUP/POLLERR) without Xlib noticing yet.
    var connectionClosed = false
    /// The process of the last clipboard owner that handed its offer to a clipboard manager.
    var handOffs = ClipboardHandOffs()
    private let lock: InstanceLock

    init(options: AgentOptions, own: OwnFolders, log: Log, clock: any AgentClock) throws(AgentError) {
        self.clock = clock
        do throws(X11Error) {
            display = try Display()
            desktop = try DesktopEvents(display: display, clipboard: options.watchClipboard, tools: options.watchTools,
                                        extraToolClasses: options.toolClasses)
            // What the rules protect is followed at every moment, shield or not.
            desktop.followWindows()
        } catch {
            throw AgentError(message: error.message, isUsage: false)
        }
        lock = try InstanceLock(display: display.name)
        do throws(X11Error) {
            sentinel = try Sentinel(displayName: display.name, excluding: [display], keys: options.shield ? ["Print"] + options.shieldKeys : [],
                                    makesCovers: options.shield || options.shieldRecordings)
        } catch {
            throw AgentError(message: error.message, isUsage: false)
        }
        sentinelEvents = ScreenSensing(sentinel: sentinel, clock: clock, root: UInt(display.root))
        sensing = sentinelEvents.isSensing ? sentinelEvents : nil
        if let why = sentinel.sensingFailure {
            log.warning("\(why); screenshots are noticed by their files, the clipboard and tool windows only, "
                + "and a file named as a screenshot counts as one")
        }
        openers = OpenersHold(log: log)
        pixels = PixelFollower(own: own, openers: openers, display: display.name, log: log)
        do throws(SystemError) {
            signals = try SignalReader()
            files = options.watchFiles ? try FileSource(folders: DefaultFolders.screenshotFolders() + options.folders, log: log) : nil
        } catch {
            throw AgentError(message: error.description, isUsage: false)
        }
        // A closed standard output (`watch --json | head -1`) is an error to handle, not a death.
        Glibc.signal(SIGPIPE, SIG_IGN)
    }

    var isLost: Bool { display.isLost || connectionClosed }

    /// Blocks until a child may have exited (for draining --exec at the end); a second SIGINT
    /// or SIGTERM ends the wait at once.
    func waitForChild(sink: ReportSink) {
        var fds = [pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, 200)
        let arrived = signals.read()
        if arrived.contains(where: { $0 == SIGINT || $0 == SIGTERM }) {
            sink.abandon()
        } else if arrived.contains(SIGCHLD) {
            sink.childExited()
        }
    }
}

/// Why the agent's loop ends.
enum StopReason: Equatable, Sendable {
    /// SIGINT or SIGTERM.
    case signal(Int32)
    /// `--once`, after its report.
    case once
    /// The report sink can take no more (standard output closed, `--exec` failing for good).
    case outputClosed
}
