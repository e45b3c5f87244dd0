// PNG encoding straight from the 32-bit buffer, through the C shim that owns libpng's setjmp.
import CShotguardPNG

/// How to trade PNG size for speed.
public struct EncodeOptions: Sendable {
    public enum Filter: Int32, Sendable {
        case none = 0, sub = 1, up = 2
    }

    /// zlib level 0-9.
    public var compressionLevel: Int
    public var filter: Filter

    /// Level 1 with no row filter. On 1080p screenshot-like images (text, flat UI, a photo-like
    /// area) NONE was both the fastest and the smallest fixed filter at level 1: 40 ms / 1.10 MB
    /// against UP 42 ms / 1.12 MB and SUB 44 ms / 1.14 MB; adaptive filtering cost 76 ms for
    /// 3 % less (and cannot be split across threads). `--compression N` trades speed for size.
    public static let fast = EncodeOptions(compressionLevel: 1, filter: .none)

    public init(compressionLevel: Int, filter: Filter) {
        self.compressionLevel = compressionLevel
        self.filter = filter
    }
}

public enum PNGEncoder {
    /// Encodes `image` as RGB (or RGBA when it has alpha), with only IHDR, IDAT and IEND:
    /// no metadata from any input survives.
    public static func encode(
        _ image: PixelBuffer, options: EncodeOptions = .fast, destination: String
    ) throws(ImagingError) -> [UInt8] {
        var buffer = sg_png_buffer()
        var message = [CChar](repeating: 0, count: 256)
        let status = image.pixels.withUnsafeBytes { pixels in
            sg_png_encode_bgrx(
                pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(image.width), UInt32(image.height),
                image.width * 4, image.hasAlpha ? 1 : 0, Int32(options.compressionLevel), options.filter.rawValue,
                &buffer, &message, message.count)
        }
        defer { sg_png_buffer_free(&buffer) }
        guard status == 0, let data = buffer.data else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImagingError(.encode, source: destination, "cannot encode PNG: \(reason)")
        }
        return Array(UnsafeBufferPointer(start: data, count: buffer.size))
    }
}
