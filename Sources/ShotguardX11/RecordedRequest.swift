// The requests the screen-read source records, decoded from the bytes a client sent.
import ShotguardImaging

/// The extension opcodes a recorded request is told apart by: RECORD delivers an extension
/// request with the major opcode the server gave the extension, which differs between servers.
public struct RecordedOpcodes: Sendable, Equatable {
    /// MIT-SHM's major opcode (`ShmGetImage` is its minor 4), nil when the server has no MIT-SHM.
    public var sharedMemory: UInt8?
    /// Composite's major opcode (`NameWindowPixmap` is its minor 6), nil without Composite.
    public var composite: UInt8?
    /// DAMAGE's major opcode, nil without DAMAGE.
    public var damage: UInt8?
    /// RENDER's major opcode, nil without RENDER.
    public var render: UInt8?

    public init(sharedMemory: UInt8?, composite: UInt8?, damage: UInt8? = nil, render: UInt8? = nil) {
        self.sharedMemory = sharedMemory
        self.composite = composite
        self.damage = damage
        self.render = render
    }
}

/// A request the screen-read source records, decoded from the bytes the client sent.
public enum RecordedRequest: Sendable, Equatable {
    /// Core `GetImage` or MIT-SHM `ShmGetImage` of `area` of `drawable`.
    case read(ScreenRead.Request, drawable: UInt32, area: Rect)
    /// Core `CopyArea` or `CopyPlane` of `area` of `source` to (`x`, `y`) in `destination`.
    case copy(ScreenRead.Request, source: UInt32, destination: UInt32, area: Rect, x: Int, y: Int)
    /// RENDER's `Composite` of `area` of picture `source` to (`x`, `y`) of picture `destination`.
    case composite(source: UInt32, destination: UInt32, area: Rect, x: Int, y: Int)
    /// RENDER's `CreatePicture`: `picture` draws on or reads `drawable`.
    case createPicture(picture: UInt32, drawable: UInt32)
    case freePicture(UInt32)
    case freePixmap(UInt32)
    /// MIT-SHM's `ShmCreatePixmap`: a pixmap whose pixels are the client's shared memory.
    case sharedPixmap(UInt32)
    /// Composite's `RedirectWindow` or `RedirectSubwindows` of `window` (`on`), or their undoing.
    case redirect(window: UInt32, subwindows: Bool, on: Bool)
    /// Composite's `NameWindowPixmap`: `pixmap` now names the contents of `window`.
    case nameWindowPixmap(window: UInt32, pixmap: UInt32)
    /// DAMAGE's `DamageCreate` on `drawable`, or `DamageDestroy`.
    case damageCreate(damage: UInt32, drawable: UInt32)
    case damageDestroy(UInt32)
    /// Core `SetSelectionOwner` (the compositing manager takes `_NET_WM_CM_S0` so).
    case setSelectionOwner(owner: UInt32, selection: UInt32)

    /// Core opcodes.
    public static let getImageOpcode: UInt8 = 73
    public static let copyAreaOpcode: UInt8 = 62
    public static let copyPlaneOpcode: UInt8 = 63
    public static let freePixmapOpcode: UInt8 = 54
    public static let setSelectionOwnerOpcode: UInt8 = 22
    /// MIT-SHM's `X_ShmGetImage` and `X_ShmCreatePixmap`.
    public static let shmGetImageMinor: UInt8 = 4
    public static let shmCreatePixmapMinor: UInt8 = 5
    /// Composite's `RedirectWindow` (1) to `UnredirectSubwindows` (4), and `NameWindowPixmap`.
    public static let redirectWindowMinor: UInt8 = 1
    public static let unredirectSubwindowsMinor: UInt8 = 4
    public static let nameWindowPixmapMinor: UInt8 = 6
    /// DAMAGE's `DamageCreate` and `DamageDestroy`.
    public static let damageCreateMinor: UInt8 = 1
    public static let damageDestroyMinor: UInt8 = 2
    /// RENDER's `CreatePicture`, `FreePicture` and `Composite`.
    public static let createPictureMinor: UInt8 = 4
    public static let freePictureMinor: UInt8 = 7
    public static let compositeMinor: UInt8 = 8

    /// Decodes one request as RECORD delivers it: the client's bytes, in the client's byte
    /// order (`swapped` when that differs from this machine's). Any client can send anything,
    /// so every field is read inside `bytes`, and a request counts only when its length is
    /// exactly its kind's (at least its fixed part, for `CreatePicture`'s value list): the server
    /// refuses any other (BadLength), so it does nothing.
    /// A request in the BIG-REQUESTS form (a zero length, then 32 bits) gives nil: the server
    /// removes the long length before RECORD sees it, and libXtst then takes the next field for
    /// the length, so such an element's real size is unknown and nothing past its header is
    /// read. A client can hide a read that way, as it can by reading a copy in a pixmap.
    public static func decode(_ bytes: UnsafeRawBufferPointer, swapped: Bool, opcodes: RecordedOpcodes) -> RecordedRequest? {
        let header = RequestReader(bytes: bytes, swapped: swapped)
        guard let major = header.byte(0), let minor = header.byte(1), let units = header.card16(2), units != 0,
              Int(units) * 4 <= bytes.count else { return nil }
        let request = RequestReader(bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<Int(units) * 4]), swapped: swapped)
        switch major {
        case getImageOpcode where units == 5: return request.read(.getImage)
        case copyAreaOpcode where units == 7: return request.copy(.copyArea)
        case copyPlaneOpcode where units == 8: return request.copy(.copyPlane)
        case freePixmapOpcode where units == 2: return request.card32(4).map { .freePixmap($0) }
        case setSelectionOwnerOpcode where units == 4:
            guard let owner = request.card32(4), let selection = request.card32(8) else { return nil }
            return .setSelectionOwner(owner: owner, selection: selection)
        case opcodes.sharedMemory where minor == shmGetImageMinor && units == 8: return request.read(.shmGetImage)
        case opcodes.sharedMemory where minor == shmCreatePixmapMinor && units == 7: return request.card32(4).map { .sharedPixmap($0) }
        case opcodes.composite: return composite(request, minor: minor, units: units)
        case opcodes.damage: return damage(request, minor: minor, units: units)
        case opcodes.render: return render(request, minor: minor, units: units)
        default: return nil
        }
    }

    private static func composite(_ request: RequestReader, minor: UInt8, units: UInt16) -> RecordedRequest? {
        guard units == 3, let window = request.card32(4) else { return nil }
        switch minor {
        case redirectWindowMinor...unredirectSubwindowsMinor:
            // 1 RedirectWindow, 2 RedirectSubwindows, 3 UnredirectWindow, 4 UnredirectSubwindows.
            return .redirect(window: window, subwindows: minor % 2 == 0, on: minor <= 2)
        case nameWindowPixmapMinor:
            return request.card32(8).map { .nameWindowPixmap(window: window, pixmap: $0) }
        default:
            return nil
        }
    }

    private static func damage(_ request: RequestReader, minor: UInt8, units: UInt16) -> RecordedRequest? {
        guard let damage = request.card32(4) else { return nil }
        switch (minor, units) {
        case (damageCreateMinor, 4): return request.card32(8).map { .damageCreate(damage: damage, drawable: $0) }
        case (damageDestroyMinor, 2): return .damageDestroy(damage)
        default: return nil
        }
    }

    /// RENDER's `Composite` (36 bytes): after the header, op, 3 pad, src, mask, dst pictures,
    /// then src x, y, mask x, y, dst x, y (signed 16) and width, height (unsigned 16).
    private static func render(_ request: RequestReader, minor: UInt8, units: UInt16) -> RecordedRequest? {
        switch (minor, units) {
        case (createPictureMinor, 5...):
            guard let picture = request.card32(4), let drawable = request.card32(8) else { return nil }
            return .createPicture(picture: picture, drawable: drawable)
        case (freePictureMinor, 2):
            return request.card32(4).map { .freePicture($0) }
        case (compositeMinor, 9):
            guard let source = request.card32(8), let destination = request.card32(16), let x = request.int16(20),
                  let y = request.int16(22), let toX = request.int16(28), let toY = request.int16(30),
                  let width = request.card16(32), let height = request.card16(34) else { return nil }
            return .composite(source: source, destination: destination, area: Rect(x: x, y: y, width: Int(width), height: Int(height)),
                              x: toX, y: toY)
        default:
            return nil
        }
    }
}

/// Bounds-checked reads of a request's fields, swapping bytes when the client's order differs.
struct RequestReader {
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

    func int16(_ offset: Int) -> Int? {
        card16(offset).map { Int(Int16(bitPattern: $0)) }
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
        guard let drawable = card32(4), let x = int16(8), let y = int16(10), let width = card16(12), let height = card16(14) else {
            return nil
        }
        return .read(kind, drawable: drawable, area: Rect(x: x, y: y, width: Int(width), height: Int(height)))
    }

    /// `CopyArea` (28 bytes) and `CopyPlane` (32): src, dst, gc, then src x, y, dst x, y (signed
    /// 16), width, height (unsigned 16); CopyPlane's bit plane follows.
    func copy(_ kind: ScreenRead.Request) -> RecordedRequest? {
        guard let source = card32(4), let destination = card32(8), let x = int16(16), let y = int16(18),
              let toX = int16(20), let toY = int16(22), let width = card16(24), let height = card16(26) else { return nil }
        return .copy(kind, source: source, destination: destination, area: Rect(x: x, y: y, width: Int(width), height: Int(height)),
                     x: toX, y: toY)
    }
}
