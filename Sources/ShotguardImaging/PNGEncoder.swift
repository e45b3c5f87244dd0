// PNG encoding straight from 32-bit pixels (a PixelBuffer or an X image's rows) through the C shim.
import CShotguardPNG

/// How to trade PNG size for speed.
public struct EncodeOptions: Sendable {
    public enum Filter: Int32, Sendable {
        /// One filter for every row.
        case none = 0, sub = 1, up = 2
        /// Chosen per band, then per row: a mostly flat band with sharp changes (text, flat UI)
        /// unfiltered, any other each row the one of NONE, SUB and UP whose bytes are closest to
        /// zero (libpng's heuristic).
        case adaptive = 5
    }

    /// Compression level 0-9 (libdeflate's scale, which follows zlib's).
    public var compressionLevel: Int
    public var filter: Filter
    /// Rows per compressed band; 0 picks bands of just under 64 KiB. Tests set it to join many.
    public var bandRows: Int

    /// Level 1 with a filter chosen per band and row: on 1080p screenshot-like content
    /// (docs/performance.md) as fast as no filter (the filtered rows compress faster) and 12 %
    /// smaller, 0.94 times scrot's size.
    public static let fast = EncodeOptions(compressionLevel: 1, filter: .adaptive)

    public init(compressionLevel: Int, filter: Filter, bandRows: Int = 0) {
        self.compressionLevel = compressionLevel
        self.filter = filter
        self.bandRows = bandRows
    }
}

/// 32-bit B,G,R,X pixels in memory someone else owns, rows `bytesPerRow` apart: an X image.
public struct PixelRows {
    public let base: UnsafeMutableRawPointer
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int

    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        precondition(width > 0 && height > 0 && bytesPerRow >= width * 4, "pixel rows do not hold the size")
        self.base = base
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }
}

public enum PNGEncoder {
    /// Encodes `image` as RGB (or RGBA when it has alpha), with only IHDR, IDAT and IEND:
    /// no metadata from any input survives.
    public static func encode(
        _ image: PixelBuffer, options: EncodeOptions = .fast, destination: String
    ) throws(ImagingError) -> [UInt8] {
        let result = image.pixels.withUnsafeBytes { pixels in
            Result { () throws(ImagingError) in
                try encode(pixels.baseAddress!, width: image.width, height: image.height, bytesPerRow: image.width * 4,
                           hasAlpha: image.hasAlpha, options: options, destination: destination)
            }
        }
        return try result.get()
    }

    /// Encodes opaque `rows` as RGB, reading them in place (no copy of the frame).
    public static func encode(
        _ rows: PixelRows, options: EncodeOptions = .fast, destination: String
    ) throws(ImagingError) -> [UInt8] {
        try encode(UnsafeRawPointer(rows.base), width: rows.width, height: rows.height, bytesPerRow: rows.bytesPerRow,
                   hasAlpha: false, options: options, destination: destination)
    }

    /// Encodes `image` as `encode(_:options:destination:)` does and writes the PNG to `fd`
    /// band by band as the bands are compressed.
    public static func write(
        _ image: PixelBuffer, options: EncodeOptions = .fast, to fd: Int32, destination: String
    ) throws(ImagingError) {
        let result = image.pixels.withUnsafeBytes { pixels in
            Result { () throws(ImagingError) in
                try write(pixels.baseAddress!, width: image.width, height: image.height, bytesPerRow: image.width * 4,
                          hasAlpha: image.hasAlpha, options: options, to: fd, destination: destination)
            }
        }
        try result.get()
    }

    /// Encodes opaque `rows` as RGB and writes the PNG to `fd` band by band as the bands are
    /// compressed: the file is never whole in memory. Throws, naming `destination`, on a failed
    /// write; what was written by then is not a PNG.
    public static func write(
        _ rows: PixelRows, options: EncodeOptions = .fast, to fd: Int32, destination: String
    ) throws(ImagingError) {
        try write(UnsafeRawPointer(rows.base), width: rows.width, height: rows.height, bytesPerRow: rows.bytesPerRow,
                  hasAlpha: false, options: options, to: fd, destination: destination)
    }

    private static func write(
        _ pixels: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int, hasAlpha: Bool,
        options: EncodeOptions, to fd: Int32, destination: String
    ) throws(ImagingError) {
        var message = [CChar](repeating: 0, count: 256)
        let status = sg_png_write_bgrx(
            pixels.assumingMemoryBound(to: UInt8.self), bytesPerRow * height, UInt32(clamping: width), UInt32(clamping: height), bytesPerRow, hasAlpha ? 1 : 0,
            Int32(clamping: options.compressionLevel), options.filter.rawValue, UInt32(clamping: options.bandRows),
            fd, &message, message.count)
        guard status == 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImagingError(.io, source: destination, "cannot write PNG: \(reason)")
        }
    }

    private static func encode(
        _ pixels: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int, hasAlpha: Bool,
        options: EncodeOptions, destination: String
    ) throws(ImagingError) -> [UInt8] {
        var job: OpaquePointer?
        var message = [CChar](repeating: 0, count: 256)
        let status = sg_png_compress_bgrx(
            pixels.assumingMemoryBound(to: UInt8.self), bytesPerRow * height, UInt32(clamping: width), UInt32(clamping: height), bytesPerRow, hasAlpha ? 1 : 0,
            Int32(clamping: options.compressionLevel), options.filter.rawValue, UInt32(clamping: options.bandRows),
            &job, &message, message.count)
        defer { sg_png_job_free(job) }
        guard status == 0, let job else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImagingError(.encode, source: destination, "cannot encode PNG: \(reason)")
        }
        // The container is written straight into the array: the file is never copied.
        let size = sg_png_size(job)
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            sg_png_write(job, buffer.baseAddress!)
            count = size
        }
    }
}
