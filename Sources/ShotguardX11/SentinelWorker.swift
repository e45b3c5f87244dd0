// The sentinel's thread: its loop over the RECORD source, the covers' connection and the agent's commands.
import CX11
import Glibc
import ShotguardBase
import ShotguardImaging

/// Everything the sentinel's thread owns, used by that thread alone once it started: the RECORD
/// source, a connection of its own to place reads and (when it makes them) for the covers and
/// the keys, and what holds which covers up. Covers are up while a key holds them (until the
/// agent says the screenshot settled), while a reader holds them (over what it read, from its
/// first read until it disconnects or the agent releases it), while a watch lives (over what it
/// watches), or while the agent holds them for a helper process.
final class SentinelWorker: @unchecked Sendable {
    private let channel: SentinelChannel
    private let source: ScreenReadSource?
    let sensingFailure: String?
    private let display: Display
    private let placer: ReadPlacer
    private let overlays: ShieldOverlays?
    /// Covers inside the protected windows, for captures of one window's own pixels.
    private let inner: ShieldInnerCovers?
    /// The windows each hold captured (a watch of a window, reads of windows' pixels): the
    /// protected windows inside them are covered inside too.
    private var captures: [CoverHold: Set<UInt>] = [:]
    private let rawKeys: RawKeys?
    private var coversReads = false
    private var coversKeys = true
    /// Whether a key holds the covers up (all of them).
    private var keyHolds = false
    private var holds = CoverHolds()
    private var trust = TrustedClients()
    /// Raises in answer to windows mapped above the covers while they are up: bounded, so a
    /// window that keeps raising itself cannot make the two loop forever.
    private var raises = 0
    private var stopping = false

    init(displayName: String, excluding: [Display], keys: [String], makesCovers: Bool, channel: SentinelChannel) throws(X11Error) {
        self.channel = channel
        display = try Display(name: displayName)
        placer = ReadPlacer(display: display)
        if makesCovers || !keys.isEmpty {
            let overlays = try ShieldOverlays(display: display)
            // Under a compositing manager the covers are painted into the screen's pixels too.
            overlays.followCompositor()
            self.overlays = overlays
            inner = ShieldInnerCovers(display: display)
            rawKeys = keys.isEmpty ? nil : try RawKeys(display: display, keys: keys)
            // Windows mapped or raised above the covers while they are up are put back under;
            // the root's own changes of size tell the placer.
            XSelectInput(display.handle, display.root, SubstructureNotifyMask | StructureNotifyMask)
            display.sync()
        } else {
            overlays = nil
            inner = nil
            rawKeys = nil
            XSelectInput(display.handle, display.root, StructureNotifyMask)
            display.sync()
        }
        do throws(X11Error) {
            source = try ScreenReadSource(displayName: displayName, excluding: excluding + [display])
            sensingFailure = nil
        } catch {
            source = nil
            sensingFailure = error.message
        }
    }

    /// Starts the thread; nil when it cannot be made.
    func start() -> pthread_t? {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&thread, nil, { context in
            let worker = Unmanaged<SentinelWorker>.fromOpaque(context!).takeRetainedValue()
            worker.run()
            return nil
        }, context) == 0 else {
            Unmanaged<SentinelWorker>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    private func run() {
        // Signals are the agent's loop's (signalfd): a signal delivered to this thread instead
        // would take its default action, and SIGTERM would kill the agent before it cleans up.
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        // What the source gathered while it started (a client's start) is not left for the
        // next activity on the server.
        if source != nil { handleReads() }
        while !stopping {
            var descriptors = [pollfd(fd: channel.wake, events: Int16(POLLIN), revents: 0)]
            if let source, !source.isLost {
                descriptors += source.fileDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            }
            if !display.isLost { descriptors.append(pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            // Xlib may hold events read already: handled before sleeping.
            if XPending(display.handle) > 0 { handleCoverEvents() }
            let (wait, nudging) = timeout()
            let ready = poll(&descriptors, nfds_t(descriptors.count), wait)
            guard ready >= 0 || errno == EINTR else {
                channel.post([.stopped(reason: "poll: \(errnoText())")])
                return
            }
            // While a reader holds covers up, a round trip every `nudge` makes the server send
            // what RECORD gathered: a client's end makes no output of its own, and its covers
            // would wait for the next activity on the server to come down. (A wait that ended
            // for a deadline of its own needs none.)
            if ready == 0, nudging { display.sync() }
            if descriptors[0].revents != 0 {
                for command in channel.takeCommands() { apply(command) }
            }
            // The display's events first (the key's covers go up before any read is placed, and
            // the root's change of size places the reads that came with it on the new screen);
            // those read in by the reads' round trips are handled before the next wait.
            handleCoverEvents()
            if source != nil { handleReads() }
            if source?.isLost ?? false || display.isLost {
                channel.post([.stopped(reason: display.isLost || source?.isDisconnected ?? false ? "the X server went away"
                                                                                                 : "the X server ended the RECORD contexts")])
                return
            }
        }
    }

    /// Milliseconds to wait: none while the source left replies for its next turn (a flood),
    /// the nudge while holds are up (readers stop without a word; a watch's end makes no
    /// output either, but a watch lives long), the source's next deadline or the next held
    /// frames', or for ever; `nudging` when the wait is the nudge's.
    private func timeout() -> (milliseconds: Int32, nudging: Bool) {
        if source?.hasPending ?? false { return (0, false) }
        var wait: Int32 = holds.hasReaders ? Self.nudge : holds.isEmpty ? -1 : Self.watchNudge
        var nudging = wait >= 0
        for deadline in [source?.deadline, frames.deadline].compactMap({ $0 }) {
            let milliseconds = max(0, Int32(clamping: Int(((deadline - monotonicNow()) * 1000).rounded(.up))))
            if wait < 0 || milliseconds < wait {
                wait = milliseconds
                nudging = false
            }
        }
        return (wait, nudging)
    }

    private func apply(_ command: SentinelCommand) {
        switch command {
        case .covers(let list):
            overlays?.update(list)
            applyVisibility()
        case .innerCovers(let list):
            inner?.update(list)
            applyVisibility()
        case .coverReads(let on):
            coversReads = on
            // A reader's hold is the agent's to end; watches and helpers hold while they live.
            if !on { holds.removeAll { if case .reader = $0 { true } else { false } } }
            applyVisibility()
        case .coverKeys(let on):
            coversKeys = on
        case .lowerKey:
            keyHolds = false
            applyVisibility()
        case .hold(let hold, let area):
            let isNew = !holds.contains(hold)
            if holds.add(hold, area), isNew { raised(hold, area: area) }
            applyVisibility()
        case .release(let hold):
            if holds.remove(hold) { applyVisibility() }
        case .trust(let programs):
            trust.programs = programs
            // A holder trusted now lets its covers go.
            let trusted = Set(holds.areas.keys.compactMap(\.client).filter { trust.isTrusted($0) })
            if holds.removeAll(where: { $0.client.map(trusted.contains) ?? false }) { applyVisibility() }
        case .stop:
            stopping = true
        }
    }

    /// What the source recorded: each read and watch placed, with its process as it is now,
    /// its covers up at once when reads raise them; each watch's and reader's end, its covers down.
    private func handleReads() {
        guard let source else { return }
        var events: [SentinelEvent] = []
        var changed = false
        for event in source.read() {
            switch event {
            case .read(let read):
                let placement = placer.place(read)
                guard placement != .notScreen else { continue }
                let process = read.processID.flatMap { snapshots.snapshot(client: read.client, pid: $0, at: read.receivedAt) }
                let trusted = trust.judge(read.client, process: process?.details)
                let said = SentinelEvent.read(read, rootArea: placement.rect, process: process, trusted: trusted)
                let held = frames.hold(said, at: read.receivedAt)
                if !held {
                    if let earlier = frames.release(read.client) { events.append(earlier) }
                    events.append(said)
                    frames.noteSaid(said, at: read.receivedAt)
                }
                guard !trusted else { continue }
                // A held read that puts covers up again (the agent let its reader's hold go) is
                // said before them.
                if held, coversReads, !holds.contains(.reader(read.client)), let earlier = frames.release(read.client) {
                    events.append(earlier)
                    frames.noteSaid(earlier, at: read.receivedAt)
                }
                let captured = read.pixmapWindow ?? read.drawable
                if captured != UInt(display.root), coversReads, captures[.reader(read.client), default: []].insert(captured).inserted {
                    changed = true
                }
                changed = hold(.reader(read.client), area: placement.rect, events: &events) || changed
            case .watchStarted(let watch):
                let placement = placer.place(watch)
                guard placement != .notScreen else { continue }
                let process = watch.processID.flatMap { snapshots.snapshot(client: watch.client, pid: $0, at: watch.receivedAt) }
                let trusted = trust.judge(watch.client, process: process?.details)
                if let earlier = frames.release(watch.client) { events.append(earlier) }
                watching.insert(watch.key)
                // Its covers first: the agent says how many went up when it says the recording.
                if !trusted {
                    if watch.drawable != UInt(display.root) { captures[.watch(watch.key), default: []].insert(watch.drawable) }
                    changed = hold(.watch(watch.key), area: placement.rect, events: &events) || changed
                }
                events.append(.watchStarted(watch, rootArea: placement.rect, process: process, trusted: trusted))
            case .watchEnded(let key):
                guard watching.remove(key) != nil else { continue }
                if let earlier = frames.release(key.client) { events.append(earlier) }
                events.append(.watchEnded(key))
                changed = holds.remove(.watch(key)) || changed
            case .clientEnded(let client):
                if let earlier = frames.release(client) { events.append(earlier) }
                frames.forget(client)
                events.append(.clientEnded(client))
                placer.forgetClient(client)
                snapshots.forget(client)
                trust.forget(client)
                watching = watching.filter { $0.client != client }
                changed = holds.removeClient(client) || changed
            }
        }
        events += frames.due(at: monotonicNow())
        if changed { applyVisibility() }
        channel.post(events)
    }

    /// Each reader's process as it was at its last read, for its next reads.
    private var snapshots = RecentSnapshots()
    /// A recorder's frames held back to be said together.
    private var frames = HeldFrames()

    /// The watches said to the agent (one the placer set aside has no end to say).
    private var watching: Set<ScreenWatchKey> = []

    /// Adds `hold` over `area` (a reader's only while reads put covers up); true when what it
    /// holds changed. A new hold with covers under it is said (`coversRaised`).
    private func hold(_ hold: CoverHold, area: Rect?, events: inout [SentinelEvent]) -> Bool {
        if case .reader = hold, !coversReads { return false }
        let isNew = !holds.contains(hold)
        guard holds.add(hold, area) else { return false }
        guard let overlays else { return false }
        let under = overlays.rects.filter { CoverHolds.overlaps($0, area) }.count
        if isNew, under > 0, coversReads { events.append(.coversRaised(hold: hold, area: area, covers: under, at: monotonicNow())) }
        return true
    }

    /// A hold of the agent's own went up: said like a reader's.
    private func raised(_ hold: CoverHold, area: Rect?) {
        guard let overlays, coversReads else { return }
        let under = overlays.rects.filter { CoverHolds.overlaps($0, area) }.count
        if under > 0 { channel.post([.coversRaised(hold: hold, area: area, covers: under, at: monotonicNow())]) }
    }

    /// The sentinel's connection: a shield key maps every cover at once; a window mapped above
    /// raised covers is put back under them; a new keyboard mapping is read again.
    private func handleCoverEvents() {
        guard let overlays else {
            // No covers: only the root's changes are selected.
            var event = XEvent()
            while XPending(display.handle) > 0 {
                XNextEvent(display.handle, &event)
                if event.type == ConfigureNotify, event.xconfigure.window == display.root { placer.screenChanged() }
            }
            return
        }
        var event = XEvent()
        while XPending(display.handle) > 0 {
            XNextEvent(display.handle, &event)
            if event.type == ConfigureNotify, event.xconfigure.window == display.root {
                placer.screenChanged()
                continue
            }
            if overlays.compositorChanged(&event) { continue }
            if inner?.handle(&event) == true { continue }
            switch event.type {
            case GenericEvent:
                let readAt = monotonicNow()
                guard let serverTime = rawKeys?.triggerPressTime(&event) else { continue }
                guard coversKeys else {
                    // Paused: heard, said, and nothing covered.
                    channel.post([.key(readAt: readAt, mappedAt: readAt, serverTime: serverTime, coveredTime: nil, covers: 0)])
                    continue
                }
                keyHolds = true
                overlays.raise(stamped: true)
                let mappedAt = monotonicNow()
                let coveredTime = overlays.stampTime()
                lastShown = overlays.count
                raises = 0
                channel.post([.key(readAt: readAt, mappedAt: mappedAt, serverTime: serverTime, coveredTime: coveredTime,
                                   covers: overlays.count)])
            case MappingNotify:
                var mapping = event.xmapping
                XRefreshKeyboardMapping(&mapping)
                rawKeys?.refreshKeycodes()
            case MapNotify, ConfigureNotify:
                if event.type == MapNotify { overlays.windowMapped() }
                let subject = event.type == MapNotify ? event.xmap.window : event.xconfigure.window
                guard !overlays.contains(subject), overlays.isUp, raises < Self.maximumRaises else { continue }
                raises += 1
                overlays.keepOnTop()
            default:
                continue
            }
        }
    }

    static let maximumRaises = 64
    /// Milliseconds between the nudges while holds are up.
    static let nudge: Int32 = 100
    /// Milliseconds between the nudges while only watches and helpers hold covers up.
    static let watchNudge: Int32 = 1000

    /// Maps the covers that something holds up and unmaps the others; says how many are up
    /// once the server has done it. Holds show only while reads put covers up (not paused).
    private func applyVisibility() {
        guard let overlays else { return }
        let shown = overlays.show { rect in keyHolds || (coversReads && holds.holds(rect)) }
        // After the screen's covers, which need no window made first.
        captures = captures.filter { holds.contains($0.key) }
        if let inner {
            inner.show(keyHolds ? inner.all : coversReads ? captures.values.joined().reduce(into: Set<UInt>()) {
                $0.formUnion(inner.covered(byCaptureOf: $1))
            } : [])
        }
        overlays.settle()
        display.sync()
        if shown != lastShown {
            lastShown = shown
            channel.post([.coversShown(shown)])
        }
    }

    /// How many covers were up at the last change.
    private var lastShown = 0
}
