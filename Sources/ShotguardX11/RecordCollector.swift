// Turns RECORD's elements into screen reads, between the C callback and the screen-read source.
import CX11

/// What the RECORD callback fills while `XRecordProcessReplies` runs: the events of this call,
/// the pixmaps named for windows, each live client's process, and whether the server started
/// recording. Used on the source's thread only (the callback runs inside the source's own call).
final class RecordCollector {
    /// The most reads kept from one `read()` call; the rest are counted in `dropped`. A 30 fps
    /// recording sends 30 a second, so this is minutes of a stalled loop. A client's end is
    /// always kept: what was learnt of it must be forgotten.
    static let limit = 4096

    let opcodes: RecordedOpcodes
    /// Client bases whose requests are left out.
    var excluded: Set<UInt32>
    /// The bits of a resource id that name its client (`XRecordIdBaseMask`).
    let baseMask: UInt32
    /// Asks the server which process a client is (X-Resource), on a connection other than the
    /// one being read; nil when it cannot tell.
    private let processOf: (UInt32) -> Int32?
    var pixmaps = WindowPixmaps()
    /// Each client's process, asked as it connected (or at its first read, for a client that
    /// was there before recording began); nil inside when it could not be told. Bounded by the
    /// server's number of clients: a client leaves it when it ends.
    private var processes: [UInt32: Int32?] = [:]
    /// Clients that read since they connected, whose end is reported.
    private var readers: Set<UInt32> = []
    private var events: [ScreenReadEvent] = []
    private var readCount = 0
    private(set) var dropped = 0
    private(set) var started = false
    /// When the elements being handled were read (monotonic seconds).
    var receivedAt = 0.0

    init(opcodes: RecordedOpcodes, excluded: Set<UInt32>, baseMask: UInt32, processOf: @escaping (UInt32) -> Int32?) {
        self.opcodes = opcodes
        self.excluded = excluded
        self.baseMask = baseMask
        self.processOf = processOf
    }

    /// The events gathered since the last call, in the server's order.
    func takeEvents() -> [ScreenReadEvent] {
        defer {
            events = []
            readCount = 0
        }
        return events
    }

    /// One element as libXtst hands it over. `data_len` counts 4-byte units of `data`, which
    /// libXtst sized from the reply it received.
    func take(_ element: XRecordInterceptData) {
        let client = UInt32(truncatingIfNeeded: element.id_base)
        switch Int32(element.category) {
        case XRecordStartOfData:
            started = true
        case XRecordClientStarted where !excluded.contains(client):
            // Asked at once: a program such as ImageMagick's import reads on a connection it
            // closes right after, long before it exits, and X-Resource forgets a closed one.
            processes[client] = processOf(client)
        case XRecordClientDied:
            pixmaps.forgetClient(base: client, mask: baseMask)
            processes[client] = nil
            if readers.remove(client) != nil { events.append(.clientEnded(client)) }
        case XRecordFromClient:
            guard !excluded.contains(client), let bytes = element.data, element.data_len > 0,
                  element.data_len <= UInt(Int.max / 4) else { return }
            let buffer = UnsafeRawBufferPointer(start: bytes, count: Int(element.data_len) * 4)
            switch RecordedRequest.decode(buffer, swapped: element.client_swapped != 0, opcodes: opcodes) {
            case .read(let request, let drawable, let area)?:
                readers.insert(client)
                guard readCount < Self.limit else {
                    dropped += 1
                    return
                }
                readCount += 1
                events.append(.read(ScreenRead(request: request, client: client, drawable: UInt(drawable), area: area,
                                               serverTime: element.server_time, receivedAt: receivedAt,
                                               pixmapWindow: pixmaps.window(of: drawable).map { UInt($0) },
                                               processID: process(of: client))))
            case .nameWindowPixmap(let window, let pixmap)?:
                pixmaps.name(pixmap, window: window)
            case nil:
                break
            }
        default:
            break
        }
    }

    /// The process of `client`, asked now if it was not asked when the client connected.
    private func process(of client: UInt32) -> Int32? {
        if let known = processes[client] { return known }
        let found = processOf(client)
        processes[client] = found
        return found
    }
}
