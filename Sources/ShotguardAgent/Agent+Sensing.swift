// What capture sensing tells the agent: a program read the screen, a recording started or stopped, a reader wrote its image.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardX11

extension Agent {
    func handleSensed(_ events: [SensedEvent]) {
        for event in events {
            switch event {
            case .read(let read):
                screenRead(read)
            case .recording(let change):
                recordingChanged(change)
            }
        }
    }

    /// A read that is no recording's frame: a screenshot signal, the start of following its
    /// program to the file it writes, and — after a shield key — the moment the covers may go.
    private func screenRead(_ read: ScreenReadRecord) {
        log.verbose("screen read by \(read.program)\(read.pid.map { " (pid \($0))" } ?? ""): \(read.request) of "
            + (read.area?.description ?? "a drawable not on the screen"))
        guard !rules.isPaused else { return }
        inputs.writers.follow(read, at: read.time.monotonic)
        track(.screenRead(read))
        if let shield = tracker.event?.shield {
            outputs.shield.screenRead(by: read.program, serverTime: read.serverTime,
                                      readAfterKeyMs: (read.time.wall - shield.keyTime) * 1000, at: inputs.clock.now().monotonic)
        }
    }

    private func recordingChanged(_ change: RecordingChange) {
        let started: Bool
        let info: RecordingInfo
        switch change {
        case .started(let recording): (started, info) = (true, recording)
        case .stopped(let recording): (started, info) = (false, recording)
        }
        let pid = info.pid.map { " (pid \($0))" } ?? ""
        let area = info.area?.description ?? "a drawable not on the screen"
        if started {
            if let pid = info.pid { inputs.writers.stopFollowing(pid: pid) }
            log.info("recording: \(info.program)\(pid) reads \(area) again and again"
                + (outputs.shield.isOn && rules.inForce != nil ? "; the shield covers what the rules protect while it runs" : ""))
            refreshShield()
        } else {
            log.info("recording stopped: \(info.program)\(pid) read \(info.frames) frames")
        }
        if !rules.isPaused { outputs.shield.recording(client: info.client, started: started) }
        let line = JSON.object([
            ("type", .string("recording")), ("schema", .number(Report.schema)), ("state", .string(started ? "started" : "stopped")),
            ("time", .string(Log.iso8601(started ? info.started.wall : info.lastRead.wall))), ("program", .string(info.program)),
            ("pid", info.pid.map { .number(Int($0)) } ?? .null), ("geometry", info.area.map { .string($0.description) } ?? .null),
            ("frames", .number(info.frames)),
        ])
        if !outputs.sink.announce(line) { inputs.stopping = true }
        log.events.say("recording", [("state", .string(started ? "started" : "stopped")), ("program", .string(info.program))])
        outputs.desktop.recording(started: started, program: info.program, pid: info.pid, geometry: info.area?.description,
                                  rulesInForce: !(rules.inForce?.rules.isEmpty ?? true), shielded: outputs.shield.isOn)
    }

    /// Files that a program which read the screen wrote, wherever: screenshot candidates with
    /// that read as their evidence.
    func handleWritten(_ files: [(path: BytePath, read: ScreenReadRecord)]) {
        for (path, read) in files {
            guard case .success(let file) = ScreenshotFileClassifier.classify(path, now: inputs.clock.now().wall, keepingBytes: false,
                                                                              checkingAge: false, checkingCompleteness: false) else {
                continue
            }
            var evidence = Evidence()
            evidence.screenRead = (read, .writer)
            log.verbose("\(read.program) wrote \(path)")
            track(.image(.file(path, naming: file.strength == .strong ? .strong : .weak, key: FileKeys.key(file.identity),
                               evidence: evidence, at: inputs.clock.now())))
        }
    }
}
