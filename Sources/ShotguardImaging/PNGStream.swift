// A PNG written while its rows still arrive: the encoder works on the rows that are in.
import CShotguardPNG

/// Writes rows as a PNG to a file descriptor while they are still being filled top to bottom
/// (a capture grabbed in strips, an image being decoded), with `covers` applied as their rows
/// arrive (`StagedFills`): workers compress each band as soon as its rows are in and covered,
/// so the encoding overlaps whatever fills the rows. Only for a file that can be removed on
/// failure: what was written before a failure is not a PNG. Use from one thread; end with
/// `finish` or `cancel` (dropping it unfinished cancels). The rows must stay valid until then:
/// the workers read them until `finish` or `cancel` returns.
///
/// A capture's rows may also be a ring (`init(ring:...)`): fewer rows than the image, each strip
/// grabbed into the place of rows already compressed (`reserve`), so the frame is never whole
/// in memory.
public final class PNGStreamWriter {
    private var stream: OpaquePointer?
    private let destination: String
    private let height: Int
    private var covers: StagedFills
    /// For a ring: its rows, and the solid covers to put on each strip as it arrives.
    private let ring: PixelRows?
    private let ringCovers: [Cover]
    /// For a ring: the rows in so far (strips arrive in order).
    private var ringRowsIn = 0

    /// Writes the PNG of `rows` (32-bit B,G,R,X pixels; RGBA with `hasAlpha`) and starts the
    /// workers, which wait for rows.
    public convenience init(_ rows: PixelRows, covers: [Cover] = [], hasAlpha: Bool = false,
                            options: EncodeOptions = .fast, to fd: Int32, destination: String) throws(ImagingError) {
        try self.init(UnsafeRawPointer(rows.base), size: rows.byteCount, width: rows.width, height: rows.height,
                      bytesPerRow: rows.bytesPerRow, ringRows: 0, layout: Int32(SG_PNG_SOURCE_BGRX), hasAlpha: hasAlpha,
                      options: options, fd: fd, destination: destination, covers: StagedFills(rows, fills: covers),
                      ring: nil, ringCovers: [])
    }

    /// Writes the PNG of `rows` (a PNG's unfiltered bytes, encoded where they are) and starts
    /// the workers, which wait for rows.
    public convenience init(_ rows: PNGByteRows, covers: [Cover] = [], options: EncodeOptions = .fast, to fd: Int32,
                            destination: String) throws(ImagingError) {
        try self.init(UnsafeRawPointer(rows.base), size: rows.byteCount,
                      width: rows.width, height: rows.height, bytesPerRow: rows.bytesPerRow, ringRows: 0,
                      layout: Int32(SG_PNG_SOURCE_RGB), hasAlpha: rows.hasAlpha, options: options, fd: fd,
                      destination: destination, covers: StagedFills(rows, fills: covers), ring: nil, ringCovers: [])
    }

    /// Writes an opaque PNG of `height` rows that arrive in strips through `ring` (fewer rows:
    /// image row y is ring row y % ring.height), with `covers` put on each strip as it arrives
    /// (`ringArrived`); they must be solid (a mosaic reads rows a ring may no longer hold).
    public convenience init(ring: PixelRows, height: Int, covers: [Cover] = [], options: EncodeOptions = .fast,
                            to fd: Int32, destination: String) throws(ImagingError) {
        precondition(covers.allSatisfy { if case .solid = $0.fill { true } else { false } }, "a ring takes solid covers only")
        let image = Rect(x: 0, y: 0, width: ring.width, height: height)
        try self.init(UnsafeRawPointer(ring.base), size: ring.byteCount, width: ring.width, height: height,
                      bytesPerRow: ring.bytesPerRow, ringRows: ring.height, layout: Int32(SG_PNG_SOURCE_BGRX),
                      hasAlpha: false, options: options, fd: fd, destination: destination,
                      covers: StagedFills(ring, fills: []), ring: ring,
                      ringCovers: covers.map { ($0.rect.intersection(image), $0.fill) }.filter { !$0.0.isEmpty })
    }

    private init(_ pixels: UnsafeRawPointer, size: Int, width: Int, height: Int, bytesPerRow: Int, ringRows: Int,
                 layout: Int32, hasAlpha: Bool, options: EncodeOptions, fd: Int32, destination: String,
                 covers: StagedFills, ring: PixelRows?, ringCovers: [Cover]) throws(ImagingError) {
        var message = [CChar](repeating: 0, count: 256)
        var status: Int32 = 0
        stream = sg_png_stream_start(
            pixels.assumingMemoryBound(to: UInt8.self), size, UInt32(clamping: width), UInt32(clamping: height), bytesPerRow,
            UInt32(clamping: ringRows), layout, hasAlpha ? 1 : 0, Int32(clamping: options.compressionLevel),
            options.filter.rawValue, UInt32(clamping: options.bandRows), fd, &status, &message, message.count)
        self.destination = destination
        self.height = height
        self.covers = covers
        self.ring = ring
        self.ringCovers = ringCovers
        guard stream != nil else {
            throw ImagingError(pngStatus: status, source: destination, "cannot write PNG", message, otherwise: .io)
        }
    }

    deinit { cancel() }

    /// The rows a ring must hold besides one strip for an opaque image of this size: a band
    /// and the row above it, which the encoder may still be reading while the strip comes in
    /// (`sg_png_stream_reserve`).
    public static func ringRowsBesidesStrip(width: Int, height: Int, options: EncodeOptions) -> Int {
        Int(sg_png_band_rows(UInt32(clamping: width), UInt32(clamping: height), 0, UInt32(clamping: options.bandRows))) + 1
    }

    /// Rows 0..<count are in: the covers they allow are applied, and the rows no cover has
    /// left to change go to the encoder. Never goes back; nothing else may change those rows.
    public func rowsArrived(_ count: Int) {
        guard let stream, count > 0, ring == nil else { return }
        let final = covers.arrived(min(count, height))
        if final > 0 { sg_png_stream_rows(stream, UInt32(final)) }
    }

    /// For a ring: waits until rows up to `until` (not included) may be grabbed into it, every
    /// row whose place they take compressed. False when they never can (the stream was
    /// cancelled, or the strip is taller than `largestStrip`).
    public func reserve(until: Int) -> Bool {
        guard let stream, ring != nil else { return false }
        return sg_png_stream_reserve(stream, UInt32(clamping: until)) == 0
    }

    /// For a ring: the image's rows `strip` are in the ring (each at ring row y % ring rows, a
    /// strip never crossing the ring's end): the covers over them are put on and they go to the
    /// encoder.
    public func ringArrived(_ strip: Range<Int>) {
        guard let stream, let ring, !strip.isEmpty else { return }
        let top = strip.lowerBound % ring.height
        precondition(strip.lowerBound == ringRowsIn && top + strip.count <= ring.height && strip.upperBound <= height,
                     "strips arrive in order, each within the ring")
        ringRowsIn = strip.upperBound
        let rows = ring.rows(top..<(top + strip.count))
        for cover in ringCovers {
            rows.redact(cover.rect.offsetBy(dx: 0, dy: -strip.lowerBound), with: cover.fill)
        }
        sg_png_stream_rows(stream, UInt32(clamping: strip.upperBound))
    }

    /// Every row is in: applies the covers left, compresses what is left on this thread too,
    /// then writes the end of the PNG. Throws, naming the destination, when a band could not be
    /// compressed or written.
    public func finish() throws(ImagingError) {
        guard let stream else { return }
        // Whatever the caller reported, no row is final before its covers are on it.
        guard ring == nil ? covers.arrived(height) == height : ringRowsIn == height else {
            cancel()
            throw ImagingError(.encode, source: destination,
                               ring == nil ? "cannot write PNG: a cover was left unapplied" : "cannot write PNG: rows are missing")
        }
        self.stream = nil
        var message = [CChar](repeating: 0, count: 256)
        let status = sg_png_stream_finish(stream, 0, &message, message.count)
        guard status == 0 else {
            throw ImagingError(pngStatus: status, source: destination, "cannot write PNG", message, otherwise: .io)
        }
    }

    /// Stops the workers before their next band; what was written is not a PNG.
    public func cancel() {
        guard let stream else { return }
        self.stream = nil
        _ = sg_png_stream_finish(stream, 1, nil, 0)
    }
}
