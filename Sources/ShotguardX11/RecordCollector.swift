// Turns RECORD's elements into screen reads, between the C callback and the screen-read source.
import CX11

/// What the RECORD callback fills while `XRecordProcessReplies` runs: the events of this call,
/// the pixmaps named for windows, the clients that read, and whether the server started
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
    var pixmaps = WindowPixmaps()
    /// Clients that read since they connected, whose end is reported. Bounded by the server's
    /// number of clients: each leaves when its client ends.
    private var readers: Set<UInt32> = []
    private var events: [ScreenReadEvent] = []
    private var readCount = 0
    private(set) var dropped = 0
    private(set) var started = false
    /// When the elements being handled were read (monotonic seconds).
    var receivedAt = 0.0

    init(opcodes: RecordedOpcodes, excluded: Set<UInt32>, baseMask: UInt32) {
        self.opcodes = opcodes
        self.excluded = excluded
        self.baseMask = baseMask
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
        switch Int32(element.category) {
        case XRecordStartOfData:
            started = true
        case XRecordClientDied:
            let client = UInt32(truncatingIfNeeded: element.id_base)
            pixmaps.forgetClient(base: client, mask: baseMask)
            if readers.remove(client) != nil { events.append(.clientEnded(client)) }
        case XRecordFromClient:
            let client = UInt32(truncatingIfNeeded: element.id_base)
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
                                               pixmapWindow: pixmaps.window(of: drawable).map { UInt($0) })))
            case .nameWindowPixmap(let window, let pixmap)?:
                pixmaps.name(pixmap, window: window)
            case nil:
                break
            }
        default:
            break
        }
    }
}
