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
/// Its memory always holds its rows (checked when it is made), and its length goes with it to
/// the C encoder, which checks it again.
public struct PixelRows {
    public let base: UnsafeMutableRawPointer
    /// The bytes of memory from `base`: at least `bytesPerRow * (height - 1) + width * 4`.
    public let byteCount: Int
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int

    /// The rows in `memory` (its whole length is what may be read and written); throws
    /// `.bufferSize` when the rows do not fit in it or are closer together than `width` pixels.
    public init(_ memory: UnsafeMutableRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) throws(ImagingError) {
        guard let base = memory.baseAddress else {
            throw ImagingError(.bufferSize, source: "pixel rows", "no memory holds the \(width)x\(height) pixels")
        }
        try RowLayout.check(byteCount: memory.count, width: width, height: height, bytesPerRow: bytesPerRow, pixelBytes: 4,
                            what: "pixel rows")
        self.init(checked: base, byteCount: memory.count, width: width, height: height, bytesPerRow: bytesPerRow)
    }

    private init(checked base: UnsafeMutableRawPointer, byteCount: Int, width: Int, height: Int, bytesPerRow: Int) {
        self.base = base
        self.byteCount = byteCount
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
    }

    /// Rows `range` of these, in the same memory.
    public func rows(_ range: Range<Int>) -> PixelRows {
        precondition(!range.isEmpty && range.lowerBound >= 0 && range.upperBound <= height, "rows \(range) of \(height)")
        let start = range.lowerBound * bytesPerRow
        return PixelRows(checked: base + start, byteCount: byteCount - start, width: width, height: range.count,
                         bytesPerRow: bytesPerRow)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }
}

/// How rows of pixels lie in memory, checked before anything reads or writes them.
enum RowLayout {
    /// Throws `.bufferSize` unless `height` rows of `width` pixels of `pixelBytes` bytes,
    /// `bytesPerRow` apart, lie in `byteCount` bytes (arithmetic that cannot overflow).
    static func check(byteCount: Int, width: Int, height: Int, bytesPerRow: Int, pixelBytes: Int,
                      what: String) throws(ImagingError) {
        guard width > 0, height > 0 else {
            throw ImagingError(.bufferSize, source: what, "\(width)x\(height) is not a size of pixels")
        }
        let row = width.multipliedReportingOverflow(by: pixelBytes)
        guard !row.overflow, bytesPerRow >= row.partialValue else {
            throw ImagingError(.bufferSize, source: what,
                               "rows \(bytesPerRow) bytes apart cannot hold \(width) pixels of \(pixelBytes) bytes")
        }
        let last = (height - 1).multipliedReportingOverflow(by: bytesPerRow)
        let end = last.partialValue.addingReportingOverflow(row.partialValue)
        guard !last.overflow, !end.overflow, end.partialValue <= byteCount else {
            throw ImagingError(.bufferSize, source: what,
                               "\(byteCount) bytes cannot hold \(height) rows of \(width) pixels, \(bytesPerRow) bytes apart")
        }
    }
}

public enum PNGEncoder {
    /// Encodes `image` as RGB (or RGBA when it has alpha), with only IHDR, IDAT and IEND:
    /// no metadata from any input survives.
    public static func encode(
        _ image: PixelBuffer, options: EncodeOptions = .fast, destination: String
    ) throws(ImagingError) -> [UInt8] {
        let result = image.pixels.withUnsafeBytes { pixels in
            Result { () throws(ImagingError) in
                try encode(pixels, width: image.width, height: image.height, bytesPerRow: image.width * 4,
                           hasAlpha: image.hasAlpha, options: options, destination: destination)
            }
        }
        return try result.get()
    }

    /// Encodes opaque `rows` as RGB, reading them in place (no copy of the frame).
    public static func encode(
        _ rows: PixelRows, options: EncodeOptions = .fast, destination: String
    ) throws(ImagingError) -> [UInt8] {
        try encode(UnsafeRawBufferPointer(start: rows.base, count: rows.byteCount), width: rows.width, height: rows.height,
                   bytesPerRow: rows.bytesPerRow, hasAlpha: false, options: options, destination: destination)
    }

    /// Encodes `image` as `encode(_:options:destination:)` does and writes the PNG to `fd`
    /// band by band as the bands are compressed.
    public static func write(
        _ image: PixelBuffer, options: EncodeOptions = .fast, to fd: Int32, destination: String
    ) throws(ImagingError) {
        let result = image.pixels.withUnsafeBytes { pixels in
            Result { () throws(ImagingError) in
                try write(pixels, width: image.width, height: image.height, bytesPerRow: image.width * 4,
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
        try write(UnsafeRawBufferPointer(start: rows.base, count: rows.byteCount), width: rows.width, height: rows.height,
                  bytesPerRow: rows.bytesPerRow, hasAlpha: false, options: options, to: fd, destination: destination)
    }

    /// `pixels` is all the memory the rows may be read from: its count goes to the encoder,
    /// which checks the rows against it before reading any.
    private static func write(
        _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, hasAlpha: Bool,
        options: EncodeOptions, to fd: Int32, destination: String
    ) throws(ImagingError) {
        var message = [CChar](repeating: 0, count: 256)
        let status = sg_png_write_bgrx(
            pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), pixels.count, UInt32(clamping: width),
            UInt32(clamping: height), bytesPerRow, hasAlpha ? 1 : 0, Int32(clamping: options.compressionLevel),
            options.filter.rawValue, UInt32(clamping: options.bandRows), fd, &message, message.count)
        guard status == 0 else {
            throw ImagingError(pngStatus: status, source: destination, "cannot write PNG", message, otherwise: .io)
        }
    }

    private static func encode(
        _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, hasAlpha: Bool,
        options: EncodeOptions, destination: String
    ) throws(ImagingError) -> [UInt8] {
        var job: OpaquePointer?
        var message = [CChar](repeating: 0, count: 256)
        let status = sg_png_compress_bgrx(
            pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), pixels.count, UInt32(clamping: width),
            UInt32(clamping: height), bytesPerRow, hasAlpha ? 1 : 0, Int32(clamping: options.compressionLevel),
            options.filter.rawValue, UInt32(clamping: options.bandRows), &job, &message, message.count)
        defer { sg_png_job_free(job) }
        guard status == 0, let job else {
            throw ImagingError(pngStatus: status, source: destination, "cannot encode PNG", message, otherwise: .encode)
        }
        // The container is written straight into the array: the file is never copied.
        let size = sg_png_size(job)
        var written: Int32 = 0
        let png = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            written = sg_png_write(job, buffer.baseAddress, buffer.count)
            if written != 0 { buffer.initialize(repeating: 0) }
            count = size
        }
        guard written == 0 else {
            throw ImagingError(pngStatus: written, source: destination, "cannot encode PNG", [], otherwise: .encode)
        }
        return png
    }
}
