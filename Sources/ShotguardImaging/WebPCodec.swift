// WebP decoding and encoding through libwebp's simple API (no callbacks, errors as return values).
import CWebP

/// How to write a WebP.
public struct WebPOptions: Sendable, Equatable {
    /// Lossy quality 0-100; ignored when `lossless`.
    public var quality: Int
    public var lossless: Bool

    public static let standard = WebPOptions(quality: 90, lossless: false)

    public init(quality: Int, lossless: Bool = false) {
        self.quality = quality
        self.lossless = lossless
    }
}

public enum WebPCodec {
    /// Decodes a still WebP (lossy, lossless, with or without alpha) into B,G,R,A pixels. The
    /// size is checked against `limits` from the header before any pixel memory is allocated;
    /// an animated or truncated file is an error.
    public static func decode(
        _ data: [UInt8], source: String, limits: DecodeLimits = .standard
    ) throws(ImagingError) -> PixelBuffer {
        try limits.checkInput(data, source: source)
        guard ImageFormat.sniff(data) == .webp else {
            throw ImagingError(.unknownFormat, source: source, "not a WebP file (no RIFF WEBP header)")
        }
        guard ImageFormat.webp.isComplete(data) else {
            throw ImagingError(.truncated, source: source, "WebP is truncated (shorter than its RIFF header says)")
        }
        guard let features = features(of: data) else {
            throw ImagingError(.corrupt, source: source, "not a readable WebP (bad bitstream header)")
        }
        guard features.has_animation == 0 else {
            throw ImagingError(.corrupt, source: source, "animated WebP is not a screenshot (only still images are read)")
        }
        let (w, h) = (Int(features.width), Int(features.height))
        guard w > 0, h > 0, w <= limits.maxWidth, h <= limits.maxHeight, w * h <= limits.maxPixels else {
            throw ImagingError(
                .tooLarge, source: source,
                "image is \(w)x\(h), over the limit of \(limits.maxWidth)x\(limits.maxHeight) and \(limits.maxPixels) pixels")
        }
        var decoded = true
        let pixels = [UInt32](unsafeUninitializedCapacity: w * h) { buffer, count in
            let bytes = UnsafeMutableRawBufferPointer(buffer)
            decoded = data.withUnsafeBufferPointer { input in
                WebPDecodeBGRAInto(input.baseAddress, input.count, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                   bytes.count, Int32(w * 4))
            } != nil
            if !decoded { buffer.initialize(repeating: 0) }
            // A lossless bitstream may carry alpha values its header says are unused; an image
            // without alpha has 0xFF in every fourth byte, so the header wins.
            if decoded, features.has_alpha == 0 {
                for index in 0..<(w * h) { buffer[index] |= 0xFF00_0000 }
            }
            count = w * h
        }
        guard decoded else { throw ImagingError(.corrupt, source: source, "WebP data is corrupt") }
        return PixelBuffer(width: w, height: h, pixels: pixels, hasAlpha: features.has_alpha != 0)
    }

    /// Whether the file is lossless (VP8L), as far as its header shows.
    static func isLossless(_ data: [UInt8]) -> Bool { features(of: data)?.format == 2 }

    private static func features(of data: [UInt8]) -> WebPBitstreamFeatures? {
        var features = WebPBitstreamFeatures()
        let status = data.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        return status == VP8_STATUS_OK ? features : nil
    }

    /// Encodes `image` as a still WebP with no metadata chunks. An opaque image gets no alpha
    /// channel (libwebp leaves it out when every alpha byte is 0xFF).
    public static func encode(
        _ image: PixelBuffer, options: WebPOptions = .standard, destination: String
    ) throws(ImagingError) -> [UInt8] {
        guard (0...100).contains(options.quality) else {
            throw ImagingError(.encode, source: destination, "WebP quality \(options.quality) is not in 0-100")
        }
        guard image.width <= 16383, image.height <= 16383 else {
            throw ImagingError(.encode, source: destination, "WebP holds at most 16383x16383 pixels, not \(image.width)x\(image.height)")
        }
        // A capture's fourth byte may be anything but alpha; make it opaque for libwebp.
        let source = image.hasAlpha ? image.pixels : image.pixels.map { $0 | 0xFF00_0000 }
        var output: UnsafeMutablePointer<UInt8>?
        let size = source.withUnsafeBytes { pixels in
            let base = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return options.lossless
                ? WebPEncodeLosslessBGRA(base, Int32(image.width), Int32(image.height), Int32(image.width * 4), &output)
                : WebPEncodeBGRA(base, Int32(image.width), Int32(image.height), Int32(image.width * 4), Float(options.quality), &output)
        }
        defer { if let output { WebPFree(output) } }
        guard size > 0, let output else {
            throw ImagingError(.encode, source: destination, "cannot encode WebP (libwebp failed on a \(image.width)x\(image.height) image)")
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
