// The background agent: one thread, one poll() over the X connection, inotify and signals.
import Glibc
import ShotguardBase
import ShotguardAccessibility
import ShotguardImaging
import ShotguardRegions
import ShotguardX11
import ShotguardScreen

/// Why the agent could not start; `isUsage` errors (a bad regions file) exit 2, others 1.
public struct AgentError: Error, CustomStringConvertible {
    public let message: String
    public let isUsage: Bool
    public var description: String { message }
}

/// `shotguard watch`. Sources feed capture events; each candidate image is examined (placed,
/// guarded) as soon as it arrives, and a settled event becomes a report.
public final class Agent {
    let options: AgentOptions
    var log: Log
    var regions: RegionsFile?
    /// Keeps the fields of `field` rules current; nil while no rule names a field.
    var fieldWatcher: FieldWatcher?
    let display: Display
    let grabber: ScreenGrabber
    let desktop: DesktopEvents
    /// `--shield`: the key listener and the covers; nil without the option.
    let shield: Shield?
    /// While the covers are up: when they come down (the screenshot settled and a margin
    /// passed, or the limit after the key), monotonic seconds.
    var shieldDown: Double?
    /// The fields the shield's covers were last resolved with (field rules change without any
    /// window changing: a password entry shown in a dialog that stays).
    var shieldFields: AccessibleFields = .notQueried
    var lastShieldFieldsCheck = 0.0
    let files: FileSource?
    let signalReader: SignalReader
    let spool: SpoolReporter
    let reporters: [any Reporter]
    let quarantine: QuarantineStore
    let thumbnails = Thumbnails()
    var event: CaptureEvent?
    var stopping = false
    var reported = 0
    var seen = SeenImages()
    /// Images guard produced itself (the bytes it wrote or served): never a new screenshot.
    var ownOutputs = SeenImages(window: 60)
    /// Serves the redacted image on CLIPBOARD; nil without guard or without a clipboard source.
    var clipboardGuardian: (any ClipboardGuardian)?
    /// Files guard wrote itself (device and inode), so their rename is not a new screenshot.
    var ownRewrites: [String: Double] = [:]
    /// How often a clipboard original came back after guard replaced it (a tool or a clipboard
    /// manager putting it back): guarded again up to `ClipboardRetakes.limit` times.
    var clipboardRetakes = ClipboardRetakes()
    /// When the agent started: guard never touches a file written before.
    let startTime: Double
    let host: String
    private let lock: InstanceLock

    public init(options: AgentOptions) throws(AgentError) {
        let log = Log(verbose: options.verbose)
        self.options = options
        self.log = log
        startTime = now()
        do throws(X11Error) {
            display = try Display()
            desktop = try DesktopEvents(display: display, clipboard: options.watchClipboard, tools: options.watchTools,
                                        extraToolClasses: options.toolClasses)
            shield = options.shield ? try desktop.enableShield(keys: ["Print"] + options.shieldKeys) : nil
        } catch {
            throw AgentError(message: error.message, isUsage: false)
        }
        lock = try InstanceLock(display: display.name)
        regions = try Self.loadRegions(options.regionsPath, log: log)
        grabber = ScreenGrabber(display: display, allowSharedMemory: options.useSharedMemory)
        do throws(PrivateFolderError) {
            spool = try SpoolReporter(options: options)
        } catch {
            throw AgentError(message: "cannot keep reports: \(error)", isUsage: false)
        }
        quarantine = QuarantineStore()
        do throws(SystemError) {
            signalReader = try SignalReader()
            if options.watchFiles {
                files = try FileSource(folders: DefaultFolders.screenshotFolders() + options.folders, log: log)
            } else {
                files = nil
            }
        } catch {
            throw AgentError(message: error.description, isUsage: false)
        }
        var reporters: [any Reporter] = []
        if options.printJSON { reporters.append(JSONLineReporter()) }
        if let command = options.execCommand { reporters.append(ExecReporter(command: command, log: log)) }
        self.reporters = reporters
        // A closed standard output (`watch --json | head -1`) is an error to handle, not a death.
        Glibc.signal(SIGPIPE, SIG_IGN)
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        host = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        if options.guarding, let files { removeLeftoverRewrites(in: files.targets) }
        if let point = RewriteCrashPoint.configured {
            log.warning("SHOTGUARD_CRASH_AT=\(point.rawValue): this agent kills itself during its first rewrite (a test of guard's crash safety)")
        }
        if options.guarding, options.watchClipboard {
            let takeover = ClipboardTakeover(server: desktop.clipboardServer, log: log)
            clipboardGuardian = takeover
            if let manager = desktop.clipboardServer.clipboardManager {
                log.warning("a clipboard manager (window 0x\(String(manager, radix: 16))) runs: its history may keep "
                    + "originals it copied before guard took over")
            }
        }
        refreshShield()
    }

    static func loadRegions(_ path: String?, log: Log) throws(AgentError) -> RegionsFile? {
        let resolved = path ?? RegionsFile.defaultPath
        var status = stat()
        if path == nil, lstat(resolved, &status) != 0, errno == ENOENT {
            log.warning("no regions file at \(resolved): reports will not be redacted")
            return nil
        }
        do throws(RegionsError) {
            return try RegionsFile.load(path: resolved)
        } catch {
            throw AgentError(message: error.description, isUsage: true)
        }
    }

    /// Runs until SIGINT/SIGTERM (or the first report with --once). Returns the exit code.
    public func run() -> Int32 {
        watchFields()
        log.info("watching display \(display.name) (capture by \(grabber.method.rawValue)); "
            + "sources: \(sourceNames); guard: \(guardDescription); reports in \(spool.folder)")
        if let files { log.verbose("screenshot folders: \(files.targets.joined(separator: ", "))") }
        while !stopping {
            handleDesktop(desktop.process(now: monotonicNow()))
            lowerShieldIfDue()
            if display.isLost { return lostDisplay() }
            var fds = [pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signalReader.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            if let files { fds.append(pollfd(fd: files.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), timeoutMilliseconds())
            if ready < 0, errno != EINTR {
                log.error("poll: \(errnoText())")
                return 1
            }
            // The shield's key must be heard before any other work of this turn (reading files).
            if shield != nil { handleDesktop(desktop.process(now: monotonicNow())) }
            if fds[1].revents != 0 { handleSignals(signalReader.read()) }
            if fds.count > 2, fds[2].revents != 0, let files { handleFiles(files.readEvents()) }
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { return lostDisplay() }
            handleDesktop(desktop.process(now: monotonicNow()))
            handleDesktop(desktop.expire(now: monotonicNow()))
            lowerShieldIfDue()
            refreshShieldIfFieldsChanged()
            (clipboardGuardian as? ClipboardTakeover)?.logEvents()
            // One candidate a turn: signals and X events are answered between the images of a burst.
            if let event, !event.pending.isEmpty { examineNext(in: event) }
            if let event, event.pending.isEmpty, monotonicNow() >= event.settleTime { settle() }
            if options.once, reported > 0 { stopping = true }
        }
        settleEverything()
        handOffClipboard()
        drainReporters()
        fieldWatcher?.stop()
        log.info("stopped")
        return 0
    }

    private var sourceNames: String {
        [options.watchFiles ? "files" : nil, options.watchClipboard ? "clipboard" : nil,
         options.watchTools ? "tool windows" : nil].compactMap { $0 }.joined(separator: ", ")
    }

    private var guardDescription: String {
        (options.guarding ? "on (screenshot files are rewritten redacted)" : "off (reports only)")
            + (shield.map { "; shield: on (keys \($0.keys.names.joined(separator: ", ")), \($0.overlays.count) covers ready)" } ?? "")
    }

    /// Milliseconds until the next timer, or -1: no timer runs while nothing happens. Zero while
    /// candidates wait to be examined.
    private func timeoutMilliseconds() -> Int32 {
        if let event, !event.pending.isEmpty { return 0 }
        let deadlines = [event?.settleTime, desktop.deadline, shieldDown, shieldFieldsCheck].compactMap { $0 }
        guard let next = deadlines.min() else { return -1 }
        return Int32(max(0, min(60_000, ((next - monotonicNow()) * 1000).rounded(.up))))
    }

    /// The display is gone, but the event in hand (its screens, windows and files) is not:
    /// settle it before exiting.
    private func lostDisplay() -> Int32 {
        log.error("lost the connection to X display '\(display.name)'")
        settleEverything()
        drainReporters()
        return 1
    }

    /// Examines every waiting candidate and settles the open event, at once.
    private func settleEverything() {
        guard let event else { return }
        while !event.pending.isEmpty { examineNext(in: event) }
        settle(final: true)
    }

    private func drainReporters() {
        for reporter in reporters { reporter.drain(seconds: 5) { waitForChild() } }
    }

    private func handleSignals(_ signals: [Int32]) {
        for signal in signals {
            switch signal {
            case SIGINT, SIGTERM:
                log.info("stopping on \(signal == SIGINT ? "SIGINT" : "SIGTERM")")
                stopping = true
            case SIGHUP:
                reloadRegions()
            case SIGCHLD:
                for reporter in reporters { reporter.childExited() }
            default:
                break
            }
        }
    }

    /// SIGHUP: the new rules replace the old only when the file is valid.
    private func reloadRegions() {
        do throws(AgentError) {
            let reloaded = try Self.loadRegions(options.regionsPath, log: log)
            if reloaded == nil, regions != nil {
                // An editor may be between removing the old file and writing the new one.
                log.error("kept the previous rules: \(RegionsFile.defaultPath) is missing")
                return
            }
            regions = reloaded
            watchFields()
            refreshShield()
            log.info("reloaded \(regions?.path ?? "regions"): \(regions?.rules.count ?? 0) rules")
        } catch {
            log.error("kept the previous rules: \(error.message)")
        }
    }

    /// Blocks until a child may have exited (for draining --exec at the end); a second SIGINT
    /// or SIGTERM ends the wait at once.
    private func waitForChild() {
        var fds = [pollfd(fd: signalReader.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, 200)
        let signals = signalReader.read()
        if signals.contains(where: { $0 == SIGINT || $0 == SIGTERM }) {
            for reporter in reporters { reporter.abandon() }
        } else if signals.contains(SIGCHLD) {
            for reporter in reporters { reporter.childExited() }
        }
    }

    /// Guard's leftovers from a crash: temporary files of its naming pattern in watched folders.
    private func removeLeftoverRewrites(in folders: [String]) {
        for folder in folders {
            for path in FileRewrite.removeLeftovers(in: folder) {
                log.info("removed \(path), left by an interrupted rewrite")
            }
        }
    }
}
