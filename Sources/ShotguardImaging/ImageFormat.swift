// The image formats shotguard reads and writes: the one list, each told apart by its bytes or a file name.
import ShotguardBase

/// An image file format. Each case names its codec in `entry`: that line is the registry.
public enum ImageFormat: String, Sendable, CaseIterable {
    // In the order their signatures are tried: XWD, which has no magic number, last.
    case png, jpeg, webp, bmp, gif, tiff, pnm, ico, avif, xwd

    var entry: FormatEntry {
        switch self {
        case .png: return FormatEntry(title: "PNG", names: ["png"], codec: PNGFile.self)
        case .jpeg: return FormatEntry(title: "JPEG", names: ["jpg", "jpeg"], codec: JPEGFile.self)
        case .webp: return FormatEntry(title: "WebP", names: ["webp"], codec: WebPFile.self)
        case .bmp: return FormatEntry(title: "BMP", names: ["bmp"], codec: BMPFile.self)
        case .gif: return FormatEntry(title: "GIF", names: ["gif"], codec: GIFCodec.self)
        case .tiff: return FormatEntry(title: "TIFF", names: ["tiff", "tif"], codec: TIFFCodec.self)
        case .pnm: return FormatEntry(title: "PNM", names: ["ppm", "pgm", "pbm", "pnm", "pam"], codec: PNMCodec.self)
        case .ico: return FormatEntry(title: "ICO", names: ["ico"], codec: ICOCodec.self)
        case .avif: return FormatEntry(title: "AVIF", names: ["avif"], codec: AVIFCodec.self)
        case .xwd: return FormatEntry(title: "XWD", names: ["xwd"], codec: XWDCodec.self)
        }
    }

    /// The name people know the format by: PNG, JPEG, WebP…
    public var title: String { entry.title }
    /// Its file name extensions (lowercase), the one written first.
    public var names: [String] { entry.names }
    /// Whether shotguard writes this format (every format it reads, where a library allows).
    public var isWritable: Bool { entry.codec.encoding(named: names[0], quality: nil) != nil }
    /// Whether `--quality` applies to it.
    public var takesQuality: Bool { entry.codec.takesQuality }

    /// Every extension of every format and the format it names: the one map from a file's
    /// name to its format (the file watcher looks up every name it is told of here).
    private static let byName = Dictionary(allCases.flatMap { format in format.names.map { ($0, format) } },
                                           uniquingKeysWith: { first, _ in first })
    /// The extensions and `--format` values of the formats shotguard writes, in order.
    public static var writableNames: [String] { allCases.filter(\.isWritable).flatMap(\.names) }
    /// The formats' titles as a list for a sentence: "PNG, JPEG, … or XWD" (`last` joins the last two).
    public static func titles(_ formats: [ImageFormat] = allCases, last: String = "or") -> String {
        String(listing: formats.map(\.title), last: last)
    }

    /// The format whose signature starts `bytes`, or nil for anything else.
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        allCases.first { $0.entry.codec.hasSignature(bytes) }
    }

    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? { bytes.withUnsafeBytes { sniff($0) } }

    /// The extension of a file name or path as written (after its last dot, in its last
    /// component), whether or not it names a format; nil when it has none.
    public static func fileExtension(of path: String) -> Substring? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return path[path.index(after: dot)...]
    }

    /// The format a file name's extension names (`.png`, `.jpg`, `.tif`, `.ppm`…, any case).
    public init?(path: String) {
        guard let written = ImageFormat.fileExtension(of: path) else { return nil }
        self.init(name: String(written))
    }

    /// The format a `--format` value or an extension names (any of `names`, any case).
    public init?(name: String) {
        guard let format = ImageFormat.byName[name.lowercased()] else { return nil }
        self = format
    }

    /// Whether `bytes` hold a whole file of this format, as far as its framing shows: PNG up
    /// to `IEND`, JPEG up to the `EOI` marker after its last scan, GIF up to its trailer, the
    /// others every byte their headers promise. A tool still writing the file fails this.
    public func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        ImageFormat.sniff(bytes) == self && entry.codec.isComplete(bytes)
    }

    public func isComplete(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { isComplete($0) } }
}
