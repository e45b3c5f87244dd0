// The image formats shotguard reads and writes, told apart by their bytes or a file name.

/// An image file format.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, webp, bmp

    /// The format whose signature starts `bytes`, or nil for anything else.
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        if bytes.count >= 8, zip(bytes.prefix(8), PNGChunks.signature).allSatisfy({ $0 == $1 }) { return .png }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= 12, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        if BMPCodec.hasSignature(bytes) { return .bmp }
        return nil
    }

    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? { bytes.withUnsafeBytes { sniff($0) } }

    /// The format a file name's extension names (`.png`, `.jpg`, `.jpeg`, `.webp`, `.bmp`, any case).
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(name: String(path[path.index(after: dot)...]))
    }

    /// The format a `--format` value or an extension names: png, jpeg (or jpg), webp, bmp.
    public init?(name: String) {
        switch name.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        case "bmp": self = .bmp
        default: return nil
        }
    }

    /// Whether `bytes` hold a whole file of this format, as far as its framing shows: PNG up
    /// to `IEND`, JPEG up to the `EOI` marker after its last scan, WebP as long as its RIFF
    /// header says, BMP every row its headers promise. A tool still writing the file fails this.
    public func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard ImageFormat.sniff(bytes) == self else { return false }
        switch self {
        case .png:
            do { return try PNGChunks(bytes, source: "").isComplete } catch { return false }  // not a PNG: not complete
        case .jpeg: return JPEGMarkers.endsWithEOI(bytes)
        case .webp:
            let size = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
            return bytes.count >= 8 + size
        case .bmp: return BMPCodec.isComplete(bytes)
        }
    }

    public func isComplete(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { isComplete($0) } }
}
