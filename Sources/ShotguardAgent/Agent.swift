// The background agent: its parts, put together, and the loop that moves events between them.
import Glibc
import ShotguardAccessibility
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import ShotguardX11

/// Why the agent could not start; `isUsage` errors (a bad regions file) exit 2, others 1.
public struct AgentError: Error, CustomStringConvertible {
    public let message: String
    public let isUsage: Bool
    public var description: String { message }
}

/// `shotguard watch`. The parts, each owning its state:
/// - `inputs` (`AgentInputs`): the descriptors and the sources behind them — X (clipboard, tool
///   windows, the shield's key), inotify (screenshot folders), signals;
/// - `rules` (`RulesInForce`): the regions file, followed, and the fields its rules need;
/// - `screen` (`Snapshotter`): the screen's pixels and windows at a signal;
/// - `tracker` (`CaptureTracker`, pure): signals in, which images to examine and when an event
///   settles out;
/// - `handler` (`CandidateHandler`): one image examined (the pure `Examiner`) and guard's action
///   carried out by the file and clipboard guards;
/// - `outputs` (`AgentOutputs`): the shield controller and the report sink.
public final class Agent {
    let options: AgentOptions
    let log: Log
    let inputs: AgentInputs
    let rules: RulesInForce
    let screen: Snapshotter
    var tracker = CaptureTracker()
    /// What the rules protected on screen, and when.
    var protection = ProtectionTimeline()
    /// The windows the rules protected lately, whole, and the screen's rectangle when last seen.
    var protectedWindows = RecentProtectedWindows()
    var lastScreen: Rect?
    /// When the rules are resolved again after windows changed.
    var resolveThrottle = ResolveThrottle()
    /// When the screen's text is read ahead of a screenshot.
    var readAhead = ReadAheadSchedule()
    let handler: CandidateHandler
    let outputs: AgentOutputs
    /// The agent's own folders (state, spool): nothing in them is a user's screenshot.
    let own: OwnFolders

    public init(options: AgentOptions) throws(AgentError) {
        let log = Log(verbose: options.verbose)
        self.options = options
        self.log = log
        let clock = SystemClock()
        own = OwnFolders(spool: options.spoolFolder)
        inputs = try AgentInputs(options: options, own: own, log: log, clock: clock)
        rules = try RulesInForce(path: options.regionsPath, log: log)
        if options.once, !rules.hasFiles {
            throw AgentError(message: "watch --once: no regions file at \(rules.path) (nothing would be protected; "
                + "write one first, see 'shotguard windows')", isUsage: true)
        }
        screen = Snapshotter(display: inputs.display, useSharedMemory: options.useSharedMemory, log: log, clock: clock)
        let quarantine = QuarantineStore()
        let clipboardGuard = options.guarding && options.watchClipboard
            ? ClipboardGuard(server: inputs.desktop.clipboardServer, log: log) : nil
        handler = CandidateHandler(fileGuard: options.guarding ? DiskFileGuard(quarantine: quarantine, agentStart: clock.now().wall, own: own) : nil,
                                   clipboardGuard: clipboardGuard)
        outputs = try AgentOutputs(options: options, sentinel: inputs.sentinel, log: log)
        // shotguard's own windows (the shield's covers, the tray's menu, the recording mark) are
        // left out of every window list by the X layer; the fields of `field` rules are put in.
        let rules = self.rules
        screen.adjust = { context in rules.addFields(to: &context) }
        if options.guarding, let files = inputs.files { removeLeftoverRewrites(in: files.targets) }
        if let point = RewriteCrashPoint.configured {
            log.warning("SHOTGUARD_CRASH_AT=\(point.rawValue): this agent kills itself during its first rewrite (a test of guard's crash safety)")
        }
        if clipboardGuard != nil, let manager = inputs.desktop.clipboardServer.clipboardManager {
            log.warning("a clipboard manager (window 0x\(String(manager, radix: 16))) runs: its history may keep "
                + "originals it copied before guard took over")
            log.events.say("clipboard-manager", [("window", .string(hexID(manager)))])
        }
        // History programs that do not own CLIPBOARD_MANAGER (Parcellite, CopyQ, GPaste…).
        if clipboardGuard != nil {
            let histories = ClipboardHistories.running(on: inputs.display.name)
            if let warning = ClipboardHistories.warning(histories) {
                log.warning(warning)
                log.events.say("clipboard-history", [("programs", .array(histories.map { .string($0.program) })),
                                                     ("images", .bool(histories.contains { $0.keeps == .images }))])
            }
        }
        rules.watchFields()
        refreshShield()
        let control = AgentControlAdapter()
        control.agent = self
        outputs.desktop.start(control: control)
    }

    /// Runs until SIGINT/SIGTERM (or the first report with --once). Returns the exit code.
    public func run() -> Int32 {
        sayWhatIsWatched()
        // Capture helpers already running (NvFBC, DRM/KMS): covered from the start.
        handleSensed(inputs.sentinelEvents.helpersNow())
        while !inputs.stopping {
            let now = inputs.clock.now()
            handleDesktop(inputs.desktop.process(now: now.monotonic))
            outputs.shield.lowerIfDue(at: inputs.clock.now().monotonic)
            if inputs.isLost { return lostDisplay() }
            guard AgentLoop.turn(descriptors(), deadline: nextDeadline(), now: inputs.clock.now().monotonic) else {
                log.error("poll: \(errnoText())")
                return 1
            }
            if inputs.isLost { return lostDisplay() }
            afterTurn()
            if options.once, outputs.sink.delivered > 0 { inputs.stop(because: .once) }
        }
        settleEverything()
        (handler.clipboardGuard as? ClipboardGuard)?.handOff(displayLost: inputs.display.isLost)
        outputs.sink.drain(seconds: 5) { inputs.waitForChild(sink: outputs.sink) }
        rules.stop()
        log.info("stopped")
        return 0
    }

    /// The descriptors of this turn, the shield's key first (the X connection): the covers must
    /// go up before any other work of the turn.
    private func descriptors() -> [LoopDescriptor] {
        var list = [
            LoopDescriptor(fd: inputs.display.fileDescriptor, events: Int16(POLLIN)) { [self] revents in
                if revents & Int16(POLLHUP | POLLERR) != 0 { inputs.connectionClosed = true }
                handleDesktop(inputs.desktop.process(now: inputs.clock.now().monotonic))
            },
            LoopDescriptor(fd: inputs.signals.fileDescriptor, events: Int16(POLLIN)) { [self] _ in handleSignals(inputs.signals.read()) },
        ]
        // Files before the screen reads of the same turn: a file is stamped when it is taken
        // in, and a read handled first would count as made before files written before it
        // (old screenshots copied in just before scrot ran would be tied to scrot's read).
        if let files = inputs.files {
            list.append(LoopDescriptor(fd: files.fileDescriptor, events: Int16(POLLIN)) { [self] _ in handleFiles(files.readArrivals()) })
        }
        list += outputs.desktop.descriptors
        list += outputs.delivery.descriptors
        if let passes = handler.textPasses, handler.textPassesRunning || passes.readingsQueued > 0 {
            list.append(LoopDescriptor(fd: passes.fileDescriptor, events: Int16(POLLIN)) { [self] _ in handleTextPasses() })
        }
        // The sentinel's events: reads, frames, the shield's key, covers raised.
        list.append(LoopDescriptor(fd: inputs.sentinelEvents.fileDescriptor, events: Int16(POLLIN)) { [self] _ in
            handleSensed(inputs.sentinelEvents.read())
        })
        // Programs that read the screen past the X server (NvFBC, DRM/KMS) starting and ending.
        for fd in inputs.sentinelEvents.helperDescriptors {
            list.append(LoopDescriptor(fd: fd, events: Int16(POLLIN)) { [self] _ in handleSensed(inputs.sentinelEvents.readHelpers(fd)) })
        }
        for (fd, pid) in inputs.pixels.descriptors {
            list.append(LoopDescriptor(fd: fd, events: Int16(POLLIN)) { [self] _ in
                let now = inputs.clock.now().monotonic
                handleFollowed(pid.map { inputs.pixels.exited($0, at: now) } ?? inputs.pixels.readEvents(at: now))
            })
        }
        if let follower = rules.fileDescriptor {
            list.append(LoopDescriptor(fd: follower, events: Int16(POLLIN)) { [self] _ in
                rules.handleEvents(at: inputs.clock.now().monotonic)
            })
        }
        return list
    }

    /// The next time any part has work; now when a candidate or new windows wait.
    private func nextDeadline() -> Double? {
        let now = inputs.clock.now()
        if inputs.desktop.hasNewWindows || inputs.desktop.hasQueuedEvents { return now.monotonic }
        return [tracker.deadline(at: now), inputs.desktop.deadline, rules.deadline, outputs.desktop.deadline, resolveThrottle.deadline,
                inputs.sentinelEvents.deadline, inputs.pixels.deadline, outputs.delivery.deadline,
                inputs.openers.deadline(limit: Self.longestHold),
                outputs.shield.deadline(watchingFields: rules.fieldWatcher != nil), readAheadDeadline].compactMap { $0 }.min()
    }

    /// A file is held from other programs' opens at most this long: its examination and text
    /// pass are done by then (the helper itself lets each open go after 5 s).
    static let longestHold = 20.0

    /// The work of every turn after the ready descriptors: timers, one candidate, the settle.
    private func afterTurn() {
        let now = inputs.clock.now()
        handleDesktop(inputs.desktop.process(now: now.monotonic))
        handleDesktop(inputs.desktop.expire(now: now.monotonic))
        outputs.shield.lowerIfDue(at: now.monotonic)
        if resolveThrottle.isDue(at: now.monotonic) || outputs.shield.fieldsChanged(rules.fieldWatcher?.status.fields, at: now.monotonic) {
            refreshShield()
        }
        (handler.clipboardGuard as? ClipboardGuard)?.logEvents()
        outputs.desktop.process()
        outputs.delivery.process()
        handleSensed(inputs.sentinelEvents.expire())
        handleFollowed(inputs.pixels.poll(at: now.monotonic))
        inputs.openers.releaseHeld(before: now.monotonic - Self.longestHold)
        if rules.endPauseIfDue(at: now) { protectionResumed() }
        if rules.reloadIfDue(at: now.monotonic) { refreshShield() }
        // One candidate a turn: signals and X events are answered between the images of a burst.
        if let candidate = tracker.next(at: inputs.clock.now()) { examine(candidate) }
        settleIfDue()
        readAheadIfDue()
    }

    /// The display is gone, but the event in hand (its screens, windows and files) is not:
    /// settle it before exiting.
    private func lostDisplay() -> Int32 {
        log.error("lost the connection to X display '\(inputs.display.name)'")
        log.events.say("stopping", [("why", .string("display-lost"))])
        settleEverything()
        outputs.sink.drain(seconds: 5) { inputs.waitForChild(sink: outputs.sink) }
        return 1
    }

    /// Examines every waiting candidate and settles the open event, at once (at exit).
    private func settleEverything() {
        for candidate in tracker.drainQueue() { examine(candidate) }
        while let candidate = tracker.next(at: inputs.clock.now()) { examine(candidate) }
        settle(final: true)
    }

    private func handleSignals(_ signals: [Int32]) {
        for signal in signals {
            switch signal {
            case SIGINT, SIGTERM:
                log.info("stopping on \(signal == SIGINT ? "SIGINT" : "SIGTERM")")
                log.events.say("stopping", [("why", .string(signal == SIGINT ? "SIGINT" : "SIGTERM"))])
                inputs.stop(because: .signal(signal))
            case SIGHUP:
                if rules.reload(reason: "SIGHUP") { refreshShield() }
            case SIGCHLD:
                outputs.sink.childExited()
            default:
                break
            }
        }
    }

    /// Resolves the rules against the windows now: what they protect is noted (a capture is held
    /// to every rectangle protected while it was made), and the shield's covers move to match.
    func refreshShield() {
        guard !inputs.display.isLost else { return }
        let started = inputs.clock.now().monotonic
        defer { resolveThrottle.resolved(from: started, to: inputs.clock.now().monotonic) }
        let context = screen.context()
        let hits = rules.inForce?.hits(against: context) ?? []
        let protectedNow = notice(context, at: inputs.clock.now().monotonic)
        if protection.update(hits, at: inputs.clock.now().monotonic) {
            log.events.say("protection", [("rectangles", .number(hits.count))])
        }
        guard outputs.shield.isOn else { return }
        outputs.shield.trust(rules.regions?.trustedPrograms ?? [])
        outputs.shield.update(hits.map { ShieldCover(rect: $0.rect, fill: $0.fill) }, fields: context.fields,
                              windows: InnerCoverTargets.of(protectedNow, fields: hits, on: context))
    }

    /// The screen and its windows now, for the tracker; what the rules protect on it is noted.
    func snapshot() -> Snapshot? {
        guard let taken = screen.take() else { return nil }
        protection.update(rules.inForce?.hits(against: taken.context) ?? [], at: taken.time.monotonic)
        _ = notice(taken.context, at: taken.time.monotonic)
        return taken
    }

    /// The windows the rules protect on `context`, whole, for reads of their own pixels.
    private func notice(_ context: ScreenContext, at now: Double) -> [ProtectedWindow] {
        lastScreen = context.bounds
        let protected = rules.inForce?.protectedWindows(against: context) ?? []
        protectedWindows.update(protected, all: context.windows, at: now)
        return protected
    }

    private func sayWhatIsWatched() {
        let sources = sourceNames.filter { $0 != "shield" }.joined(separator: ", ")
        let guardText = options.guarding ? "on (screenshot files are rewritten redacted)" : "off (reports only)"
        let shieldText = outputs.shield.isOn
            ? "; shield: " + [outputs.shield.keys.isEmpty ? nil : "keys \(outputs.shield.keys.joined(separator: ", "))",
                                outputs.shield.shieldsReads ? "recordings and shares" : nil].compactMap { $0 }.joined(separator: ", ") : ""
        log.info("watching display \(inputs.display.name) (capture by \(screen.method)); sources: \(sources); "
            + "guard: \(guardText)\(shieldText); reports in \(outputs.sink.spool.folder)")
        log.info(rules.hasFiles ? "protecting with \(rules.summary) from \(rules.path)" : "protecting with \(rules.summary)")
        if let files = inputs.files { log.info("screenshot folders: \(files.targets.joined(separator: ", "))") }
        log.events.say("watching", [
            ("display", .string(inputs.display.name)), ("sources", .array(sourceNames.map(JSON.string))),
            ("guard", .bool(options.guarding)),
            ("keys", .array(outputs.shield.keys.map(JSON.string))), ("recordings", .bool(outputs.shield.shieldsReads)),
            ("folders", .array((inputs.files?.targets ?? []).map(JSON.string))), ("regions", rules.hasFiles ? .string(rules.path) : .null),
            ("rules", .number(rules.regions?.rules.count ?? 0)),
        ])
    }

    /// Guard's leftovers from a crash: temporary files of its naming pattern in watched folders.
    private func removeLeftoverRewrites(in folders: [String]) {
        for folder in folders {
            for path in FileRewrite.removeLeftovers(in: folder) {
                log.info("removed \(path), left by an interrupted rewrite")
                log.events.say("leftover-removed", [("path", .string(path))])
            }
        }
    }
}
