// AVIF through libavif, loaded on first use: a still image read, and written lossy or lossless like the original.
import CShotguardAVIF

/// How an AVIF is written. A redacted copy keeps whether the original was lossless (RGB
/// stored as is) or lossy, and its chroma (4:4:4 or 4:2:0); AVIF does not record its quality,
/// so a lossy copy is written at `quality` (90 by default).
public struct AVIFOptions: FormatSettings, Equatable {
    public var quality: Int
    public var lossless: Bool
    public var fullChroma: Bool
    /// The AV1 encoder's speed, 0-10: 8 encodes a 1080p screenshot in about a second here.
    public var speed: Int

    public static let standard = AVIFOptions(quality: 90)

    public init(quality: Int, lossless: Bool = false, fullChroma: Bool = true, speed: Int = 8) {
        self.quality = quality
        self.lossless = lossless
        self.fullChroma = fullChroma
        self.speed = speed
    }

    public var format: ImageFormat { .avif }

    public func encode(_ image: PixelBuffer, destination: String) throws(ImagingError) -> [UInt8] {
        try AVIFCodec.encode(image, options: self, destination: destination)
    }
}

public enum AVIFCodec: ImageFileCodec {
    /// An ISO media file whose `ftyp` box names the `avif` or `avis` brand.
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let fields = ByteFields(bytes, bigEndian: true)
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8), let size = fields.u32(0), size >= 16 else { return false }
        let end = min(size, bytes.count, 256)
        return stride(from: 8, to: end - 3, by: 4).contains { at in
            bytes[at..<(at + 4)].elementsEqual("avif".utf8) || bytes[at..<(at + 4)].elementsEqual("avis".utf8)
        }
    }

    /// Whether the top-level boxes (ftyp, meta, mdat…) follow each other to exactly the end of
    /// the bytes, with a `meta` box among them: a file still being written stops inside one.
    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let fields = ByteFields(bytes, bigEndian: true)
        var position = 0, sawMeta = false
        while position < bytes.count {
            guard let size32 = fields.u32(position), fields.contains(position + 4, length: 4) else { return false }
            let type = bytes[(position + 4)..<(position + 8)]
            if type.elementsEqual("meta".utf8) { sawMeta = true }
            var size = size32
            if size32 == 1 {
                guard let large = fields.u64(position + 8).flatMap({ Int(exactly: $0) }) else { return false }
                size = large
            } else if size32 == 0 {
                return sawMeta || type.elementsEqual("meta".utf8)  // the last box, to the end of the file
            }
            guard size >= 8, fields.contains(position, length: size) else { return false }
            position += size
        }
        return sawMeta
    }

    static func read(_ data: [UInt8], source: String, limits: DecodeLimits) throws(ImagingError) -> DecodedImage {
        let decoded = try decodeWithInfo(data, source: source, limits: limits)
        return DecodedImage(image: decoded.image, format: .avif, isLossy: decoded.info.identity_matrix == 0)
    }

    static var takesQuality: Bool { true }

    static func load(_ source: String) throws(ImagingError) {
        var reason = [CChar](repeating: 0, count: 512)
        guard sg_avif_load(&reason, reason.count) == 0 else {
            throw ImagingError(.io, source: source, "AVIF needs libavif: \(cText(reason))")
        }
    }

    /// Decodes a still AVIF (any depth and chroma, with or without alpha) into 8-bit B,G,R,A.
    /// An image sequence is an error, as an animated GIF is.
    public static func decode(_ data: [UInt8], source: String, limits: DecodeLimits = .standard) throws(ImagingError) -> PixelBuffer {
        try decodeWithInfo(data, source: source, limits: limits).image
    }

    private static func decodeWithInfo(_ data: [UInt8], source: String,
                                       limits: DecodeLimits) throws(ImagingError) -> (image: PixelBuffer, info: sg_avif_info) {
        try limits.checkInput(data, source: source)
        guard data.withUnsafeBytes({ hasSignature($0) && isComplete($0) }) else {
            throw ImagingError(data.withUnsafeBytes { hasSignature($0) } ? .truncated : .unknownFormat, source: source,
                               "not a whole AVIF (its boxes do not reach the end of the file)")
        }
        try load(source)
        var info = sg_avif_info()
        var reason = [CChar](repeating: 0, count: 256)
        let result = data.withUnsafeBufferPointer { bytes in
            Result { () throws(ImagingError) -> PixelBuffer in
                guard let reader = sg_avif_open(bytes.baseAddress, bytes.count, UInt32(clamping: limits.maxPixels), &info, &reason,
                                                reason.count) else {
                    throw ImagingError(.corrupt, source: source, cText(reason))
                }
                defer { sg_avif_close(reader) }
                let (width, height) = (Int(info.width), Int(info.height))
                if let reason = limits.exceeded(width: width, height: height) { throw ImagingError(.tooLarge, source: source, reason) }
                guard info.image_count == 1 else {
                    throw ImagingError(.unknownFormat, source: source, "AVIF is an image sequence: only still AVIF images are read")
                }
                var failed = false
                let pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
                    let raw = UnsafeMutableRawBufferPointer(buffer)
                    failed = sg_avif_read_bgra(reader, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count, &reason,
                                               reason.count) != 0
                    if failed { buffer.initialize(repeating: 0) }
                    count = width * height
                }
                guard !failed else { throw ImagingError(.corrupt, source: source, "AVIF \(cText(reason))") }
                let translucent = info.has_alpha != 0 && pixels.contains { $0 >> 24 != 0xFF }
                return PixelBuffer(width: width, height: height, pixels: pixels, hasAlpha: translucent)
            }
        }
        return (try result.get(), info)
    }

    static func encoding(named name: String, quality: Int?) -> ImageEncoding? {
        .settings(AVIFOptions(quality: quality ?? AVIFOptions.standard.quality))
    }

    static func encoding(matching original: [UInt8]) -> ImageEncoding? {
        guard (try? load("")) != nil else { return .settings(AVIFOptions.standard) }  // encode says why libavif is missing
        var info = sg_avif_info()
        var reason = [CChar](repeating: 0, count: 256)
        let reader = original.withUnsafeBufferPointer { bytes in
            sg_avif_open(bytes.baseAddress, bytes.count, UInt32(clamping: DecodeLimits.standard.maxPixels), &info, &reason, reason.count)
        }
        guard let reader else { return .settings(AVIFOptions.standard) }
        sg_avif_close(reader)
        return .settings(AVIFOptions(quality: AVIFOptions.standard.quality, lossless: info.identity_matrix != 0,
                                     fullChroma: info.yuv_format == 0))
    }

    /// `image` as a still AVIF with no Exif or XMP, through libavif's AV1 encoder.
    public static func encode(_ image: PixelBuffer, options: AVIFOptions, destination: String) throws(ImagingError) -> [UInt8] {
        guard (0...100).contains(options.quality), (0...10).contains(options.speed), image.width > 0, image.height > 0,
              image.width <= 65536, image.height <= 65536 else {
            throw ImagingError(.encode, source: destination, "cannot write a \(image.width)x\(image.height) image as AVIF "
                + "at quality \(options.quality)")
        }
        try load(destination)
        let settings = sg_avif_settings(quality: Int32(options.quality), lossless: options.lossless ? 1 : 0,
                                        full_chroma: options.fullChroma ? 1 : 0, speed: Int32(options.speed))
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var reason = [CChar](repeating: 0, count: 256)
        let status = image.pixels.withUnsafeBytes { pixels in
            sg_avif_write(pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), pixels.count, UInt32(image.width),
                          UInt32(image.height), image.hasAlpha ? 1 : 0, settings, &output, &length, &reason, reason.count)
        }
        guard status == 0, let output else {
            throw ImagingError(.encode, source: destination, "cannot write AVIF: \(cText(reason))")
        }
        defer { sg_avif_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}
