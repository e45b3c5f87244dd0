// A PNG written while its rows still arrive: the encoder works on the rows that are in.
import CShotguardPNG

/// Writes `rows` as an RGB PNG (RGBA with `hasAlpha`) to a file descriptor while they are
/// still being filled top to bottom (a capture grabbed in strips, an image being decoded),
/// with `covers` applied as their rows arrive (`StagedFills`): workers compress each band as
/// soon as its rows are in and covered, so the encoding overlaps whatever fills the rows. Only
/// for a file that can be removed on failure: what was written before a failure is not a PNG.
/// Use from one thread; end with `finish` or `cancel` (dropping it unfinished cancels). The
/// rows must stay valid until then: the workers read them until `finish` or `cancel` returns.
public final class PNGStreamWriter {
    private var stream: OpaquePointer?
    private let destination: String
    private let height: Int
    private var covers: StagedFills

    /// Writes the PNG's header and starts the workers, which wait for rows.
    public init(_ rows: PixelRows, covers: [Cover] = [], hasAlpha: Bool = false, options: EncodeOptions = .fast,
                to fd: Int32, destination: String) throws(ImagingError) {
        var message = [CChar](repeating: 0, count: 256)
        stream = sg_png_stream_start(
            UnsafeRawPointer(rows.base).assumingMemoryBound(to: UInt8.self), UInt32(clamping: rows.width), UInt32(clamping: rows.height),
            rows.bytesPerRow, hasAlpha ? 1 : 0, Int32(clamping: options.compressionLevel), options.filter.rawValue,
            UInt32(clamping: options.bandRows), fd, &message, message.count)
        self.destination = destination
        height = rows.height
        self.covers = StagedFills(rows, fills: covers)
        guard stream != nil else { throw Self.failure(message, destination: destination) }
    }

    deinit { cancel() }

    /// Rows 0..<count are in: the covers they allow are applied, and the rows no cover has
    /// left to change go to the encoder. Never goes back; nothing else may change those rows.
    public func rowsArrived(_ count: Int) {
        guard let stream, count > 0 else { return }
        let final = covers.arrived(min(count, height))
        if final > 0 { sg_png_stream_rows(stream, UInt32(final)) }
    }

    /// Every row is in: applies the covers left, compresses what is left on this thread too,
    /// then writes the end of the PNG. Throws, naming the destination, when a band could not be
    /// compressed or written.
    public func finish() throws(ImagingError) {
        guard let stream else { return }
        // Whatever the caller reported, no row is final before its covers are on it.
        guard covers.arrived(height) == height else {
            cancel()
            throw ImagingError(.encode, source: destination, "cannot write PNG: a cover was left unapplied")
        }
        self.stream = nil
        var message = [CChar](repeating: 0, count: 256)
        guard sg_png_stream_finish(stream, 0, &message, message.count) == 0 else {
            throw Self.failure(message, destination: destination)
        }
    }

    /// Stops the workers before their next band; what was written is not a PNG.
    public func cancel() {
        guard let stream else { return }
        self.stream = nil
        _ = sg_png_stream_finish(stream, 1, nil, 0)
    }

    private static func failure(_ message: [CChar], destination: String) -> ImagingError {
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ImagingError(.io, source: destination, "cannot write PNG: \(reason)")
    }
}
