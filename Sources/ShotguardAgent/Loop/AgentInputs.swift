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
    /// Capture sensing (RECORD): nil on a server without it.
    let sensing: ScreenSensing?
    /// Follows the programs that read the screen to the files they write.
    let writers: WriterTracker
    let clock: any AgentClock
    /// Set by SIGINT/SIGTERM, a reporter that can take no more, or `--once` after its report.
    var stopping = false
    /// The X connection hung up (POLLHUP/POLLERR) without Xlib noticing yet.
    var connectionClosed = false
    /// The process of the last clipboard owner that handed its offer to a clipboard manager.
    var handOffs = ClipboardHandOffs()
    private let lock: InstanceLock

    init(options: AgentOptions, log: Log, clock: any AgentClock) throws(AgentError) {
        self.clock = clock
        do throws(X11Error) {
            display = try Display()
            desktop = try DesktopEvents(display: display, clipboard: options.watchClipboard, tools: options.watchTools,
                                        extraToolClasses: options.toolClasses)
            if options.shield { _ = try desktop.enableShield(keys: ["Print"] + options.shieldKeys) }
            // What the rules protect is followed at every moment, shield or not.
            desktop.followWindows()
        } catch {
            throw AgentError(message: error.message, isUsage: false)
        }
        lock = try InstanceLock(display: display.name)
        let (sensing, why) = ScreenSensing.open(display: display, clock: clock)
        self.sensing = sensing
        if let why {
            log.warning("\(why); screenshots are noticed by their files, the clipboard and tool windows only, "
                + "and a file named as a screenshot counts as one")
        }
        writers = WriterTracker(log: log)
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
