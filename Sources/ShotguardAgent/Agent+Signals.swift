// The agent's turns: each source's signals handed to the tracker, candidates to the handler, settled events to the sink.
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import ShotguardText
import ShotguardX11

extension Agent {
    /// Files that arrived in a watched folder: classified by name and kind only (nothing is
    /// read now: a burst of thousands of files costs a stat each), then tracked.
    func handleFiles(_ arrivals: [FileSource.Arrival]) {
        // Only a burst (the agent behind a copy of many files) takes the shortcut below; a few
        // files at a time go the whole way, judged with all the agent knows when examined.
        let burst = arrivals.count > Self.burstArrivals
        for arrival in arrivals {
            let path = arrival.path
            if own.contains(path) { continue }  // its reports, its quarantine
            if burst, isUnrelatedImage(path) {
                if !arrival.created {
                    log.verbose("left \(path) as it is: no program read the screen in the half minute before it")
                    log.events.say("left", [("name", .string(path.description)), ("why", .string(LeftBecause.noScreenRead.rawValue))])
                }
                continue
            }
            // A name created without a write (`link`, `linkat` of an O_TMPFILE) is examined only
            // when it names a complete image now; a file about to be written comes again closed.
            let classified = ScreenshotFileClassifier.classify(path, now: inputs.clock.now().wall, keepingBytes: false,
                                                               checkingAge: false, checkingCompleteness: arrival.created)
            switch classified {
            case .failure(let reason):
                if !arrival.created {
                    log.verbose("ignored \(path): \(reason)")
                    log.events.say("ignored", [("name", .string(path.description)), ("why", .string(reason.code))])
                }
            case .success(let file):
                let naming: Naming = file.strength == .strong ? .strong : .weak
                var evidence = Evidence()
                var held: HeldFile?
                var readScreen: Snapshot?
                if let writer = inputs.pixels.writer(of: path, identity: file.identity) {
                    evidence.screenRead = (writer.read, writer.link)
                    held = writer.held
                    readScreen = writer.screen
                }
                // A screenshot is held from this first sight: read and rewritten through its
                // descriptor wherever it goes next (a burst of photos holds none).
                if held == nil, naming == .strong || !evidence.isEmpty {
                    held = HeldFile.open(path, expecting: file.identity)
                    if let held { inputs.openers.hold(held, writer: nil, at: inputs.clock.now().monotonic) }
                }
                let candidate = Candidate.file(path, naming: naming, key: FileKeys.key(file.identity), evidence: evidence,
                                               at: inputs.clock.now(), held: held, readScreen: readScreen)
                outputs.shield.screenshotSettled(at: inputs.clock.now().monotonic)
                track(.image(candidate))
            }
        }
    }

    /// More file events than this in one read are a burst.
    static let burstArrivals = 16

    /// The facts the burst shortcut is decided on (`ArrivalPolicy`).
    private func isUnrelatedImage(_ path: BytePath) -> Bool {
        let now = inputs.clock.now()
        let facts = FileArrivalFacts(
            burst: true, sensingAnswers: inputs.sensing != nil && !rules.isPaused,
            stronglyNamed: ScreenshotFileClassifier.isStronglyNamed(path),
            writtenByHolder: FileIdentity.of(path: path).map { inputs.pixels.writer(of: path, identity: $0) != nil } ?? false,
            anyRecentRead: tracker.reads.anyRead(within: ReadHistory.horizon, at: now),
            eventHasEvidence: !(tracker.event.map { $0.evidence.isEmpty } ?? true))
        return ArrivalPolicy.decide(facts) == .leaveUnopened
    }

    func handleDesktop(_ signals: [DesktopSignal]) {
        for desktopSignal in signals {
            switch desktopSignal {
            case .clipboardImage(let read):
                clipboardArrived(read)
            case .clipboardFailed(let reason):
                log.warning("clipboard: \(reason)")
                log.events.say("clipboard-failed")
            case .clipboardHandOff(let from, let to):
                // Found now: the owner that handed over exits once the manager has its offer.
                let process = ClientProcess.of(window: from, on: inputs.display)
                inputs.handOffs.note(from: from, process: process, at: inputs.clock.now().monotonic)
                log.verbose("clipboard: \(hexID(to)) took CLIPBOARD over from \(hexID(from))"
                    + "\(process.map { " (\($0.program), pid \($0.pid))" } ?? "") while its offer was being read")
                log.events.say("clipboard-handover", [("from", .string(hexID(from))), ("to", .string(hexID(to))),
                                                      ("program", process.map { .string($0.program) } ?? .null)])
            case .toolWindowOpened(let id, let tool):
                log.verbose("screenshot tool window \(hexID(id)) (\(tool)) created")
                log.events.say("tool-window", [("window", .string(hexID(id))), ("tool", .string(tool)), ("state", .string("created"))])
                track(.toolWindowCreated(id: id, tool: tool))
            case .toolWindowMapped(let id, let tool):
                log.verbose("screenshot tool window \(hexID(id)) (\(tool)) shown")
                log.events.say("tool-window", [("window", .string(hexID(id))), ("tool", .string(tool)), ("state", .string("shown"))])
                track(.toolWindowShown(id: id, tool: tool))
            case .toolWindowClosed(let id):
                outputs.shield.screenshotSettled(at: inputs.clock.now().monotonic)
                track(.toolWindowClosed(id: id))
            case .windowsChanged:
                resolveThrottle.windowsChanged()
            }
        }
    }

    /// A clipboard image: who offered it (and whether a program tied to it read the screen),
    /// whether it comes back after guard replaced it, and whether guard takes the clipboard at
    /// once — only with capture evidence, never for an image nothing ties to a capture.
    private func clipboardArrived(_ read: ClipboardRead) {
        let now = inputs.clock.now()
        log.verbose("clipboard image (\(read.imageTargets.first ?? "image"), \(read.image.count) bytes\(read.incremental ? ", INCR" : "")) "
            + "from \(read.ownerDescription); \(read.targets.count) targets read\(read.complete ? "" : ", not all")")
        log.events.say("clipboard", [("type", read.imageTargets.first.map(JSON.string) ?? .null), ("bytes", .number(read.image.count)),
                                     ("incremental", .bool(read.incremental)), ("targets", .number(read.targets.count)),
                                     ("complete", .bool(read.complete)), ("owner", .string(hexID(read.owner)))])
        let process = ClientProcess.of(window: read.owner, on: inputs.display)
        let owner = ClipboardOwner(window: read.owner, description: read.ownerDescription, process: process,
                                   selectionTime: read.selectionTime)
        let offer = ClipboardOffer(image: read.image, imageTargets: read.imageTargets,
                                   targets: read.complete ? read.targets : [], owner: owner)
        // A clipboard manager's image is the one the owner before it handed over: its process
        // is the evidence (gnome-screenshot -c that exited as the manager saved its image).
        let handedOverBy = inputs.handOffs.process(handedOverBy: read.handedOverBy, at: now.monotonic)
        if let handedOverBy { log.verbose("clipboard image handed over by \(handedOverBy.program) (pid \(handedOverBy.pid))") }
        var evidence = Evidence()
        for origin in [process, handedOverBy].compactMap({ $0 }) {
            if evidence.screenshotProgram == nil, ScreenshotPrograms.contains(origin.program) { evidence.screenshotProgram = origin.program }
            // A holder of protected pixels (the reader, a process it started or piped to) first.
            if evidence.screenRead == nil, let holder = inputs.pixels.holder(of: origin.pid) {
                evidence.screenRead = (holder.read, holder.origin == .read && !holder.isInferred ? .sameProcess : holder.link)
            }
            if evidence.screenRead == nil { evidence.screenRead = tracker.reads.read(relatedTo: origin, at: now) }
        }
        let isGuardsOwn = tracker.recent.contains("bytes:" + fnv1a(read.image), as: .own, at: now.monotonic)
        // A clipboard manager's image handed over by the owner before it is a new copy (the
        // manager's window may be the one guard took CLIPBOARD from last time): no retake.
        let arrival = read.handedOverBy == nil && !isGuardsOwn ? handler.clipboardGuard?.arrival(of: offer, at: now) ?? .fresh : .fresh
        let rulesHitNow = !(rules.inForce?.hits(against: tracker.event?.snapshots.last?.context ?? screen.context()).isEmpty ?? true)
        let decision = ArrivalPolicy.decide(ClipboardArrivalFacts(arrival: arrival, handedOver: read.handedOverBy != nil,
                                                                  evidence: evidence, rulesHitNow: rulesHitNow, isGuardsOwn: isGuardsOwn))
        if case .retake(let count) = arrival {
            log.warning("guard: \(read.ownerDescription) put an image guard replaced back on the clipboard; guarding it again "
                + "(\(count) of \(ClipboardRetakes.limit) within \(Int(ClipboardRetakes.window)) s)")
            log.events.say("clipboard-retake", [("count", .number(count)), ("limit", .number(ClipboardRetakes.limit))])
        }
        switch decision {
        case .ignoreOwn:
            log.verbose("ignored the clipboard image from \(read.ownerDescription): guard's own image")
            log.events.say("ignored", [("name", .string("the clipboard image")), ("why", .string(IgnoreReason.ownImage.rawValue))])
            return
        case .withhold:
            handler.clipboardGuard?.withhold(reason: "\(read.ownerDescription) keeps putting back an image guard replaced")
            return
        case .examine(let takeOverNow):
            if takeOverNow, let taken = handler.clipboardGuard?.takeOver(from: offer), !taken.taken {
                log.warning("guard: \(taken.why)")
            }
        }
        outputs.shield.screenshotSettled(at: now.monotonic)
        let key = "clipboard:\(read.owner):\(read.image.count):\(fnv1a(read.image))"
        track(.image(.clipboard(offer, key: key, evidence: evidence, at: now)))
    }

    /// Hands a signal to the tracker (grabbing the screen when it opens an event) and says what
    /// it did.
    @discardableResult
    func track(_ signal: CaptureSignal) -> [TrackerNote] {
        guard !rules.isPaused else {
            log.verbose("protection is paused: a signal was not followed")
            log.events.say("ignored", [("name", signal.imageName.map(JSON.string) ?? .null),
                                       ("why", .string(IgnoreReason.paused.rawValue))])
            return []
        }
        let before = (tracker.event?.id, tracker.event?.snapshots.count ?? 0)
        let said = tracker.receive(signal, at: inputs.clock.now(), snapshot: { [self] in
            defer { inputs.pixels.pollBetweenSteps(at: inputs.clock.now().monotonic) }
            return snapshot()
        })
        // Text rules: the screen just grabbed is read off the loop while the tool writes its
        // screenshot, so the screenshot's own pass reads only the lines that changed.
        if let regions = rules.inForce, regions.hasTextRules, let event = tracker.event, let snapshot = event.snapshots.last,
           event.id != before.0 || event.snapshots.count > before.1 {
            handler.textPasses?.warm(snapshot.root, rules: regions.scannerRules(against: snapshot.context))
        }
        say(said)
        return said
    }

    /// Writes what the tracker did: its verbose line, and its event when it has one.
    private func say(_ notes: [TrackerNote]) {
        for note in notes {
            log.verbose(note.line)
            if let event = note.event { log.events.say(event.name, event.fields) }
        }
    }

    /// Examines one candidate, carries out guard's action, and tells the tracker.
    func examine(_ taken: Candidate) {
        guard let event = tracker.event else { return }
        let now = inputs.clock.now()
        var candidate = taken
        // A file its folder signalled before the follower knew its writer: the writer's read is
        // known by now. While that writer still writes it, it is looked at again: a file over
        // the read limit is judged without being read, and a 70 MB screenshot piped through a
        // filter was judged half written with no read, and left.
        if candidate.source == .file, candidate.evidence.screenRead == nil, let path = candidate.path,
           let identity = FileIdentity.of(path: path), let writer = inputs.pixels.writer(of: path, identity: identity) {
            candidate.evidence.screenRead = (writer.read, writer.link)
            if let screen = writer.screen { candidate.readScreens.append(screen) }
            if writer.held != nil, candidate.looks < CaptureTracker.maximumLooks {
                say(tracker.examined(candidate, .lookAgain(delay: CaptureTracker.lookInterval), at: now))
                return
            }
        }
        let context = CandidateHandler.Context(
            event: event, rules: rules.inForce, contextNow: { [inputs, screen] in inputs.isLost ? nil : screen.context() },
            reads: tracker.reads, sensing: inputs.sensing != nil, now: now,
            isOwn: { [tracker] key in tracker.recent.contains(key, as: .own, at: now.monotonic) },
            hasTextRules: rules.inForce?.hasTextRules ?? false, betweenSteps: { [self] in
                inputs.pixels.pollBetweenSteps(at: inputs.clock.now().monotonic)
            },
            protectedSince: { [protection] start in protection.hits(from: start, to: now.monotonic) },
            freshSnapshot: { [inputs, screen] in inputs.isLost ? nil : screen.take() })
        let result = handler.handle(candidate, in: context)
        for key in result.ownKeys { tracker.noteOwn(key, at: now) }
        tracker.record({ $0.merge(file: result.file, clipboard: result.clipboard, quarantine: result.quarantine) }, note: result.note)
        log.write(result.lines)
        // A screenshot found (placed or set aside): the reads behind it were followed to it.
        switch result.outcome {
        case .placed, .screenshotUnplaced:
            for read in event.signals.compactMap(\.read) + [candidate.evidence.screenRead?.read].compactMap({ $0 }) {
                inputs.pixels.guarded(read)
            }
        default:
            break
        }
        say(tracker.examined(candidate, result.outcome, leftBecause: result.leftBecause, at: now))
        // Done with the file, unless it is looked at again or its text pass rewrites it again:
        // what waited to open it goes on and reads what guard left.
        switch result.outcome {
        case .lookAgain, .readAgain: break
        default: if result.textPass == nil { inputs.openers.release(candidate.held) }
        }
        if let pending = result.textPass, let regions = rules.inForce {
            handler.startTextPass(pending, rules: regions.scannerRules(against: pending.screen))
            tracker.textPassStarted()
            log.verbose("text rules: checking \(candidate.name) off the loop")
        }
        var placement: (geometry: JSON, rectangles: JSON) = (.null, .null)
        if case .placed(let placed, _) = result.outcome {
            placement = (.string(placed.alignment.rect.description), .number(placed.redactions.count))
        }
        log.events.say("examined", [("name", .string(candidate.name)), ("source", .string(candidate.source.rawValue)),
                                    ("outcome", .string(result.outcome.kind)),
                                    ("why", result.leftBecause.map { .string($0.rawValue) } ?? .null),
                                    ("geometry", placement.geometry), ("rectangles", placement.rectangles),
                                    ("file", result.file.map(JSON.string) ?? .null),
                                    ("clipboard", result.clipboard.map(JSON.string) ?? .null),
                                    ("quarantine", result.quarantine.map(JSON.string) ?? .null)])
    }

    /// Text passes that ended: their second rewrite or clipboard image done, the report told.
    func handleTextPasses() {
        handler.textPasses?.clearWake()
        // The readings of the screen first: a screenshot's own comes before its pass.
        for reading in handler.textPasses?.takeReadings() ?? [] { screenRead(reading) }
        let now = inputs.clock.now()
        let outcomes = handler.finishTextPasses(eventID: tracker.event?.id ?? CaptureTracker.eventID(at: now)) { [tracker] key in
            tracker.recent.contains(key, as: .own, at: now.monotonic)
        }
        for outcome in outcomes {
            inputs.openers.release(outcome.candidate.held)
            for key in outcome.ownKeys { tracker.noteOwn(key, at: now) }
            tracker.record({ $0.merge(file: outcome.file, clipboard: outcome.clipboard, quarantine: outcome.quarantine) })
            log.write(outcome.lines)
            tracker.textPassEnded(key: outcome.candidate.key, image: outcome.image,
                                  covers: outcome.covers.map { (kind: $0.kind.rawValue, line: $0.line, rect: $0.rect) },
                                  note: outcome.note)
            log.events.say("text-pass", [("name", .string(outcome.candidate.name)), ("covers", .number(outcome.covers.count)),
                                         ("file", outcome.file.map(JSON.string) ?? .null),
                                         ("clipboard", outcome.clipboard.map(JSON.string) ?? .null)])
        }
    }

    /// Settles the open event when it is due: the bounded look for a file, then the report.
    func settleIfDue() { settle(final: false) }

    func settle(final: Bool) {
        let settled = tracker.settle(at: inputs.clock.now(), final: final) { [inputs] since in
            guard let files = inputs.files, let path = files.newestScreenshot(since: since),
                  case .success(let file) = ScreenshotFileClassifier.classify(path, now: inputs.clock.now().wall, keepingBytes: false,
                                                                              checkingCompleteness: false) else { return nil }
            return .file(path, naming: .strong, key: FileKeys.key(file.identity), evidence: .none, at: inputs.clock.now())
        }
        guard let event = settled else { return }
        if event.weakDropped > 0 {
            log.warning("\(event.weakDropped) images written at once were not examined: taken for a bulk copy (the first "
                + "\(CandidateQueue.weakPerEvent) of a burst are looked at; screenshots named as such always are)")
        }
        let (report, why) = ReportBuilder.build(event, rules: rules.inForce)
        log.events.say("settled", [("id", .string(event.id)), ("report", .bool(report != nil)),
                                   ("why", why.map { .string($0.rawValue) } ?? .null), ("unexamined", .number(event.weakDropped))])
        guard let report else {
            log.verbose("capture event \(event.id) \(why?.text ?? ""): no report")
            return
        }
        if !outputs.sink.deliver(report) { inputs.stop(because: .outputClosed) }
    }
}
