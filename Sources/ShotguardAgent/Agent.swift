// The background agent: one thread, one poll() over the X connection, inotify and signals.
import Glibc
import ShotguardImaging
import ShotguardRegions
import ShotguardX11

/// Why the agent could not start; `isUsage` errors (a bad regions file) exit 2, others 1.
public struct AgentError: Error, CustomStringConvertible {
    public let message: String
    public let isUsage: Bool
    public var description: String { message }
}

/// `shotguard watch`. Sources feed capture events; a settled event becomes a report.
public final class Agent {
    let options: AgentOptions
    var log: Log
    var regions: RegionsFile?
    let display: Display
    let grabber: ScreenGrabber
    let desktop: DesktopEvents
    let files: FileSource?
    let signalReader: SignalReader
    let spool: SpoolReporter
    let exec: ExecReporter?
    var event: CaptureEvent?
    var stopping = false
    var reported = 0
    /// Files and clipboard images already reported or seen, with when: duplicates are ignored.
    var seen: [String: Double] = [:]
    let host: String
    private let lock: InstanceLock

    public init(options: AgentOptions) throws(AgentError) {
        let log = Log(verbose: options.verbose)
        self.options = options
        self.log = log
        do throws(X11Error) {
            display = try Display()
            desktop = try DesktopEvents(display: display, clipboard: options.watchClipboard, tools: options.watchTools,
                                        extraToolClasses: options.toolClasses)
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
        exec = options.execCommand.map { ExecReporter(command: $0, log: log) }
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        host = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
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
        log.info("watching display \(display.name) (capture by \(grabber.method.rawValue)); "
            + "sources: \(sourceNames); reports in \(spool.folder)")
        if let files { log.verbose("screenshot folders: \(files.targets.joined(separator: ", "))") }
        while !stopping {
            handleDesktop(desktop.process(now: monotonicNow()))
            if display.isLost { return lostDisplay() }
            var fds = [pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signalReader.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            if let files { fds.append(pollfd(fd: files.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), timeoutMilliseconds())
            if ready < 0, errno != EINTR {
                log.error("poll: \(errnoText())")
                return 1
            }
            if fds[1].revents != 0 { handleSignals(signalReader.read()) }
            if fds.count > 2, fds[2].revents != 0, let files { handleFiles(files.readEvents()) }
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 { return lostDisplay() }
            handleDesktop(desktop.process(now: monotonicNow()))
            handleDesktop(desktop.expire(now: monotonicNow()))
            if let event, monotonicNow() >= event.settleTime { settle() }
            if options.once, reported > 0 { stopping = true }
        }
        if event != nil { settle(final: true) }
        exec?.drain(seconds: 5) { waitForChild() }
        log.info("stopped")
        return 0
    }

    private var sourceNames: String {
        [options.watchFiles ? "files" : nil, options.watchClipboard ? "clipboard" : nil,
         options.watchTools ? "tool windows" : nil].compactMap { $0 }.joined(separator: ", ")
    }

    /// Milliseconds until the next timer, or -1: no timer runs while nothing happens.
    private func timeoutMilliseconds() -> Int32 {
        let deadlines = [event?.settleTime, desktop.deadline].compactMap { $0 }
        guard let next = deadlines.min() else { return -1 }
        return Int32(max(0, min(60_000, ((next - monotonicNow()) * 1000).rounded(.up))))
    }

    private func lostDisplay() -> Int32 {
        log.error("lost the connection to X display '\(display.name)'")
        return 1
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
                exec?.childExited()
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
        if signalReader.read().contains(where: { $0 == SIGINT || $0 == SIGTERM }) { exec?.abandon() }
    }
}
