// What capture sensing tells the agent: a program read the screen, a recording started or stopped, a reader wrote its image.
import Glibc
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import ShotguardX11

extension Agent {
    func handleSensed(_ events: [SensedEvent]) {
        for event in events {
            switch event {
            case .read(let read, let process):
                screenRead(read, process: process)
            case .frame(let read):
                outputs.shield.screenRead(client: read.client, program: read.program, serverTime: read.serverTime, readAfterKeyMs: nil,
                                          at: inputs.clock.now().monotonic)
            case .recording(let change):
                recordingChanged(change)
            case .clientEnded(let client):
                outputs.shield.clientEnded(client)
                inputs.pixels.clientEnded(client)
            case .key(let readAt, let mappedAt, let serverTime, let coveredTime, let covers):
                let now = inputs.clock.now()
                if let record = outputs.shield.raised(readAt: readAt, mappedAt: mappedAt, serverTime: serverTime, coveredTime: coveredTime,
                                                      covers: covers, wallNow: now.wall, monotonicNow: now.monotonic) {
                    log.events.say("shield-key", [("covers", .number(record.covers))])
                    track(.shieldKey(record))
                }
            case .coversRaised(let hold, let area, let covers):
                log.verbose("shield: \(covers) cover\(covers == 1 ? "" : "s") up over what \(Self.holder(hold)) reads ("
                    + (area?.description ?? "the whole screen") + ")")
                log.events.say("covers", [("client", hold.client.map { .number(Int($0)) } ?? .null), ("covers", .number(covers)),
                                          ("hold", .string(Self.holdKind(hold)))])
            case .coversShown(let count):
                log.events.say("covers-shown", [("covers", .number(count))])
            case .helper(let change):
                helperChanged(change)
            case .stopped(let reason):
                log.warning("the sentinel stopped (\(reason)): screen reads, the shield's key and covers are no longer seen")
            }
        }
    }

    /// A read that is no recording's frame: a screenshot signal, the start of following its
    /// pixels when they are protected, and — after a shield key — the moment the covers may go.
    private func screenRead(_ received: ScreenReadRecord, process: ProcessSnapshot?) {
        var read = received
        read.protected = protectedPixels(in: &read)
        log.verbose("screen read by \(read.program)\(read.pid.map { " (pid \($0))" } ?? ""): \(read.request) of "
            + (read.area?.description ?? "a drawable not on the screen")
            + (read.holdsProtectedPixels ? ", holding \(read.protected.count) protected rectangles" : ", holding nothing protected"))
        let now = inputs.clock.now()
        outputs.shield.screenRead(client: read.client, program: read.program, serverTime: read.serverTime,
                                  readAfterKeyMs: tracker.event?.shield.map { (read.time.wall - $0.keyTime) * 1000 }, at: now.monotonic)
        guard !rules.isPaused else { return }
        if !inputs.pixels.hold(read, process: process, at: now.monotonic), inputs.pixels.firstUnfollowed(read) { cannotFollow(read) }
        track(.screenRead(read))
        // The screen as it is now, for an image its holders save later (the screen changed by then).
        if read.holdsProtectedPixels { inputs.pixels.keep(tracker.event?.snapshots.last, for: read) }
    }

    /// A program reading the screen past the X server started: every protected area is covered
    /// while it runs (unless a rule trusts it), and it is said as a recording; or it ended.
    private func helperChanged(_ change: CaptureHelperChange) {
        switch change {
        case .started(let pid, _, let process):
            let trusted = rules.regions?.trustedPrograms.contains { $0.matches(process) } ?? false
            let now = inputs.clock.now().monotonic
            let covers = outputs.shield.shieldsReads && !trusted ? protection.hits(from: now, to: now).count : 0
            if !trusted { outputs.shield.holdForHelper(pid) }
            inputs.sentinelEvents.updateHelper(pid, trusted: trusted, covers: covers)
            if let recording = inputs.sentinelEvents.helperRecording(pid) { recordingChanged(.started(recording)) }
        case .ended(let pid):
            outputs.shield.releaseHelper(pid)
        }
    }

    /// What holds covers up, for the event stream: `read`, the watch's request, or `helper`.
    static func holdKind(_ hold: CoverHold) -> String {
        switch hold {
        case .reader: "read"
        case .watch(let key): key.kind.rawValue
        case .helper: "helper"
        }
    }

    /// Who holds covers up, for the log.
    static func holder(_ hold: CoverHold) -> String {
        switch hold {
        case .reader(let client): "client 0x\(String(client, radix: 16))"
        case .watch(let key): "client 0x\(String(key.client, radix: 16)) (\(key.kind.rawValue))"
        case .helper(let pid): "process \(pid)"
        }
    }

    func recordingChanged(_ change: RecordingChange) {
        let started: Bool
        let info: RecordingInfo
        switch change {
        case .started(let recording): (started, info) = (true, recording)
        case .stopped(let recording): (started, info) = (false, recording)
        }
        let pid = info.pid.map { " (pid \($0))" } ?? ""
        let helper = if case .helper = info.path { true } else { false }
        let area = info.area?.description ?? (helper ? "the whole screen" : "a drawable not on the screen")
        if started {
            if let pid = info.pid { inputs.pixels.recording(pid, trusted: info.trusted) }
            let shielded = outputs.shield.shieldsReads && rules.inForce != nil
            log.info("recording: \(info.program)\(pid) " + RecordingText.how(info) + " \(area)"
                + (info.trusted ? "; trusted by the rules: nothing is covered for it"
                    : shielded ? "; the shield covers what the rules protect in it while it runs (\(info.covers) now)" : ""))
            refreshShield()
        } else {
            log.info("recording stopped: \(info.program)\(pid) read \(info.frames) frames")
        }
        // A helper's covers are held by its pid (`helperChanged`), not by an X client.
        if !helper { outputs.shield.recording(client: info.client, started: started) }
        if !outputs.sink.announce(RecordingText.jsonLine(info, started: started)) { inputs.stop(because: .outputClosed) }
        log.events.say("recording", [("state", .string(started ? "started" : "stopped")), ("program", .string(info.program)),
                                     ("pid", info.pid.map { .number(Int($0)) } ?? .null), ("request", .string(info.path.name)),
                                     ("covers", .number(info.covers)), ("trusted", .bool(info.trusted))])
        outputs.desktop.recording(started: started, info: info, rulesInForce: !(rules.inForce?.rules.isEmpty ?? true),
                                  shielded: outputs.shield.shieldsReads)
    }

    /// What the rules protected inside `read`'s rectangle, from a moment before it until now
    /// (the windows are resolved again first when they changed since); everything protected
    /// for a read of a drawable the agent cannot place on the screen (a pixmap). A read of a
    /// protected window itself (or of its frame) holds all of it, wherever it is: its own
    /// pixels show it where the screen did not (`RecentProtectedWindows`).
    func protectedPixels(in read: inout ScreenReadRecord) -> [RegionHit] {
        if resolveThrottle.deadline != nil || lastScreen == nil { refreshShield() }
        let hits = protection.hits(from: read.time.monotonic - CandidateHandler.protectionMargin, to: inputs.clock.now().monotonic)
        var own: [RegionHit] = []
        if let window = read.window, let screen = lastScreen,
           let protected = protectedWindows.read(of: window, area: read.area, screen: screen) {
            read.ofProtectedWindow = true
            own.append(RegionHit(line: protected.line, fill: protected.fill, rect: protected.window.outerFrame,
                                 windowID: protected.window.id, origin: protected.origin))
        }
        guard let area = read.area else { return hits + own }
        return hits.filter { !$0.rect.intersection(area).isEmpty } + own
    }

    /// What following protected pixels found: files their holders wrote (screenshot candidates
    /// with that read as their evidence, held open), and reads whose pixels went nowhere the
    /// agent could follow.
    func handleFollowed(_ found: [FollowedPixels]) {
        for item in found {
            switch item {
            case .file(let path, let held, let read, let link, let screen):
                guard let identity = held?.identity ?? FileIdentity.of(path: path), identity.mode & S_IFMT == S_IFREG else { continue }
                var evidence = Evidence()
                evidence.screenRead = (read, link)
                let naming: Naming = ScreenshotFileClassifier.isStronglyNamed(path) ? .strong : .weak
                log.verbose("\(read.program)'s pixels are in \(path) (\(link.rawValue))")
                // Held from other programs' opens until guard is done (an open that waited on its
                // name waits on), when it was not held while it was written; let go at once when
                // it is no candidate (guard's own rewrite, a file seen already).
                if let held { inputs.openers.hold(held, writer: nil, at: inputs.clock.now().monotonic) }
                outputs.shield.screenshotSettled(at: inputs.clock.now().monotonic)
                let notes = track(.image(.file(path, naming: naming, key: FileKeys.key(identity), evidence: evidence,
                                               at: inputs.clock.now(), held: held, readScreen: screen)))
                if !notes.contains(where: { if case .taken = $0 { true } else { false } }) { inputs.openers.release(held) }
            case .lost(let read):
                pixelsLost(read)
            }
        }
    }

    /// A read of protected pixels the agent cannot follow (`PixelFollower.hold`): an image its
    /// program writes into a watched folder is guarded, one written anywhere else cannot be
    /// found. Said as a warning, never passed over; not as lost, for its image may yet land
    /// where guard sees it.
    private func cannotFollow(_ read: ScreenReadRecord) {
        let why = read.pid.map { "its process \($0) was gone, or could not be read in /proc, before the agent looked at it" }
            ?? "the X server could not tell its process: it closed its connection before it was asked, or it is not on this machine"
        log.warning("\(read.program) read the screen (\(read.protected.count) protected rectangles in it), and cannot be followed "
            + "(\(why)): an image it writes outside the watched folders is not found")
        log.events.say("unfollowed", [("client", .number(Int(read.client))), ("program", .string(read.program)),
                                      ("pid", read.pid.map { .number(Int($0)) } ?? .null)])
    }

    /// Every process holding a read's protected pixels is gone, and nothing of theirs was
    /// guarded: said as an error, and to the user, never passed over.
    private func pixelsLost(_ read: ScreenReadRecord) {
        let pid = read.pid.map { " (pid \($0))" } ?? ""
        log.error("\(read.program)\(pid) read the screen (\(read.protected.count) protected rectangles in it), and its image "
            + "could not be found: the pixels went where the agent cannot follow, and were not redacted")
        log.events.say("lost", [("program", .string(read.program)), ("pid", read.pid.map { .number(Int($0)) } ?? .null)])
        outputs.desktop.imageLost(program: read.program)
    }
}
