// A PNG redacted while it is decoded, and written while it is redacted.
import CShotguardPNG

/// Rewrites a PNG of the kind screenshot tools write (8-bit RGB or RGBA, not interlaced) with
/// rectangles covered, in one pass: the decoder reports rows as it unfilters them, each fill is
/// applied once its rows are in, and the encoder compresses the rows that are final meanwhile.
public struct PNGRewrite {
    public let width: Int
    public let height: Int
    public let hasAlpha: Bool
    private let idatSize: Int

    /// Nil when `data` is not a PNG the fast decoder takes (then decode it with `PNGDecoder`,
    /// which also words any error) or its size is over `limits`.
    public init?(_ data: [UInt8], limits: DecodeLimits = .standard) {
        var width: UInt32 = 0, height: UInt32 = 0, alpha: Int32 = 0, idatSize = 0
        let taken = data.withUnsafeBufferPointer { bytes in
            sg_png_fast_probe(bytes.baseAddress, bytes.count, &width, &height, &alpha, &idatSize) == 1
        }
        guard taken, data.count <= limits.maxInputBytes,
              limits.exceeded(width: Int(width), height: Int(height)) == nil else { return nil }
        self.width = Int(width)
        self.height = Int(height)
        hasAlpha = alpha != 0
        self.idatSize = idatSize
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Decodes `data` (the bytes this was made from), covers `fills` (image coordinates, in
    /// order: a later one is on top) and writes the PNG to `fd`. False when the decoder found
    /// the data corrupt: what was written is then not a PNG, and `PNGDecoder` says what is wrong.
    public func write(_ data: [UInt8], fills: [(rect: Rect, fill: Fill)], options: EncodeOptions = .fast,
                      to fd: Int32, destination: String) throws(ImagingError) -> Bool {
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        defer { pixels.deallocate() }
        let rows = PixelRows(base: UnsafeMutableRawPointer(pixels), width: width, height: height, bytesPerRow: width * 4)
        return try decode(data, into: rows, fills: fills, options: options, fd: fd, destination: destination)
    }

    private func decode(_ data: [UInt8], into rows: PixelRows, fills: [(rect: Rect, fill: Fill)], options: EncodeOptions,
                        fd: Int32, destination: String) throws(ImagingError) -> Bool {
        let progress = RowsProgress(writer: try PNGStreamWriter(rows, hasAlpha: hasAlpha, options: options, to: fd,
                                                                destination: destination),
                                    fills: StagedFills(rows, fills: fills))
        let decoded = data.withUnsafeBufferPointer { bytes in
            withExtendedLifetime(progress) {
                sg_png_fast_decode_rows(bytes.baseAddress, bytes.count, UInt32(width), UInt32(height), hasAlpha ? 1 : 0,
                                        idatSize, rows.base.assumingMemoryBound(to: UInt32.self), { context, rows in
                    let progress = Unmanaged<RowsProgress>.fromOpaque(context!).takeUnretainedValue()
                    progress.writer.rowsFinal(progress.fills.arrived(Int(rows)))
                }, Unmanaged.passUnretained(progress).toOpaque()) == 0
            }
        }
        guard decoded else {
            progress.writer.cancel()
            return false
        }
        try progress.writer.finish()
        return true
    }
}

/// What the decoder's row callback reaches: the fills still to apply and the waiting encoder.
private final class RowsProgress {
    let writer: PNGStreamWriter
    var fills: StagedFills

    init(writer: PNGStreamWriter, fills: StagedFills) {
        self.writer = writer
        self.fills = fills
    }
}
