// Turns RECORD's elements into screen reads and watches, between the C callback and the screen-read source.
import CX11
import ShotguardImaging

/// What the RECORD callbacks fill while `XRecordProcessReplies` runs: the events of this call,
/// the pixmaps named for windows and the pictures of RENDER, the watches that live, each live
/// client's process, the compositing manager, which clients the copy context must record, and
/// whether the server started recording. Used on the source's thread only (the callbacks run
/// inside the source's own calls).
final class RecordCollector {
    /// The most reads kept from one `read()` call; the rest are counted in `dropped`. A 30 fps
    /// recording sends 30 a second, so this is minutes of a stalled loop. A client's end is
    /// always kept: what was learnt of it must be forgotten.
    static let limit = 4096
    /// Watches followed at once at most; one past it is not seen.
    static let watchLimit = 1024
    /// A read of at most this many pixels of a client's own drawable never brings its copies
    /// into the recording (a 8x8 corner is no screenshot).
    static let tinyRead = 64

    let opcodes: RecordedOpcodes
    /// Client bases whose requests are left out.
    var excluded: Set<UInt32>
    /// The bits of a resource id that name its client (`XRecordIdBaseMask`).
    let baseMask: UInt32
    /// `_NET_WM_CM_S0`: its owner is the compositing manager, whose copies, redirections,
    /// named pixmaps and damage are how it draws the screen, not reads of it.
    let compositingSelection: UInt32
    /// The compositing manager's client, while one runs.
    private(set) var compositingManager: UInt32?
    /// Asks the server which process a client is, and whether it has it (0: every client, in
    /// one round trip), with X-Resource on a connection other than the one being read.
    private let ask: (UInt32) -> ClientProcesses
    /// Every client's process, asked at the first client start of a turn: the clients that
    /// started along with it get their answer from that round trip. ImageMagick's `import`
    /// opens two connections and reads on the second; the server answered the first's question
    /// only after its work on the second's read of the whole screen (31 ms for 1280x800 on
    /// Xvfb), and asked next, the second had closed. Forgotten at the end of the turn; a
    /// client's end drops its entry (its id may be the next client's).
    private var startedTogether: ClientProcesses?
    var pixmaps = WindowPixmaps()
    /// RENDER's pictures and the drawables they read (those created while a client's copies were
    /// recorded).
    private var pictures = WindowPixmaps()
    private(set) var copies = CopyRecording()
    /// Clients to register with the copy context, gathered during a call and sent after it.
    var registrations: Set<UInt32> = []
    /// Whether a client just copied too many of its own drawables on probation: the source
    /// lets it go before it reads on, for every copy read before the server hears of it is one
    /// more recorded (a benchmark sends a million a second).
    var lettingGo = false
    private(set) var watches: [ScreenWatchKey: ScreenWatch] = [:]
    /// Each client's process, asked as it connected (or at its first read, for a client that
    /// was there before recording began); nil inside when it could not be told. Bounded by the
    /// server's number of clients: a client leaves it when it ends.
    private var processes: [UInt32: Int32?] = [:]
    /// The clients the server no longer had when asked which process each is: they closed their
    /// connection first (their process may still run). Each leaves it at its end.
    private var hungUp: Set<UInt32> = []
    /// Clients that read or watched since they connected, whose end is reported.
    private var readers: Set<UInt32> = []
    /// The events of this call, in the server's order.
    private var events: [ScreenReadEvent] = []
    /// Each client's last event in `events`: a read just like its last read is counted in it.
    private var lastEvent: [UInt32: Int] = [:]
    private var readCount = 0
    private(set) var dropped = 0
    /// How many of the source's contexts sent their start of data.
    private(set) var startedContexts = 0
    /// When the elements being handled were read (monotonic seconds).
    var receivedAt = 0.0

    init(opcodes: RecordedOpcodes, excluded: Set<UInt32>, baseMask: UInt32, compositingSelection: UInt32 = 0,
         compositingManager: UInt32? = nil, ask: @escaping (UInt32) -> ClientProcesses) {
        self.opcodes = opcodes
        self.excluded = excluded
        self.baseMask = baseMask
        self.compositingSelection = compositingSelection
        self.compositingManager = compositingManager
        self.ask = ask
    }

    var started: Bool { startedContexts > 0 }

    /// A new turn of elements: what the server said of every client in the last is stale.
    func beginTurn() { startedTogether = nil }

    /// The events gathered since the last call, in the server's order (the source hands the
    /// elements of its two contexts over in that order).
    func takeEvents() -> [ScreenReadEvent] {
        defer {
            events = []
            lastEvent = [:]
            readCount = 0
        }
        return events
    }

    /// The clients the copy context no longer needs at `now` (the source unregisters them).
    func expiredCopyClients(at now: Double) -> [UInt32] { copies.expired(at: now) }

    /// When the next client may leave the copy context.
    var copyDeadline: Double? { copies.deadline }

    /// The client that made `resource` (0: the server, which made the root).
    func owner(of resource: UInt32) -> UInt32 { resource & baseMask }

    /// One element as libXtst hands it over. `data_len` counts 4-byte units of `data`, which
    /// libXtst sized from the reply it received.
    func take(_ element: XRecordInterceptData) {
        let client = UInt32(truncatingIfNeeded: element.id_base)
        switch Int32(element.category) {
        case XRecordStartOfData:
            startedContexts += 1
        case XRecordClientStarted:
            copies.started(client, at: receivedAt)
            // Asked at once: a program such as ImageMagick's import reads on a connection it
            // closes right after, long before it exits, and X-Resource forgets a closed one.
            if !excluded.contains(client) { processes[client] = .some(startedProcess(client)) }
        case XRecordClientDied:
            ended(client)
        case XRecordFromClient:
            guard !excluded.contains(client), let bytes = element.data, element.data_len > 0,
                  element.data_len <= UInt(Int.max / 4) else { return }
            let buffer = UnsafeRawBufferPointer(start: bytes, count: Int(element.data_len) * 4)
            guard let request = RecordedRequest.decode(buffer, swapped: element.client_swapped != 0, opcodes: opcodes) else { return }
            handle(request, client: client, time: element.server_time)
        default:
            break
        }
    }

    /// Whether `element` reads more than a few pixels of a drawable of its own client while
    /// the copy context records that client: what its copies put there (maim's Composite of
    /// the root into a pixmap) must be handled before it, and the server may not have written
    /// those copies to their connection yet when this arrives on the other.
    func readsWhatCopiesMayFill(_ element: XRecordInterceptData) -> Bool {
        let client = UInt32(truncatingIfNeeded: element.id_base)
        guard Int32(element.category) == XRecordFromClient, copies.registered[client] != nil, let bytes = element.data,
              element.data_len > 0, element.data_len <= UInt(Int.max / 4),
              case .read(_, let drawable, let area)? = RecordedRequest.decode(
                UnsafeRawBufferPointer(start: bytes, count: Int(element.data_len) * 4), swapped: element.client_swapped != 0,
                opcodes: opcodes) else { return false }
        return owner(of: drawable) == client && area.width * area.height > Self.tinyRead
    }

    private func ended(_ client: UInt32) {
        startedTogether?.pids[client] = nil
        startedTogether?.clients.remove(client)
        hungUp.remove(client)
        pixmaps.forgetClient(base: client, mask: baseMask)
        pictures.forgetClient(base: client, mask: baseMask)
        copies.ended(client)
        registrations.remove(client)
        processes[client] = nil
        watches = watches.filter { $0.key.client != client }
        if compositingManager == client { compositingManager = nil }
        if readers.remove(client) != nil { append(.clientEnded(client), of: client) }
    }

    private func handle(_ request: RecordedRequest, client: UInt32, time: UInt) {
        let manager = compositingManager == client
        switch request {
        case .read(let kind, let drawable, let area):
            // A read of a drawable of its own that is no window's pixmap may be of a copy of the
            // screen made before its copies were recorded (maim): its next copies are. Not for a
            // read of a few pixels, which holds no screenshot: x11perf reads one pixel of its
            // window after each batch of copies to wait for the server, thousands of times a
            // second, and each would bring its flood of own copies back into the recording.
            if owner(of: drawable) == client, pixmaps.window(of: drawable) == nil, area.width * area.height > Self.tinyRead {
                keepCopies(client)
            }
            read(kind, client: client, drawable: drawable, area: area, time: time, destination: nil)
        case .copy(let kind, let source, let destination, let area, let x, let y):
            guard !manager, isScreen(source, readBy: client), source != destination else {
                copiedOwn(client)
                return
            }
            keepCopies(client)
            read(kind, client: client, drawable: source, area: area, time: time,
                 destination: CopyDestination(drawable: UInt(destination), x: x, y: y))
        case .composite(let sourcePicture, let destinationPicture, let area, let x, let y):
            guard !manager, let source = pictures.window(of: sourcePicture), isScreen(source, readBy: client) else {
                copiedOwn(client)
                return
            }
            let destination = pictures.window(of: destinationPicture)
            guard source != destination else {
                copiedOwn(client)
                return
            }
            keepCopies(client)
            read(.renderComposite, client: client, drawable: source, area: area, time: time,
                 destination: destination.map { CopyDestination(drawable: UInt($0), x: x, y: y) })
        case .createPicture(let picture, let drawable):
            pictures.name(picture, window: drawable)
        case .freePicture(let picture):
            pictures.forget(picture)
        case .freePixmap(let pixmap):
            copies.unpin(client, pixmap)
            pixmaps.forget(pixmap)
            endWatch(ScreenWatchKey(client: client, kind: .namedPixmap, resource: UInt(pixmap)))
        case .sharedPixmap(let pixmap):
            if copies.pin(client, pixmap, at: receivedAt) { registrations.insert(client) }
        case .redirect(let window, _, let on):
            let key = ScreenWatchKey(client: client, kind: .redirect, resource: UInt(window))
            if !on { return endWatch(key) }
            guard !manager, owner(of: window) != client else { return }
            startWatch(key, drawable: window, time: time)
        case .nameWindowPixmap(let window, let pixmap):
            pixmaps.name(pixmap, window: window)
            guard !manager, owner(of: window) != client else { return }
            // Its copies are recorded while it holds the pixmap: its FreePixmap ends the watch.
            if copies.pin(client, pixmap, at: receivedAt) { registrations.insert(client) }
            startWatch(ScreenWatchKey(client: client, kind: .namedPixmap, resource: UInt(pixmap)), drawable: window, time: time)
        case .damageCreate(let damage, let drawable):
            guard !manager, owner(of: drawable) != client else { return }
            startWatch(ScreenWatchKey(client: client, kind: .damage, resource: UInt(damage)), drawable: drawable, time: time)
        case .damageDestroy(let damage):
            endWatch(ScreenWatchKey(client: client, kind: .damage, resource: UInt(damage)))
        case .setSelectionOwner(let owner, let selection):
            guard selection == compositingSelection, compositingSelection != 0 else { return }
            if owner != 0 {
                compositingManager = client
                // What it set up before it took the selection was the compositing manager's work.
                for key in watches.keys where key.client == client { endWatch(key) }
            } else if manager {
                compositingManager = nil
            }
        }
    }

    /// Whether `drawable` shows the screen to `client`: the root, another client's window or
    /// pixmap, or a pixmap of its own named for another client's window. A copy from its own
    /// drawables (scrolling, double buffering) reads nothing of the screen.
    private func isScreen(_ drawable: UInt32, readBy client: UInt32) -> Bool {
        owner(of: drawable) != client || pixmaps.window(of: drawable) != nil
    }

    /// A copy of `client`'s own drawables: one that has now copied too many on probation is to
    /// be let go at once (`lettingGo`).
    private func copiedOwn(_ client: UInt32) {
        if copies.copiedOwn(client, at: receivedAt) { lettingGo = true }
    }

    private func keepCopies(_ client: UInt32) {
        if copies.keep(client, at: receivedAt) { registrations.insert(client) }
    }

    private func read(_ kind: ScreenRead.Request, client: UInt32, drawable: UInt32, area: Rect, time: UInt,
                      destination: CopyDestination?) {
        readers.insert(client)
        let read = ScreenRead(request: kind, client: client, drawable: UInt(drawable), area: area, serverTime: time,
                              receivedAt: receivedAt, pixmapWindow: pixmaps.window(of: drawable).map { UInt($0) },
                              processID: process(of: client), readerHungUp: hungUp.contains(client), destination: destination,
                              drawableClient: owner(of: drawable))
        // The same pixels read again before anything else of this client's: one read more of
        // its last, with the first one's time (the earlier, the more it may have seen).
        if let index = lastEvent[client], case .read(var last) = events[index], last.isRepeated(by: read) {
            last.repeats += 1
            events[index] = .read(last)
            return
        }
        guard readCount < Self.limit else {
            dropped += 1
            return
        }
        readCount += 1
        append(.read(read), of: client)
    }

    private func append(_ event: ScreenReadEvent, of client: UInt32) {
        lastEvent[client] = events.count
        events.append(event)
    }

    private func startWatch(_ key: ScreenWatchKey, drawable: UInt32, time: UInt) {
        guard watches[key] == nil, watches.count < Self.watchLimit else { return }
        let watch = ScreenWatch(kind: key.kind, client: key.client, resource: key.resource, drawable: UInt(drawable),
                                serverTime: time, receivedAt: receivedAt, processID: process(of: key.client))
        watches[key] = watch
        readers.insert(key.client)
        append(.watchStarted(watch), of: key.client)
    }

    private func endWatch(_ key: ScreenWatchKey) {
        guard watches.removeValue(forKey: key) != nil else { return }
        if key.kind == .namedPixmap, let pixmap = UInt32(exactly: key.resource) { copies.unpin(key.client, pixmap) }
        append(.watchEnded(key), of: key.client)
    }

    /// The process of `client`, which just started: from the answer about every client taken at
    /// this turn's first start, or asked alone when it connected after that answer.
    private func startedProcess(_ client: UInt32) -> Int32? {
        if startedTogether == nil { startedTogether = ask(0) }
        if let pid = startedTogether?.pids[client] { return pid }
        return answer(ask(client), for: client)
    }

    /// The process of `client`, asked now if it was not asked when the client connected.
    private func process(of client: UInt32) -> Int32? {
        if let known = processes[client] { return known }
        let found = answer(ask(client), for: client)
        processes[client] = .some(found)
        return found
    }

    /// `client`'s process in `answer`; a client the server no longer has is remembered as hung up.
    private func answer(_ answer: ClientProcesses, for client: UInt32) -> Int32? {
        if answer.isGone(client) { hungUp.insert(client) }
        return answer.pids[client]
    }

}
