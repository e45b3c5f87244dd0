// Sees other clients read the screen, as the server dispatches their requests (RECORD).
import CX11
import Glibc
import ShotguardBase

/// Screen reads by every client but the agent: core `GetImage`, MIT-SHM `ShmGetImage`, and
/// Composite's `NameWindowPixmap` (kept, so that a read of a window's pixmap is traced to the
/// window), with the notices of clients connecting and leaving. Nothing else is recorded: the
/// server hooks only these requests, so an idle desktop costs nothing (no wake-ups) and a
/// 30 fps recording costs one small message per frame. Each client's process is asked of
/// X-Resource as it connects (a round trip on the control connection, inside `read()`), so a
/// read names its process even when its connection closes at once.
///
/// RECORD needs two connections of its own: the context is made and later disabled on the
/// control connection, and its data comes as a stream of replies on the data connection.
/// Fits a `poll()` loop: when `fileDescriptor` is readable, call `read()`, which handles what
/// arrived and never blocks; nothing stays buffered inside Xlib after it returns. Not
/// thread-safe: use it from one thread, like `Display`.
///
/// The server sends what RECORD gathered along with its next output to any client. A read
/// makes output at once (its reply), so reads arrive within a turn of the server's loop; a
/// client's end makes none, so on an idle desktop its `clientEnded` can wait for the next
/// activity. It always comes before any later read, in the server's order.
public final class ScreenReadSource {
    private let control: Display
    /// Optional so that `deinit` closes it while the collector its callback uses still lives.
    private var data: Display?
    private let context: XRecordContext
    private let collector: RecordCollector

    /// How long `init` waits for the server to start recording.
    static let startTimeout = 5.0

    /// Starts recording on `displayName` (`$DISPLAY` when nil). The requests of `excluding`
    /// (the agent's own connections) and of the source's own two are left out. Throws
    /// `.unsupported` when the server has no RECORD extension, or libXtst or libXRes cannot be loaded.
    public init(displayName: String? = nil, excluding: [Display] = []) throws(X11Error) {
        if let why = SensingLibraries.failure {
            throw X11Error(.unsupported, "\(why): programs that read the screen (scrot, ffmpeg, a screen share) cannot "
                + "be seen as they read it until it is installed (Debian: libxtst6 and libxres1)")
        }
        let control = try Display(name: displayName)
        let data = try Display(name: control.name)
        var major: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        guard XQueryExtension(control.handle, "RECORD", &major, &event, &error) != 0 else {
            throw X11Error(.unsupported, "the X server '\(control.name)' has no RECORD extension: programs that read the "
                + "screen (scrot, ffmpeg, a screen share) cannot be seen as they read it")
        }
        var versionMajor: Int32 = 0, versionMinor: Int32 = 0
        guard sg_XRecordQueryVersion(control.handle, &versionMajor, &versionMinor) != 0 else {
            throw X11Error(.unsupported, "the X server '\(control.name)' did not answer RECORD's version query")
        }
        let opcodes = RecordedOpcodes(sharedMemory: Self.majorOpcode("MIT-SHM", on: control),
                                      composite: Self.majorOpcode("Composite", on: control))
        let excluded = Set(excluding.map(\.clientBase) + [control.clientBase, data.clientBase])
        let collector = RecordCollector(opcodes: opcodes, excluded: excluded,
                                        baseMask: UInt32(truncatingIfNeeded: sg_XRecordIdBaseMask(control.handle)),
                                        processOf: { [control] in control.processID(ofClient: $0) })
        context = try Self.createContext(on: control, opcodes: opcodes)
        self.control = control
        self.data = data
        self.collector = collector
        try start()
    }

    deinit {
        if !control.isLost {
            sg_XRecordDisableContext(control.handle, context)
            sg_XRecordFreeContext(control.handle, context)
            control.sync()
        }
        // Closed here, while the collector that its callback reaches is still alive.
        data = nil
    }

    /// The data connection: readable when the server sent recorded requests.
    public var fileDescriptor: Int32 { data?.fileDescriptor ?? -1 }

    /// Whether the server went away; the descriptor then stays readable and must be dropped.
    public var isLost: Bool { data?.isLost ?? true }

    /// Reads not delivered because one `read()` call had too many (`RecordCollector.limit`).
    public var droppedReads: Int { collector.dropped }

    /// Handles everything recorded that has arrived, without blocking; returns the reads, and
    /// the ends of clients that read, in the order the server dispatched them. Pixmap names
    /// are kept for later reads.
    public func read() -> [ScreenReadEvent] {
        guard let data, !data.isLost else { return [] }
        collector.receivedAt = monotonicNow()
        sg_XRecordProcessReplies(data.handle)
        return collector.takeEvents()
    }

    /// Leaves the requests of `display` out from now on (a connection the agent opened later).
    public func exclude(_ display: Display) {
        collector.excluded.insert(display.clientBase)
    }

    private static func majorOpcode(_ name: String, on display: Display) -> UInt8? {
        var major: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        guard XQueryExtension(display.handle, name, &major, &event, &error) != 0 else { return nil }
        return UInt8(exactly: major)
    }

    /// A context for all clients, present and future, with one range per kind of request (a
    /// range holds one extension): `GetImage` with the notices of a client's start and end,
    /// `ShmGetImage`, `NameWindowPixmap`. Each request is stamped with the server time.
    private static func createContext(on control: Display, opcodes: RecordedOpcodes) throws(X11Error) -> XRecordContext {
        var ranges: [UnsafeMutablePointer<XRecordRange>?] = []
        defer { ranges.forEach { XFree($0) } }
        guard let core = sg_XRecordAllocRange() else { throw X11Error(.unsupported, "out of memory for a RECORD range") }
        ranges.append(core)
        core.pointee.core_requests = XRecordRange8(first: RecordedRequest.getImageOpcode, last: RecordedRequest.getImageOpcode)
        core.pointee.client_started = 1
        core.pointee.client_died = 1
        for (major, minor) in [(opcodes.sharedMemory, RecordedRequest.shmGetImageMinor),
                               (opcodes.composite, RecordedRequest.nameWindowPixmapMinor)] {
            guard let major, let range = sg_XRecordAllocRange() else { continue }
            ranges.append(range)
            range.pointee.ext_requests = XRecordExtRange(ext_major: XRecordRange8(first: major, last: major),
                                                         ext_minor: XRecordRange16(first: UInt16(minor), last: UInt16(minor)))
        }
        var clients = XRecordClientSpec(XRecordAllClients)
        let (context, error) = control.trap {
            ranges.withUnsafeMutableBufferPointer {
                sg_XRecordCreateContext(control.handle, XRecordFromClientTime, &clients, 1, $0.baseAddress, Int32($0.count))
            }
        }
        guard context != 0, error == nil else {
            throw X11Error(.unsupported, "the X server '\(control.name)' refused a RECORD context"
                + (error.map { " (\($0.name))" } ?? ""))
        }
        return context
    }

    /// Enables the context on the data connection and waits, bounded, for the server's
    /// start-of-data: from then on every recorded request is delivered.
    private func start() throws(X11Error) {
        guard let data else { return }
        let closure = Unmanaged.passUnretained(collector).toOpaque().assumingMemoryBound(to: CChar.self)
        guard sg_XRecordEnableContextAsync(data.handle, context, recordIntercepted, closure) != 0 else {
            throw X11Error(.unsupported, "the X server '\(data.name)' refused to enable a RECORD context")
        }
        data.flush()
        let deadline = monotonicNow() + Self.startTimeout
        while !collector.started {
            let remaining = deadline - monotonicNow()
            guard remaining > 0, !data.isLost else {
                throw X11Error(.unsupported, "the X server '\(data.name)' did not start recording within "
                    + "\(Int(Self.startTimeout)) s (expected RECORD's start of data)")
            }
            var descriptor = pollfd(fd: data.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up)))
            collector.receivedAt = monotonicNow()
            sg_XRecordProcessReplies(data.handle)
        }
    }
}

/// RECORD's callback: libXtst calls it from `XRecordProcessReplies`, on the thread that called
/// that, once per recorded element. A plain C function: its state comes through `closure`,
/// the source's collector, which outlives the data connection.
private func recordIntercepted(_ closure: XPointer?, _ element: UnsafeMutablePointer<XRecordInterceptData>?) {
    guard let element else { return }
    defer { sg_XRecordFreeData(element) }
    guard let closure else { return }
    Unmanaged<RecordCollector>.fromOpaque(UnsafeRawPointer(closure)).takeUnretainedValue().take(element.pointee)
}
