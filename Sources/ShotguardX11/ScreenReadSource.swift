// Sees other clients read or watch the screen, as the server dispatches their requests (RECORD).
import CX11
import Glibc
import ShotguardBase

/// Screen reads and watches by every client but the agent, with the notices of clients
/// connecting and leaving, through two RECORD contexts:
/// - one for every client: core `GetImage`, MIT-SHM's `ShmGetImage` and `ShmCreatePixmap`,
///   Composite's redirections and `NameWindowPixmap`, DAMAGE's `DamageCreate` and
///   `DamageDestroy`, and `SetSelectionOwner` (who is the compositing manager). These are rare
///   (a read, a share starting), so an idle desktop costs nothing (no wake-ups) and a 30 fps
///   recording one small message per frame;
/// - one for the clients that may copy the screen (`CopyRecording`: new clients for a moment,
///   holders of shared or named pixmaps, clients that copied the screen lately): core
///   `CopyArea`, `CopyPlane` and `FreePixmap`, RENDER's `CreatePicture`, `FreePicture` and
///   `Composite`. Every toolkit sends those all the time, so the server hooks them only for
///   the clients this context holds.
/// Each client's process is asked of X-Resource as it connects (a round trip on the control
/// connection, inside `read()`, for every client that started in that turn at once), so a read
/// names its process even when its connection closes at once.
///
/// RECORD needs connections of its own: the contexts are made, registered and later disabled on
/// the control connection, and each context's data comes as a stream of replies on a data
/// connection of its own (`RecordStream`, read with xcb, which never writes there and never
/// waits on the server but for the rest of a reply it is writing). Fits a `poll()` loop: when
/// one of `fileDescriptors` is readable, call `read()`, which handles what arrived; nothing
/// stays buffered after it returns unless `hasPending` says so (a flood is handled in turns:
/// call it again without waiting); call `read()` at `deadline` too (clients leave the copy
/// context then).
/// Not thread-safe: use it from one thread, like `Display`.
///
/// The server sends what RECORD gathered along with its next output to any client. A read
/// makes output at once (its reply), so reads arrive within a turn of the server's loop; a
/// copy, a client's end and a watch make none, so on an idle desktop they can wait for the next
/// activity (a round trip of any client brings them). Each context's events come in the
/// server's order; between the two contexts, what a client did before a copy (its shared
/// pixmap) is handled before the copy is turned into a read.
public final class ScreenReadSource {
    private let control: Display
    private let data: RecordStream
    private let copyData: RecordStream
    private let recordOpcode: UInt8
    private let context: XRecordContext
    private let copyContext: XRecordContext
    /// The copy context's ranges, kept for each registration.
    private let copyRanges: RecordRanges
    private let collector: RecordCollector

    /// How long `init` waits for the server to start recording.
    static let startTimeout = 5.0

    /// Starts recording on `displayName` (`$DISPLAY` when nil). The requests of `excluding`
    /// (the agent's own connections) and of the source's own are left out. Throws
    /// `.unsupported` when the server has no RECORD extension, or libXtst or libXRes cannot be loaded.
    public init(displayName: String? = nil, excluding: [Display] = []) throws(X11Error) {
        if let why = SensingLibraries.failure {
            throw X11Error(.unsupported, "\(why): programs that read the screen (scrot, ffmpeg, a screen share) cannot "
                + "be seen as they read it until it is installed (Debian: libxtst6 and libxres1)")
        }
        let control = try Display(name: displayName)
        // Both data connections exist before the copy context is made: it records future clients.
        let data = try RecordStream(name: control.name)
        let copyData = try RecordStream(name: control.name)
        var major: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        guard XQueryExtension(control.handle, "RECORD", &major, &event, &error) != 0, let recordOpcode = UInt8(exactly: major) else {
            throw X11Error(.unsupported, "the X server '\(control.name)' has no RECORD extension: programs that read the "
                + "screen (scrot, ffmpeg, a screen share) cannot be seen as they read it")
        }
        var versionMajor: Int32 = 0, versionMinor: Int32 = 0
        guard sg_XRecordQueryVersion(control.handle, &versionMajor, &versionMinor) != 0 else {
            throw X11Error(.unsupported, "the X server '\(control.name)' did not answer RECORD's version query")
        }
        let opcodes = RecordedOpcodes(sharedMemory: Self.majorOpcode("MIT-SHM", on: control),
                                      composite: Self.majorOpcode("Composite", on: control),
                                      damage: Self.majorOpcode("DAMAGE", on: control), render: Self.majorOpcode("RENDER", on: control))
        let excluded = Set(excluding.map(\.clientBase) + [control.clientBase, data.clientBase, copyData.clientBase])
        let selection = control.atom("_NET_WM_CM_S0")
        let manager = XGetSelectionOwner(control.handle, selection)
        let collector = RecordCollector(opcodes: opcodes, excluded: excluded,
                                        baseMask: UInt32(truncatingIfNeeded: sg_XRecordIdBaseMask(control.handle)),
                                        compositingSelection: UInt32(truncatingIfNeeded: selection),
                                        compositingManager: manager == 0 ? nil : control.clientBase(ofResource: UInt(manager)),
                                        ask: { [control] in control.clientProcesses(of: $0) })
        let ranges = try RecordRanges.screenReads(opcodes)
        context = try Self.createContext(on: control, clients: XRecordClientSpec(XRecordAllClients), ranges: ranges)
        copyRanges = try RecordRanges.copies(opcodes)
        copyContext = try Self.createContext(on: control, clients: XRecordClientSpec(XRecordFutureClients), ranges: copyRanges)
        self.control = control
        self.data = data
        self.copyData = copyData
        self.recordOpcode = recordOpcode
        self.collector = collector
        try start()
    }

    deinit {
        if !control.isLost {
            for context in [context, copyContext] {
                sg_XRecordDisableContext(control.handle, context)
                sg_XRecordFreeContext(control.handle, context)
            }
            control.sync()
        }
    }

    /// The data connections: readable when the server sent recorded requests.
    public var fileDescriptors: [Int32] { [data.fileDescriptor, copyData.fileDescriptor] }

    /// Whether the server went away or ended a context; the descriptors then stay readable
    /// and must be dropped.
    public var isLost: Bool { data.isLost || copyData.isLost || data.ended || copyData.ended }

    /// Whether a data connection broke (the server went away), rather than a context ended.
    public var isDisconnected: Bool { data.isLost || copyData.isLost }

    /// Whether replies wait that the last `read()` left for its next turn (a flood).
    public var hasPending: Bool { data.hasPending || copyData.hasPending }

    /// When a client may next leave the copy context: call `read()` then (nil: none waits).
    public var deadline: Double? { collector.copyDeadline }

    /// The clients whose copies are recorded now (for tests and the bench).
    public var copyClients: Int { collector.copies.registered.count }

    /// The compositing manager's client, while one runs.
    public var compositingManager: UInt32? { collector.compositingManager }

    /// Handles everything recorded that has arrived, without blocking; returns the reads,
    /// watches, and the ends of clients that read or watched, in the order the server
    /// dispatched them. Registers the clients that may now copy the screen with the copy
    /// context, and lets go of those whose time there is over.
    public func read() -> [ScreenReadEvent] {
        guard !isLost else { return [] }
        collector.receivedAt = monotonicNow()
        receive()
        updateCopyClients(at: collector.receivedAt)
        return collector.takeEvents()
    }

    /// Leaves the requests of `display` out from now on (a connection the agent opened later).
    public func exclude(_ display: Display) {
        collector.excluded.insert(display.clientBase)
    }

    private func updateCopyClients(at now: Double) {
        collector.lettingGo = false
        let added = collector.registrations.sorted()
        collector.registrations = []
        let removed = collector.expiredCopyClients(at: now)
        guard !added.isEmpty || !removed.isEmpty else { return }
        changeCopyClients(adding: added, removing: removed)
    }

    /// Registers `added` with the copy context and unregisters `removed`, one request per
    /// client: the server refuses a whole request for one client in it that is gone (BadMatch,
    /// nothing done), and a client that ended while its registration was on its way must not
    /// keep a live one (a share starting on a connection past its probation) out of the
    /// recording. Each refusal is an ordinary BadMatch, handled by Xlib's error handler.
    /// Returns once the server has done it (a round trip; registrations are rare, a client let
    /// go is let go once after its probation): a copy the client sends after that is recorded,
    /// and `copyClients` never counts fewer clients than the server still records.
    func changeCopyClients(adding added: [UInt32], removing removed: [UInt32]) {
        for client in added {
            var spec = XRecordClientSpec(client)
            _ = copyRanges.withPointers { ranges, count in
                sg_XRecordRegisterClients(control.handle, copyContext, Self.datum, &spec, 1, ranges, count)
            }
        }
        for client in removed {
            var spec = XRecordClientSpec(client)
            sg_XRecordUnregisterClients(control.handle, copyContext, &spec, 1)
        }
        control.sync()
    }

    private static func majorOpcode(_ name: String, on display: Display) -> UInt8? {
        var major: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        guard XQueryExtension(display.handle, name, &major, &event, &error) != 0 else { return nil }
        return UInt8(exactly: major)
    }

    /// Each request is stamped with the server's time and the client's sequence number: the two
    /// contexts' elements are put back in the server's order by them.
    static let datum = XRecordFromClientTime | XRecordFromClientSequence

    /// A context for `clients` (all, or future ones).
    private static func createContext(on control: Display, clients: XRecordClientSpec,
                                      ranges: RecordRanges) throws(X11Error) -> XRecordContext {
        var clients = clients
        let (context, error) = control.trap {
            ranges.withPointers { sg_XRecordCreateContext(control.handle, Self.datum, &clients, 1, $0, $1) }
        }
        guard context != 0, error == nil else {
            throw X11Error(.unsupported, "the X server '\(control.name)' refused a RECORD context"
                + (error.map { " (\($0.name))" } ?? ""))
        }
        return context
    }

    /// Enables both contexts, each on its data connection, and waits, bounded, for the server's
    /// two starts of data: from then on every recorded request is delivered.
    private func start() throws(X11Error) {
        data.enable(context, major: recordOpcode)
        copyData.enable(copyContext, major: recordOpcode)
        let deadline = monotonicNow() + Self.startTimeout
        while collector.startedContexts < 2 {
            let remaining = deadline - monotonicNow()
            guard remaining > 0, !data.isLost, !copyData.isLost else {
                throw X11Error(.unsupported, "the X server '\(control.name)' did not start recording within "
                    + "\(Int(Self.startTimeout)) s (expected RECORD's start of data)")
            }
            var descriptors = fileDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&descriptors, nfds_t(descriptors.count), Int32((remaining * 1000).rounded(.up)))
            collector.receivedAt = monotonicNow()
            receive()
            if data.ended || copyData.ended, !data.isLost, !copyData.isLost {
                throw X11Error(.unsupported, "the X server '\(control.name)' refused to enable a RECORD context")
            }
        }
    }

    /// Hands what both data connections hold to the collector, one element at a time in the
    /// server's order: each context's come in its order, and the next of the two is the one
    /// the server handled first (by its time, and within a millisecond for one client's by its
    /// requests' sequence: a shared pixmap comes before the copies into it, a copy before its
    /// client's end, and a client that took an ended one's id after that end). When
    /// a stream stopped at its turn's bound, the other waits at the first element that may
    /// come after what is still unread, so no client's end or start is handled before its
    /// copies, whatever floods the recording.
    private func receive() {
        data.beginTurn()
        copyData.beginTurn()
        collector.beginTurn()
        var caughtUp = false
        while true {
            switch (data.peek(), copyData.peek()) {
            case (let one?, let other?):
                take(ServerOrder(other).precedes(ServerOrder(one)) ? (other, copyData) : (one, data))
            case (let one?, nil):
                guard !copyData.hasPending else { return }
                // The server writes what it recorded to the two connections one after the
                // other: a read of a pixmap may arrive before the copy that filled it. A round
                // trip on the control connection comes back only after that flush is done (one
                // that left data unwritten left some waiting here already).
                if !caughtUp, collector.readsWhatCopiesMayFill(one) {
                    caughtUp = true
                    control.sync()
                    continue
                }
                take((one, data))
            case (nil, let other?):
                guard !data.hasPending else { return }
                take((other, copyData))
            case (nil, nil):
                return
            }
        }
    }

    /// Hands `next.element` to the collector and takes it from its stream; a client the
    /// collector now lets go is unregistered before the next element is read.
    private func take(_ next: (element: XRecordInterceptData, stream: RecordStream)) {
        collector.take(next.element)
        next.stream.advance()
        if collector.lettingGo { updateCopyClients(at: collector.receivedAt) }
    }
}

/// Where an element stands in the server's order: its time (milliseconds, wrapping at 2^32),
/// and within one millisecond, for one client's elements, the sequence of its requests (a
/// client's end after all of them). Two contexts' elements are merged by it; within a context,
/// they come in order.
struct ServerOrder: Equatable {
    let time: UInt32
    let client: UInt32
    let sequence: UInt32
    /// The client's end: after every element of that client.
    let ended: Bool

    /// Where `element` stands.
    init(_ element: XRecordInterceptData) {
        self.init(time: UInt32(truncatingIfNeeded: element.server_time), client: UInt32(truncatingIfNeeded: element.id_base),
                  sequence: UInt32(truncatingIfNeeded: element.client_seq), ended: Int32(element.category) == XRecordClientDied)
    }

    init(time: UInt32, client: UInt32, sequence: UInt32, ended: Bool) {
        self.time = time
        self.client = client
        self.sequence = sequence
        self.ended = ended
    }

    /// Whether this element of one context came before `other` of the other context. The
    /// server's time never goes back, so it orders one client's elements too; the sequence
    /// only breaks a tie. A client's start and end carry the time of their reply, which is
    /// theirs: the server begins a reply at each change of client or category, and takes its
    /// time then. Not the sequence first: the server gives a client's id to the next client
    /// once it ended, and the new client's copies (sequence 10) would be put before the old
    /// one's end and reads (sequence 300,000), and that end would take the new client's
    /// covers down.
    func precedes(_ other: ServerOrder) -> Bool {
        let delta = Int32(bitPattern: time &- other.time)
        guard delta == 0, client == other.client else { return delta < 0 }
        // An end bears its client's last sequence: an element of the same millisecond past it
        // is the next client's with that id, and comes after; any other comes before the end.
        if ended { return !other.ended && other.sequence > sequence }
        if other.ended { return sequence <= other.sequence }
        return Int32(bitPattern: sequence &- other.sequence) < 0
    }
}
