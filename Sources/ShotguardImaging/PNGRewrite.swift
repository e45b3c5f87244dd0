// A PNG redacted while it is decoded, and written while it is redacted.
import CShotguardPNG

/// Rewrites a PNG of the kind screenshot tools write (8-bit RGB or RGBA, not interlaced) with
/// rectangles covered, in one pass: the decoder reports rows as it unfilters them, each cover
/// is applied once its rows are in, and the encoder compresses the rows that are final meanwhile.
public struct PNGRewrite {
    private let data: [UInt8]
    private let header: FastPNGHeader

    public var width: Int { header.width }
    public var height: Int { header.height }
    public var hasAlpha: Bool { header.hasAlpha }

    /// Nil when `data` is not a PNG the fast decoder takes, or is over the standard decode
    /// limits: then decode it with `PNGDecoder`, which also words any error.
    public init?(_ data: [UInt8]) {
        let limits = DecodeLimits.standard
        guard data.count <= limits.maxInputBytes, let header = FastPNGHeader(data),
              limits.exceeded(width: header.width, height: header.height) == nil else { return nil }
        self.init(data, probed: header)
    }

    /// `data` with what a probe said of it, which the decoder trusts only as a bound: bytes that
    /// are not the ones probed (cut short, grown, chunk lengths that lie) are `.corrupt`.
    init(_ data: [UInt8], probed header: FastPNGHeader) {
        self.data = data
        self.header = header
    }

    /// Decodes the PNG, applies `covers` (image coordinates, in order: a later one on top) and
    /// writes the result to `fd`. Throws `.corrupt` when the decoder finds the data corrupt
    /// or not what was probed (what was written is then not a PNG; `PNGDecoder` says what is
    /// wrong), `.tooLarge` when there is no memory for it, or what the encoder throws.
    ///
    /// The rows are covered and encoded in the decoder's own buffer, as R,G,B(,A) bytes: no
    /// 32-bit copy of the image is made (at 1080p, 8 MB whose pages cost 3.5 ms to map before
    /// the first row, and two conversions).
    public func write(covers: [Cover], options: EncodeOptions = .fast, to fd: Int32,
                      destination: String) throws(ImagingError) {
        let pixelBytes = hasAlpha ? 4 : 3
        let stride = width * pixelBytes + 1
        let size = stride * height
        guard let buffer = sg_png_map_rows(size) else {
            throw ImagingError(.tooLarge, source: destination, "no memory to decode a \(width)x\(height) PNG")
        }
        defer { sg_png_free_rows(buffer, size) }
        // Each row starts with its filter byte: the pixels begin one byte in.
        let rows = try PNGByteRows(UnsafeMutableRawBufferPointer(start: buffer + 1, count: size - 1), width: width,
                                   height: height, bytesPerRow: stride, hasAlpha: hasAlpha)
        let writer = try PNGStreamWriter(rows, covers: covers, options: options, to: fd, destination: destination)
        let status = data.withUnsafeBufferPointer { bytes in
            withExtendedLifetime(writer) {
                sg_png_fast_unfilter_rows(bytes.baseAddress, bytes.count, UInt32(width), UInt32(height), hasAlpha ? 1 : 0,
                                          header.idatSize, buffer, size, { context, rows in
                    Unmanaged<PNGStreamWriter>.fromOpaque(context!).takeUnretainedValue().rowsArrived(Int(rows))
                }, Unmanaged.passUnretained(writer).toOpaque())
            }
        }
        guard status == 0 else {
            writer.cancel()
            throw ImagingError(pngStatus: status, source: destination, "cannot decode PNG", [], otherwise: .corrupt)
        }
        try writer.finish()
    }
}
