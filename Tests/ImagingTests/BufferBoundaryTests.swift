// The Swift/C boundary: every PNG entry point that takes a buffer checks its length first.
import CShotguardPNG
import Foundation
@testable import ShotguardImaging
import XCTest

/// `count` bytes that end where an unmapped page begins: a read or write one byte past them
/// stops the test process, so a check that let one through cannot pass unnoticed.
private final class GuardedBytes {
    let buffer: UnsafeMutableRawBufferPointer
    private let mapping: UnsafeMutableRawPointer
    private let mappedSize: Int

    init(count: Int) throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = max(1, (count + page - 1) / page)
        mappedSize = (pages + 1) * page
        guard let mapping = mmap(nil, mappedSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapping != MAP_FAILED else { throw POSIXError(.ENOMEM) }
        self.mapping = mapping
        guard mprotect(mapping + pages * page, page, PROT_NONE) == 0 else { throw POSIXError(.EPERM) }
        buffer = UnsafeMutableRawBufferPointer(start: mapping + pages * page - count, count: count)
    }

    convenience init(_ bytes: [UInt8]) throws {
        try self.init(count: bytes.count)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
    }

    var bytes: UnsafeMutablePointer<UInt8> { buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) }

    deinit { munmap(mapping, mappedSize) }
}

final class BufferBoundaryTests: XCTestCase {
    private let width = 37, height = 23

    private func image() -> PixelBuffer { TestData.screenshotLike(width: width, height: height) }

    /// The three encoder entry points on `count` bytes of pixels, rows `stride` apart: what each returns.
    private func encoderStatuses(count: Int, stride: Int, rows: Int? = nil) throws -> [Int32] {
        let memory = try GuardedBytes(count: count)
        memory.buffer.initializeMemory(as: UInt8.self, repeating: 0x5A)
        let (width, height) = (UInt32(width), UInt32(rows ?? height))
        var message = [CChar](repeating: 0, count: 256)
        var job: OpaquePointer?
        let compressed = sg_png_compress_bgrx(memory.bytes, count, width, height, stride, 0, 1, Int32(SG_PNG_FILTER_ADAPTIVE), 0,
                                              &job, &message, message.count)
        sg_png_job_free(job)
        let null = open("/dev/null", O_WRONLY)
        defer { close(null) }
        let written = sg_png_write_bgrx(memory.bytes, count, width, height, stride, 0, 1, Int32(SG_PNG_FILTER_ADAPTIVE), 0, null,
                                        &message, message.count)
        var status: Int32 = 99
        let stream = sg_png_stream_start(memory.bytes, count, width, height, stride, 0, Int32(SG_PNG_SOURCE_BGRX), 0, 1,
                                         Int32(SG_PNG_FILTER_ADAPTIVE), 0, null, &status, &message, message.count)
        if let stream { _ = sg_png_stream_finish(stream, 0, &message, message.count) }
        return [compressed, written, status]
    }

    func testPixelsEndingAtAnUnmappedPageEncodeWhole() throws {
        // The guard holds for a buffer of exactly the rows: the encoders read up to its end, not past.
        let bad = Int32(SG_PNG_BAD_BUFFER)
        XCTAssertEqual(try encoderStatuses(count: width * height * 4, stride: width * 4), [0, 0, 0])
        XCTAssertEqual(try encoderStatuses(count: 40 * 4 * (height - 1) + width * 4, stride: 40 * 4), [0, 0, 0],
                       "padded rows: the last needs only its pixels")
        XCTAssertEqual(try encoderStatuses(count: width * height * 4 - 1, stride: width * 4), [bad, bad, bad])
        XCTAssertEqual(try encoderStatuses(count: 40 * 4 * height - 40 * 4, stride: 40 * 4), [bad, bad, bad])
    }

    func testRowsCloserThanTheirPixelsAreRefusedBeforeAnyRead() throws {
        let bad = Int32(SG_PNG_BAD_BUFFER)
        // Rows a byte closer than a row's pixels: the buffer is big enough for the rows' starts,
        // but a row would read the next one's first pixel, and the last past the end.
        XCTAssertEqual(try encoderStatuses(count: (width * 4 - 1) * height, stride: width * 4 - 1), [bad, bad, bad])
        XCTAssertEqual(try encoderStatuses(count: width * height * 4, stride: 0), [bad, bad, bad])
        // A stride whose product with the height wraps around cannot pass for a small one.
        XCTAssertEqual(try encoderStatuses(count: width * height * 4, stride: Int.max / 2), [bad, bad, bad])
        XCTAssertEqual(try encoderStatuses(count: width * height * 4, stride: Int.max, rows: 3), [bad, bad, bad])
    }

    func testTheEncodersSayWhyInATypedError() throws {
        let image = image()
        var pixels = image.pixels
        try pixels.withUnsafeMutableBytes { bytes in
            let short = UnsafeMutableRawBufferPointer(rebasing: bytes.dropLast(1))
            XCTAssertThrowsError(try PixelRows(short, width: width, height: height, bytesPerRow: width * 4)) { error in
                XCTAssertEqual((error as? ImagingError)?.kind, .bufferSize)
                XCTAssertTrue("\(error)".contains("\(bytes.count - 1) bytes cannot hold \(height) rows"), "\(error)")
            }
            XCTAssertThrowsError(try PixelRows(bytes, width: width, height: height, bytesPerRow: width * 4 - 4)) { error in
                XCTAssertEqual((error as? ImagingError)?.kind, .bufferSize)
            }
            XCTAssertThrowsError(try PixelRows(bytes, width: width, height: 2, bytesPerRow: Int.max)) { error in
                XCTAssertEqual((error as? ImagingError)?.kind, .bufferSize, "the last row's start overflows")
            }
            XCTAssertThrowsError(try PNGByteRows(bytes, width: width, height: height, bytesPerRow: width * 3 - 1, hasAlpha: false))
            XCTAssertThrowsError(try PNGByteRows(bytes, width: width * 2, height: height, bytesPerRow: width * 8, hasAlpha: true))
            // Exactly the rows fit: the rows encode, and read back as the image.
            let rows = try PixelRows(bytes, width: width, height: height, bytesPerRow: width * 4)
            XCTAssertEqual(rows.byteCount, bytes.count)
            XCTAssertEqual(try PNGDecoder.decode(try PNGEncoder.encode(rows, destination: "m"), source: "m").pixels,
                           image.pixels.map { $0 | 0xFF00_0000 })
            XCTAssertEqual(rows.rows(5..<9).byteCount, bytes.count - 5 * width * 4)
        }
        // The C side's code becomes the kind, whatever the message.
        XCTAssertEqual(ImagingError(pngStatus: Int32(SG_PNG_BAD_BUFFER), source: "x", "cannot encode PNG", [], otherwise: .encode).kind,
                       .bufferSize)
        XCTAssertEqual(ImagingError(pngStatus: Int32(SG_PNG_NO_MEMORY), source: "x", "cannot encode PNG", [], otherwise: .encode).kind,
                       .tooLarge)
        XCTAssertEqual(ImagingError(pngStatus: Int32(SG_PNG_FAILED), source: "x", "cannot encode PNG", [], otherwise: .encode).kind,
                       .encode)
    }

    func testAJobIsWrittenOnlyIntoRoomOfItsSize() throws {
        var job: OpaquePointer?
        var message = [CChar](repeating: 0, count: 256)
        let pixels = image().pixels
        let status = pixels.withUnsafeBytes { bytes in
            sg_png_compress_bgrx(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, UInt32(width), UInt32(height),
                                 width * 4, 0, 1, Int32(SG_PNG_FILTER_ADAPTIVE), 0, &job, &message, message.count)
        }
        defer { sg_png_job_free(job) }
        XCTAssertEqual(status, 0)
        let size = sg_png_size(job)
        let short = try GuardedBytes(count: size - 1)
        XCTAssertEqual(sg_png_write(job, short.bytes, size - 1), Int32(SG_PNG_BAD_BUFFER))
        let exact = try GuardedBytes(count: size)
        XCTAssertEqual(sg_png_write(job, exact.bytes, size), 0)
        XCTAssertEqual(try PNGDecoder.decode(Array(exact.buffer.bindMemory(to: UInt8.self)), source: "m").width, width)
    }

    // MARK: Decoding: nothing the probe said is trusted

    /// An opaque PNG of several IDAT chunks, and what the fast path's probe says of it.
    private func probedPNG() throws -> (png: [UInt8], header: FastPNGHeader) {
        let png = try PNGEncoder.encode(image(), options: EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: 4),
                                        destination: "m")
        let header = try XCTUnwrap(FastPNGHeader(png))
        XCTAssertGreaterThan(try XCTUnwrap(TestData.pngChunks(png)).filter { $0.type == "IDAT" }.count, 3)
        return (png, header)
    }

    /// `png` with its chunks changed by `change`, every CRC right.
    private func rebuilt(_ png: [UInt8], _ change: (inout [(type: String, data: [UInt8])]) -> Void) throws -> [UInt8] {
        var chunks = try XCTUnwrap(TestData.pngChunks(png))
        change(&chunks)
        return Array(png.prefix(8)) + chunks.flatMap { TestData.pngChunk($0.type, $0.data) }
    }

    /// Files that are not what was probed: cut short at many places, grown by an IDAT chunk,
    /// shrunk by one, with an IDAT whose length reaches past the end (or past 2^31).
    private func lies(_ png: [UInt8]) throws -> [(String, [UInt8])] {
        let idat = try XCTUnwrap(png.indices.first { png[$0..<min($0 + 4, png.count)].elementsEqual("IDAT".utf8) }) - 4
        func lyingLength(_ length: UInt32) -> [UInt8] {
            var copy = png
            copy.replaceSubrange(idat..<(idat + 4), with: TestData.bigEndian(length))
            return copy
        }
        var files: [(String, [UInt8])] = [
            ("grown by an IDAT", try rebuilt(png) { chunks in chunks.insert(("IDAT", [1, 2, 3, 4, 5]), at: chunks.count - 1) }),
            ("shrunk by an IDAT", try rebuilt(png) { chunks in chunks.remove(at: chunks.firstIndex { $0.type == "IDAT" }! + 1) }),
            ("without IEND", try rebuilt(png) { chunks in chunks.removeLast() }),
            ("IDAT length past the end", lyingLength(UInt32(png.count))),
            ("IDAT length of 2^31 + 1", lyingLength(0x8000_0001)),
            ("IDAT length of 2^32 - 1", lyingLength(0xFFFF_FFFF)),
            ("IDAT length a byte short", lyingLength(UInt32(png[idat..<(idat + 4)].reduce(0) { $0 << 8 | Int($1) }) - 1)),
            ("empty", []),
        ]
        for cut in stride(from: 1, to: png.count, by: max(1, png.count / 40)) + [png.count - 1, png.count - 12] {
            files.append(("cut to \(cut) bytes", Array(png.prefix(cut))))
        }
        return files
    }

    func testTheDecodersCheckEveryChunkAgainstTheBytesTheyAreGiven() throws {
        let (png, header) = try probedPNG()
        let count = width * height
        for (lie, file) in try lies(png) {
            // In memory that ends at an unmapped page: a read past the file stops the process.
            let bytes = try GuardedBytes(file)
            let pixels = try GuardedBytes(count: count * 4)
            let decoded = sg_png_fast_decode(bytes.bytes, file.count, UInt32(width), UInt32(height), 0, header.idatSize,
                                             pixels.buffer.baseAddress!.assumingMemoryBound(to: UInt32.self), count)
            XCTAssertEqual(decoded, Int32(SG_PNG_FAILED), lie)
            let rowsSize = (width * 3 + 1) * height
            let rows = try GuardedBytes(count: rowsSize)
            let unfiltered = sg_png_fast_unfilter_rows(bytes.bytes, file.count, UInt32(width), UInt32(height), 0, header.idatSize,
                                                       rows.bytes, rowsSize, nil, nil)
            XCTAssertEqual(unfiltered, Int32(SG_PNG_FAILED), lie)
        }
        // An IDAT total past the bytes given is refused before anything is allocated for it.
        var pixels = [UInt32](repeating: 0, count: count)
        let status = png.withUnsafeBufferPointer { bytes in
            sg_png_fast_decode(bytes.baseAddress, bytes.count, UInt32(width), UInt32(height), 0, Int.max, &pixels, count)
        }
        XCTAssertEqual(status, Int32(SG_PNG_FAILED))
    }

    func testPixelsOrRowsOfAnotherSizeAreRefusedBeforeAnyWrite() throws {
        let (png, header) = try probedPNG()
        let count = width * height
        let bytes = try GuardedBytes(png)
        for pixelCount in [count - 1, count + 1, 0] {
            let pixels = try GuardedBytes(count: pixelCount * 4)
            let status = sg_png_fast_decode(bytes.bytes, png.count, UInt32(width), UInt32(height), 0, header.idatSize,
                                            pixels.buffer.baseAddress?.assumingMemoryBound(to: UInt32.self), pixelCount)
            XCTAssertEqual(status, Int32(SG_PNG_BAD_BUFFER), "\(pixelCount) pixels")
        }
        let rowsSize = (width * 3 + 1) * height
        let rows = try GuardedBytes(count: rowsSize - 1)
        XCTAssertEqual(sg_png_fast_unfilter_rows(bytes.bytes, png.count, UInt32(width), UInt32(height), 0, header.idatSize,
                                                 rows.bytes, rowsSize - 1, nil, nil), Int32(SG_PNG_BAD_BUFFER))
        // The right sizes, ending at the unmapped page, decode.
        let pixels = try GuardedBytes(count: count * 4)
        XCTAssertEqual(sg_png_fast_decode(bytes.bytes, png.count, UInt32(width), UInt32(height), 0, header.idatSize,
                                          pixels.buffer.baseAddress!.assumingMemoryBound(to: UInt32.self), count), 0)
        XCTAssertEqual(Array(pixels.buffer.bindMemory(to: UInt32.self)), image().pixels.map { $0 | 0xFF00_0000 })
    }

    func testAFileThatIsNotWhatWasProbedIsATypedErrorNeverACrash() throws {
        let (png, header) = try probedPNG()
        for (lie, file) in try lies(png) {
            // The fast decoder declines it (the full decoder then reads or refuses it)…
            XCTAssertNil(try PNGDecoder.fastDecode(file, probed: header, source: "lie.png", limits: .standard), lie)
            // …which words a typed error for each, since none of them is a whole PNG.
            if lie != "shrunk by an IDAT", lie != "grown by an IDAT" {
                XCTAssertThrowsError(try PNGDecoder.decode(file, source: "lie.png"), lie) { error in
                    XCTAssertTrue([.corrupt, .truncated, .notPNG].contains((error as? ImagingError)?.kind), "\(lie): \(error)")
                }
            }
            // A rewrite of it says it is corrupt and leaves no PNG.
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("lie-\(getpid()).png").path
            let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            XCTAssertGreaterThanOrEqual(fd, 0)
            defer {
                close(fd)
                unlink(output)
            }
            XCTAssertThrowsError(try PNGRewrite(file, probed: header).write(covers: [(Rect(x: 0, y: 0, width: 5, height: 5), .black)],
                                                                         to: fd, destination: "out.png"), lie) { error in
                XCTAssertEqual((error as? ImagingError)?.kind, .corrupt, "\(lie): \(error)")
                XCTAssertTrue("\(error)".hasPrefix("out.png: cannot decode PNG: corrupt PNG data"), "\(error)")
            }
        }
        // The bytes probed, by the same paths, decode.
        XCTAssertEqual(try PNGDecoder.fastDecode(png, probed: header, source: "m", limits: .standard)?.pixels,
                       image().pixels.map { $0 | 0xFF00_0000 })
    }
}
