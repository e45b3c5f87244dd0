// Reading any supported format by its bytes, and writing by a chosen format and quality.

/// How an image is written: its format and, for lossy formats, the settings.
public enum ImageEncoding: Sendable {
    case png(EncodeOptions)
    case jpeg(JPEGOptions)
    case webp(WebPOptions)
    /// 24-bit, uncompressed: what screenshot tools write when asked for a BMP.
    case bmp

    public var format: ImageFormat {
        switch self {
        case .png: return .png
        case .jpeg: return .jpeg
        case .webp: return .webp
        case .bmp: return .bmp
        }
    }

    /// The default encoding of `format`; `quality` (when given) for JPEG and lossy WebP.
    public static func standard(_ format: ImageFormat, quality: Int? = nil) -> ImageEncoding {
        switch format {
        case .png: return .png(.fast)
        case .jpeg: return .jpeg(JPEGOptions(quality: quality ?? JPEGOptions.standard.quality))
        case .webp: return .webp(WebPOptions(quality: quality ?? WebPOptions.standard.quality))
        case .bmp: return .bmp
        }
    }

    /// An encoding that keeps an original file's format, for writing a redacted copy in its
    /// place: PNG as PNG; JPEG at the quality estimated from its quantisation tables (90 when
    /// they do not say) and its chroma subsampling (full or halved); WebP lossless or lossy at
    /// quality 90 (WebP does not record its quality); BMP as 24-bit BMP. Nil when the bytes are
    /// none of these.
    public static func matching(original data: [UInt8]) -> ImageEncoding? {
        switch ImageFormat.sniff(data) {
        case .png: return .png(.fast)
        case .jpeg:
            let quality = JPEGQuality.estimate(data) ?? JPEGQuality.fallback
            return .jpeg(JPEGOptions(quality: quality, fullChroma: JPEGDecoder.isFullChroma(data)))
        case .webp: return .webp(WebPOptions(quality: WebPOptions.standard.quality, lossless: WebPCodec.isLossless(data)))
        case .bmp: return .bmp
        case nil: return nil
        }
    }
}

/// An image read from bytes, with the format it was in.
public struct DecodedImage: Sendable {
    public var image: PixelBuffer
    public var format: ImageFormat
    /// Whether the pixels went through lossy coding (JPEG, lossy WebP), so they only come
    /// close to the pixels that were on screen.
    public var isLossy: Bool
}

public enum ImageCodec {
    /// Decodes PNG, JPEG, WebP or BMP, chosen by the bytes' signature (never by a file name), with
    /// the same limits for each. Anything else is an `.unknownFormat` error.
    public static func decode(
        _ data: [UInt8], source: String, limits: DecodeLimits = .standard
    ) throws(ImagingError) -> DecodedImage {
        switch ImageFormat.sniff(data) {
        case .png: return DecodedImage(image: try PNGDecoder.decode(data, source: source, limits: limits), format: .png, isLossy: false)
        case .jpeg:
            return DecodedImage(image: try JPEGDecoder.decode(data, source: source, limits: limits), format: .jpeg, isLossy: true)
        case .webp:
            return DecodedImage(image: try WebPCodec.decode(data, source: source, limits: limits), format: .webp,
                                isLossy: !WebPCodec.isLossless(data))
        case .bmp: return DecodedImage(image: try BMPCodec.decode(data, source: source, limits: limits), format: .bmp, isLossy: false)
        case nil:
            throw ImagingError(.unknownFormat, source: source, "not a PNG, JPEG, WebP or BMP image (unknown signature)")
        }
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
        }
    }
}
