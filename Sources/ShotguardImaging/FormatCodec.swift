// What one image format's codec gives the registry (ImageFormat): signature, completeness, reading, writing.

/// One image format's codec, as the registry sees it. A new format is a type conforming to
/// this in its own file, and one case of `ImageFormat` naming it: reading by bytes, the file
/// watcher's extensions and completeness checks, `matching(original:)` and the command line's
/// `--format` all come from here.
protocol ImageFileCodec {
    /// Whether `bytes` start like this format (enough of a header to tell, not a whole file).
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Whether `bytes` hold a whole file, as far as its framing shows: a tool still writing it fails this.
    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// The image, within `limits` (checked before any pixel memory is allocated).
    static func read(_ data: [UInt8], source: String, limits: DecodeLimits) throws(ImagingError) -> DecodedImage
    /// How a file named with `name` (an extension or a `--format` value of this format) is
    /// written, at `quality` where the format takes one; nil for a format only read.
    static func encoding(named name: String, quality: Int?) -> ImageEncoding?
    /// How a redacted copy of `original` (a file of this format) is written: the same format
    /// and settings. Nil for a format only read.
    static func encoding(matching original: [UInt8]) -> ImageEncoding?
    /// Whether `--quality` applies to this format's writer.
    static var takesQuality: Bool { get }
}

extension ImageFileCodec {
    static var takesQuality: Bool { false }
}

/// How one format is written beyond its pixels (a palette kept, a compression, a byte order),
/// for formats whose settings the codec alone knows: `ImageEncoding.settings` carries them.
public protocol FormatSettings: Sendable {
    var format: ImageFormat { get }
    func encode(_ image: PixelBuffer, destination: String) throws(ImagingError) -> [UInt8]
}

/// What the registry holds for a format: its display name, its names (extensions, `--format`
/// values; the first is the one written) and its codec.
struct FormatEntry {
    let title: String
    let names: [String]
    let codec: any ImageFileCodec.Type
}
