// The sentinel's thread: its loop over the RECORD source, the covers' connection and the agent's commands.
import CX11
import Glibc
import ShotguardBase
import ShotguardImaging

/// Everything the sentinel's thread owns, used by that thread alone once it started: the RECORD
/// source, a connection of its own for the covers and the keys, and which covers are up for
/// what. Covers are up while a key holds them (until the agent says the screenshot settled) or
/// while a reader holds them: over what it read, from its first read until it disconnects or
/// the agent releases it.
final class SentinelWorker: @unchecked Sendable {
    private let channel: SentinelChannel
    private let source: ScreenReadSource?
    let sensingFailure: String?
    private let covers: Display?
    private let overlays: ShieldOverlays?
    private let rawKeys: RawKeys?
    private var coversReads = false
    private var coversKeys = true
    /// Whether a key holds the covers up (all of them).
    private var keyHolds = false
    /// The readers holding covers up, with what they read (root coordinates; nil: unknown,
    /// the whole screen).
    private var readers: [UInt32: Rect?] = [:]
    /// Raises in answer to windows mapped above the covers while they are up: bounded, so a
    /// window that keeps raising itself cannot make the two loop forever.
    private var raises = 0
    private var stopping = false

    init(displayName: String, excluding: [Display], keys: [String], makesCovers: Bool, channel: SentinelChannel) throws(X11Error) {
        self.channel = channel
        if makesCovers || !keys.isEmpty {
            let display = try Display(name: displayName)
            overlays = try ShieldOverlays(display: display)
            rawKeys = keys.isEmpty ? nil : try RawKeys(display: display, keys: keys)
            // Windows mapped or raised above the covers while they are up are put back under.
            XSelectInput(display.handle, display.root, SubstructureNotifyMask)
            display.sync()
            covers = display
        } else {
            covers = nil
            overlays = nil
            rawKeys = nil
        }
        do throws(X11Error) {
            source = try ScreenReadSource(displayName: displayName, excluding: excluding + [covers].compactMap { $0 })
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
        while !stopping {
            var descriptors = [pollfd(fd: channel.wake, events: Int16(POLLIN), revents: 0)]
            if let source, !source.isLost { descriptors.append(pollfd(fd: source.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            if let covers, !covers.isLost { descriptors.append(pollfd(fd: covers.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            // Xlib may hold events read already: handled before sleeping.
            if let covers, XPending(covers.handle) > 0 { handleCoverEvents() }
            // While a reader holds covers up, a round trip every `nudge` makes the server send
            // what RECORD gathered: a client's end makes no output of its own, and its covers
            // would wait for the next activity on the server to come down.
            let ready = poll(&descriptors, nfds_t(descriptors.count), readers.isEmpty ? -1 : Self.nudge)
            guard ready >= 0 || errno == EINTR else {
                channel.post([.stopped(reason: "poll: \(errnoText())")])
                return
            }
            if ready == 0 { covers?.sync() }
            for command in channel.takeCommands() { apply(command) }
            if source != nil { handleReads() }
            if covers != nil { handleCoverEvents() }
            if source?.isLost ?? false || covers?.isLost ?? false {
                channel.post([.stopped(reason: "the X server went away")])
                return
            }
        }
    }

    private func apply(_ command: SentinelCommand) {
        switch command {
        case .covers(let list):
            overlays?.update(list)
            applyVisibility()
        case .coverReads(let on):
            coversReads = on
            if !on {
                readers = [:]
                applyVisibility()
            }
        case .coverKeys(let on):
            coversKeys = on
        case .lowerKey:
            keyHolds = false
            applyVisibility()
        case .release(let client):
            if readers.removeValue(forKey: client) != nil { applyVisibility() }
        case .stop:
            stopping = true
        }
    }

    /// What the source recorded: each read with its process as it is now, its covers up at
    /// once when reads raise them; each reader's end, its covers down.
    private func handleReads() {
        guard let source else { return }
        var events: [SentinelEvent] = []
        var changed = false
        for event in source.read() {
            switch event {
            case .read(let read):
                let area = covers?.rootRectangle(of: read)
                events.append(.read(read, rootArea: area, process: read.processID.flatMap(ProcessSnapshot.of(pid:))))
                guard coversReads, let overlays, overlays.count > 0 else { continue }
                if let known = readers[read.client] {
                    // Another read of the same reader: its covers grow to all it read.
                    let grown = known.flatMap { old in area.map { Self.bounding(old, $0) } }
                    if grown != known {
                        readers[read.client] = grown
                        changed = true
                    }
                } else {
                    readers[read.client] = area
                    let under = overlays.rects.filter { Self.overlaps($0, area) }.count
                    if under > 0 {
                        changed = true
                        events.append(.coversRaised(client: read.client, area: area, covers: under, at: monotonicNow()))
                    }
                }
            case .clientEnded(let client):
                events.append(.clientEnded(client))
                if readers.removeValue(forKey: client) != nil { changed = true }
            }
        }
        if changed { applyVisibility() }
        channel.post(events)
    }

    /// The covers' connection: a shield key maps every cover at once; a window mapped above
    /// raised covers is put back under them; a new keyboard mapping is read again.
    private func handleCoverEvents() {
        guard let covers, let overlays else { return }
        var event = XEvent()
        while XPending(covers.handle) > 0 {
            XNextEvent(covers.handle, &event)
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
    /// Milliseconds between the nudges while readers hold covers up.
    static let nudge: Int32 = 100

    /// Whether a cover over `rect` is over what was read (`area`; nil: the whole screen).
    private static func overlaps(_ rect: Rect, _ area: Rect?) -> Bool {
        area.map { !rect.intersection($0).isEmpty } ?? true
    }

    private static func bounding(_ one: Rect, _ other: Rect) -> Rect {
        let x = min(one.x, other.x), y = min(one.y, other.y)
        return Rect(x: x, y: y, width: max(one.maxX, other.maxX) - x, height: max(one.maxY, other.maxY) - y)
    }

    /// Maps the covers that something holds up and unmaps the others; says how many are up
    /// once the server has done it.
    private func applyVisibility() {
        guard let overlays, let covers else { return }
        let areas = Array(readers.values)
        let shown = overlays.show { rect in keyHolds || areas.contains { Self.overlaps(rect, $0) } }
        covers.sync()
        if shown != lastShown {
            lastShown = shown
            channel.post([.coversShown(shown)])
        }
    }

    /// How many covers were up at the last change.
    private var lastShown = 0
}
