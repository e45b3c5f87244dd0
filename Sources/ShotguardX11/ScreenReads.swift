// What RECORD shows of a screen read: the value the agent gets, and the decoding of the request bytes.
import ShotguardImaging

/// One client reading pixels from the server, as the server dispatched the request: who asked,
/// which drawable, which rectangle, when. The strongest screenshot signal there is: it comes at
/// the moment of the read, before any file or clipboard change.
public struct ScreenRead: Sendable, Equatable {
    public enum Request: String, Sendable {
        case getImage = "GetImage", shmGetImage = "ShmGetImage"
    }

    public let request: Request
    /// The reading client's resource-id base (RECORD's `id_base`). The server gives it to the
    /// next client once this one ends (`ScreenReadEvent.clientEnded`).
    public let client: UInt32
    public let drawable: UInt
    /// The rectangle as requested, in the drawable's coordinates.
    public let area: Rect
    /// The server time RECORD stamped on the request (milliseconds, wrapping at 2^32).
    public let serverTime: UInt
    /// `monotonicNow()` when the source read it.
    public let receivedAt: Double
    /// The window whose contents `drawable` holds, when `drawable` is a pixmap a client named
    /// with Composite's `NameWindowPixmap` (a browser sharing one window reads it so); nil
    /// for a window, the root, or any other pixmap.
    public let pixmapWindow: UInt?
    /// The reading client's process id, from X-Resource, asked as the client connected (or at
    /// its first read, for a client that was there before recording began). Nil for a client
    /// over TCP (no local process), on a server without X-Resource 1.2, or when the client had
    /// gone before it could be asked.
    public let processID: Int32?

    public init(request: Request, client: UInt32, drawable: UInt, area: Rect, serverTime: UInt, receivedAt: Double,
                pixmapWindow: UInt? = nil, processID: Int32? = nil) {
        self.request = request
        self.client = client
        self.drawable = drawable
        self.area = area
        self.serverTime = serverTime
        self.receivedAt = receivedAt
        self.pixmapWindow = pixmapWindow
        self.processID = processID
    }
}

/// What the screen-read source hands over, in the server's order.
public enum ScreenReadEvent: Sendable, Equatable {
    case read(ScreenRead)
    /// A client that read the screen disconnected. The server may give its resource-id base to
    /// the next client at once (a screenshot tool's base often goes to the next tool run), so
    /// what was learnt of it, its process above all, must be forgotten here. The source
    /// forgets its own knowledge (pixmap names, the process) at this point too.
    case clientEnded(UInt32)
}

/// The extension opcodes a recorded request is told apart by: RECORD delivers an extension
/// request with the major opcode the server gave the extension, which differs between servers.
public struct RecordedOpcodes: Sendable, Equatable {
    /// MIT-SHM's major opcode (`ShmGetImage` is its minor 4), nil when the server has no MIT-SHM.
    public var sharedMemory: UInt8?
    /// Composite's major opcode (`NameWindowPixmap` is its minor 6), nil without Composite.
    public var composite: UInt8?

    public init(sharedMemory: UInt8?, composite: UInt8?) {
        self.sharedMemory = sharedMemory
        self.composite = composite
    }
}

/// A request the screen-read source records, decoded from the bytes the client sent.
public enum RecordedRequest: Sendable, Equatable {
    /// Core `GetImage` or MIT-SHM `ShmGetImage` of `area` of `drawable`.
    case read(ScreenRead.Request, drawable: UInt32, area: Rect)
    /// Composite's `NameWindowPixmap`: `pixmap` now names the contents of `window`.
    case nameWindowPixmap(window: UInt32, pixmap: UInt32)

    /// Core `X_GetImage`.
    public static let getImageOpcode: UInt8 = 73
    /// MIT-SHM's `X_ShmGetImage`.
    public static let shmGetImageMinor: UInt8 = 4
    /// Composite's `X_CompositeNameWindowPixmap`.
    public static let nameWindowPixmapMinor: UInt8 = 6

    /// Decodes one request as RECORD delivers it: the client's bytes, in the client's byte
    /// order (`swapped` when that differs from this machine's). Any client can send anything,
    /// so every field is read inside `bytes`, and a request counts only when its length is
    /// exactly its kind's: the server refuses any other (BadLength), so it reads nothing.
    /// A request in the BIG-REQUESTS form (a zero length, then 32 bits) gives nil: the server
    /// removes the long length before RECORD sees it, and libXtst then takes the next field for
    /// the length, so such an element's real size is unknown and nothing past its header is
    /// read. A client can hide a read that way, as it can by reading a copy in a pixmap.
    public static func decode(_ bytes: UnsafeRawBufferPointer, swapped: Bool, opcodes: RecordedOpcodes) -> RecordedRequest? {
        let header = RequestReader(bytes: bytes, swapped: swapped)
        guard let major = header.byte(0), let minor = header.byte(1), let units = header.card16(2), units != 0,
              Int(units) * 4 <= bytes.count else { return nil }
        let request = RequestReader(bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<Int(units) * 4]), swapped: swapped)
        if major == getImageOpcode, units == 5 { return request.read(.getImage) }
        if major == opcodes.sharedMemory, minor == shmGetImageMinor, units == 8 { return request.read(.shmGetImage) }
        if major == opcodes.composite, minor == nameWindowPixmapMinor, units == 3 {
            guard let window = request.card32(4), let pixmap = request.card32(8) else { return nil }
            return .nameWindowPixmap(window: window, pixmap: pixmap)
        }
        return nil
    }
}

/// Bounds-checked reads of a request's fields, swapping bytes when the client's order differs.
private struct RequestReader {
    let bytes: UnsafeRawBufferPointer
    let swapped: Bool

    func byte(_ offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    func card16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
        return swapped ? value.byteSwapped : value
    }

    func card32(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return swapped ? value.byteSwapped : value
    }

    /// `GetImage` (20 bytes) and `ShmGetImage` (32) share their first fields after the 4-byte
    /// header: drawable (32 bits), x, y (signed 16), width, height (unsigned 16). The rest
    /// (plane mask, format, segment) does not say where the pixels are.
    func read(_ kind: ScreenRead.Request) -> RecordedRequest? {
        guard let drawable = card32(4), let x = card16(8), let y = card16(10),
              let width = card16(12), let height = card16(14) else { return nil }
        let area = Rect(x: Int(Int16(bitPattern: x)), y: Int(Int16(bitPattern: y)), width: Int(width), height: Int(height))
        return .read(kind, drawable: drawable, area: area)
    }
}
