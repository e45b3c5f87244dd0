// PNG decoding through libpng's simplified API, which keeps its setjmp inside libpng.
import CShotguardPNG

/// Bounds on what a PNG may cost before any pixel memory is allocated.
public struct DecodeLimits: Sendable {
    public var maxWidth: Int
    public var maxHeight: Int
    public var maxPixels: Int
    public var maxInputBytes: Int

    /// Generous defaults: three 4K monitors side by side fit with room to spare.
    public static let standard = DecodeLimits(
        maxWidth: 32768, maxHeight: 32768, maxPixels: 64 * 1024 * 1024, maxInputBytes: 256 * 1024 * 1024)

    public init(maxWidth: Int, maxHeight: Int, maxPixels: Int, maxInputBytes: Int) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxPixels = maxPixels
        self.maxInputBytes = maxInputBytes
    }

    /// Refuses an input larger than `maxInputBytes` before anything of it is decoded.
    public func checkInput(_ data: [UInt8], source: String) throws(ImagingError) {
        guard data.count <= maxInputBytes else {
            throw ImagingError(.tooLarge, source: source, "file is \(data.count) bytes, over the limit of \(maxInputBytes)")
        }
    }

    /// Which limit an image of `width`x`height` exceeds, as a sentence; nil when it fits.
    public func exceeded(width: Int, height: Int) -> String? {
        if width > maxWidth { return "image is \(width)x\(height), wider than the limit of \(maxWidth) pixels" }
        if height > maxHeight { return "image is \(width)x\(height), taller than the limit of \(maxHeight) pixels" }
        // Both sides are at most 2^31 here (PNG's own limit), so the product cannot overflow.
        let pixels = width.multipliedReportingOverflow(by: height)
        if pixels.overflow || pixels.partialValue > maxPixels {
            return "image is \(width)x\(height) (\(pixels.overflow ? "too many" : String(pixels.partialValue)) pixels), "
                + "over the limit of \(maxPixels) pixels"
        }
        return nil
    }
}

public enum PNGDecoder {
    /// Decodes any PNG (every colour type and bit depth, interlaced, palette, tRNS) into
    /// B,G,R,A pixels. Sample values are kept as stored: gamma and colour-space chunks are
    /// ignored, 16-bit samples are scaled to 8 bits with rounding.
    public static func decode(
        _ data: [UInt8], source: String, limits: DecodeLimits = .standard
    ) throws(ImagingError) -> PixelBuffer {
        try limits.checkInput(data, source: source)
        if let decoded = try fastDecode(data, source: source, limits: limits) { return decoded }
        let prepared = data.withUnsafeBytes { bytes -> Result<[UInt8], ImagingError> in
            Result { () throws(ImagingError) in
                let chunks = try PNGChunks(bytes, source: source)
                guard chunks.isComplete else {
                    throw ImagingError(.truncated, source: source, "PNG is truncated (no IEND chunk)")
                }
                return chunks.hasColourSpaceChunks ? try PNGChunks.withoutColourSpaceChunks(bytes, source: source) : data
            }
        }
        return try decodePrepared(try prepared.get(), source: source, limits: limits)
    }

    /// 8-bit RGB and RGBA files without interlacing (what screenshot tools write) are inflated
    /// by libdeflate in one call (CShotguardPNG's decode.c). Nil when the file is of another
    /// kind or its data is corrupt: libpng then reads it, or words the error.
    private static func fastDecode(
        _ data: [UInt8], source: String, limits: DecodeLimits
    ) throws(ImagingError) -> PixelBuffer? {
        guard let header = FastPNGHeader(data) else { return nil }
        return try fastDecode(data, probed: header, source: source, limits: limits)
    }

    /// The fast path on `data` with what a probe said of it, which the decoder trusts only as
    /// a bound: bytes that are not the ones probed (cut short, grown, chunk lengths that lie)
    /// give nil, as corrupt data does.
    static func fastDecode(
        _ data: [UInt8], probed header: FastPNGHeader, source: String, limits: DecodeLimits
    ) throws(ImagingError) -> PixelBuffer? {
        // The limits hold before any pixel memory is allocated.
        if let exceeded = limits.exceeded(width: header.width, height: header.height) {
            throw ImagingError(.tooLarge, source: source, exceeded)
        }
        let count = header.width * header.height
        var status: Int32 = 0
        let pixels = data.withUnsafeBufferPointer { bytes in
            [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
                status = sg_png_fast_decode(bytes.baseAddress, bytes.count, UInt32(header.width), UInt32(header.height),
                                            header.hasAlpha ? 1 : 0, header.idatSize, buffer.baseAddress, buffer.count)
                if status != 0 { buffer.initialize(repeating: 0) }
                initialized = count
            }
        }
        switch Int(status) {
        case SG_PNG_OK:
            return PixelBuffer(width: header.width, height: header.height, pixels: pixels, hasAlpha: header.hasAlpha)
        case SG_PNG_BAD_BUFFER:
            throw ImagingError(pngStatus: status, source: source, "cannot decode PNG", [], otherwise: .corrupt)
        default:
            return nil
        }
    }

    private static func decodePrepared(
        _ data: [UInt8], source: String, limits: DecodeLimits
    ) throws(ImagingError) -> PixelBuffer {
        let decoded = data.withUnsafeBytes { bytes -> Result<PixelBuffer, ImagingError> in
            Result { () throws(ImagingError) in try decode(memory: bytes, source: source, limits: limits) }
        }
        return try decoded.get()
    }

    /// libpng keeps the pointer it is given at `begin_read` until the image is freed, so the
    /// whole read, begin to finish and free, happens in here, while `bytes` is valid.
    private static func decode(
        memory bytes: UnsafeRawBufferPointer, source: String, limits: DecodeLimits
    ) throws(ImagingError) -> PixelBuffer {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw ImagingError(.corrupt, source: source, "not a readable PNG: \(message(of: &image))")
        }
        defer { png_image_free(&image) }

        let width = Int(image.width)
        let height = Int(image.height)
        if let exceeded = limits.exceeded(width: width, height: height) {
            throw ImagingError(.tooLarge, source: source, exceeded)
        }
        let hasAlpha = image.format & png_uint_32(PNG_FORMAT_FLAG_ALPHA) != 0
        let pixelCount = width * height
        var failed = false
        let pixels: [UInt32]
        if image.format & png_uint_32(PNG_FORMAT_FLAG_LINEAR) != 0 {
            // 16-bit samples. libpng 1.6.39's simplified reader garbles interlaced 16-bit files
            // when it reduces them to 8 bits itself, so read 16-bit linear (no gamma change for
            // a file without gAMA) and reduce here.
            image.format = sg_png_format_linear_rgba
            var wide = [UInt16](repeating: 0, count: pixelCount * 4)
            failed = wide.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) } == 0
            pixels = failed ? [] : reduceTo8Bits(premultiplied: wide)
        } else {
            image.format = sg_png_format_bgra
            pixels = [UInt32](unsafeUninitializedCapacity: pixelCount) { buffer, count in
                failed = png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil) == 0
                if failed { buffer.initialize(repeating: 0) }
                count = pixelCount
            }
        }
        guard !failed else {
            throw ImagingError(.corrupt, source: source, "PNG data is corrupt: \(message(of: &image))")
        }
        return PixelBuffer(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
    }

    /// 16-bit R,G,B,A with colour premultiplied by alpha (libpng's linear format) to 8-bit
    /// B,G,R,A with straight alpha, rounding to nearest.
    private static func reduceTo8Bits(premultiplied wide: [UInt16]) -> [UInt32] {
        func to8(_ value: UInt32) -> UInt32 { (value * 255 + 32767) / 65535 }
        return [UInt32](unsafeUninitializedCapacity: wide.count / 4) { buffer, count in
            for index in 0..<(wide.count / 4) {
                let alpha = UInt32(wide[index * 4 + 3])
                func straight(_ channel: Int) -> UInt32 {
                    let value = UInt32(wide[index * 4 + channel])
                    guard alpha != 65535 else { return to8(value) }
                    guard alpha != 0 else { return 0 }
                    return to8(min(65535, (value * 65535 + alpha / 2) / alpha))
                }
                buffer[index] = to8(alpha) << 24 | straight(0) << 16 | straight(1) << 8 | straight(2)
            }
            count = wide.count / 4
        }
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// What the fast path's probe (decode.c) reads of a PNG it takes: 8-bit RGB or RGBA, not
/// interlaced, no tRNS or PLTE, good CRCs on its critical chunks. Nil for any other PNG.
struct FastPNGHeader {
    let width: Int
    let height: Int
    let hasAlpha: Bool
    /// The total of its IDAT chunks' data.
    let idatSize: Int

    init?(_ data: [UInt8]) {
        var width: UInt32 = 0, height: UInt32 = 0, alpha: Int32 = 0, idatSize = 0
        let taken = data.withUnsafeBufferPointer { bytes in
            sg_png_fast_probe(bytes.baseAddress, bytes.count, &width, &height, &alpha, &idatSize) == 1
        }
        guard taken else { return nil }
        self.width = Int(width)
        self.height = Int(height)
        hasAlpha = alpha != 0
        self.idatSize = idatSize
    }
}
