// Reading any supported format by its bytes, and writing by a chosen format and quality.

/// How an image is written: its format and, for lossy formats, the settings.
public enum ImageEncoding: Sendable {
    case png(EncodeOptions)
    case jpeg(JPEGOptions)
    case webp(WebPOptions)
    /// 24-bit, uncompressed: what screenshot tools write when asked for a BMP.
    case bmp
    /// Any other format, with the settings its codec keeps (GIF's palette, TIFF's compression…).
    case settings(any FormatSettings)

    public var format: ImageFormat {
        switch self {
        case .png: return .png
        case .jpeg: return .jpeg
        case .webp: return .webp
        case .bmp: return .bmp
        case .settings(let settings): return settings.format
        }
    }

    /// The default encoding of `format`; `quality` (when given) where the format takes one.
    /// Only for a format that is written (`ImageFormat.isWritable`): PNG for one that is not.
    public static func standard(_ format: ImageFormat, quality: Int? = nil) -> ImageEncoding {
        named(format.names[0], quality: quality) ?? .png(.fast)
    }

    /// How a file with the extension (or `--format` value) `name` is written, at `quality`
    /// where the format takes one: `pgm` writes a grey PNM, `ppm` a colour one. Nil for a name
    /// of no format, or of a format only read.
    public static func named(_ name: String, quality: Int? = nil) -> ImageEncoding? {
        ImageFormat(name: name)?.entry.codec.encoding(named: name.lowercased(), quality: quality)
    }

    /// An encoding that keeps an original file's format and settings, for writing a redacted
    /// copy in its place: PNG as PNG; JPEG at the quality estimated from its quantisation
    /// tables (90 when they do not say) and its chroma subsampling; WebP lossless or lossy at
    /// quality 90 (WebP does not record its quality); BMP as 24-bit BMP; each other format as
    /// its codec says (its palette, compression, byte order, variant). Nil when the bytes are
    /// none of these, or of a format only read.
    public static func matching(original data: [UInt8]) -> ImageEncoding? {
        ImageFormat.sniff(data)?.entry.codec.encoding(matching: data)
    }
}

/// An image read from bytes, with the format it was in.
public struct DecodedImage: Sendable {
    public var image: PixelBuffer
    public var format: ImageFormat
    /// Whether the pixels went through lossy coding (JPEG, lossy WebP or AVIF), so they only
    /// come close to the pixels that were on screen.
    public var isLossy: Bool

    public init(image: PixelBuffer, format: ImageFormat, isLossy: Bool = false) {
        self.image = image
        self.format = format
        self.isLossy = isLossy
    }
}

public enum ImageCodec {
    /// Decodes any format of `ImageFormat`, chosen by the bytes' signature (never by a file
    /// name), with the same limits for each. Anything else is an `.unknownFormat` error.
    public static func decode(
        _ data: [UInt8], source: String, limits: DecodeLimits = .standard
    ) throws(ImagingError) -> DecodedImage {
        guard let format = ImageFormat.sniff(data) else {
            throw ImagingError(.unknownFormat, source: source, "not a \(ImageFormat.titles()) image (unknown signature)")
        }
        try limits.checkInput(data, source: source)
        return try format.entry.codec.read(data, source: source, limits: limits)
    }

    /// Encodes `image` as `encoding` says. No metadata from any input is written.
    public static func encode(
        _ image: PixelBuffer, as encoding: ImageEncoding, destination: String
    ) throws(ImagingError) -> [UInt8] {
        switch encoding {
        case .png(let options): return try PNGEncoder.encode(image, options: options, destination: destination)
        case .jpeg(let options): return try JPEGEncoder.encode(image, options: options, destination: destination)
        case .webp(let options): return try WebPCodec.encode(image, options: options, destination: destination)
        case .bmp: return try BMPCodec.encode(image, destination: destination)
        case .settings(let settings): return try settings.encode(image, destination: destination)
        }
    }
}
