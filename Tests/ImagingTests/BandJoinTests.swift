// Bands compressed apart and joined into one zlib stream decode (with libpng) to the same pixels.
import CShotguardPNG
import Foundation
import ShotguardBase
import ShotguardImaging
import XCTest

final class BandJoinTests: XCTestCase {
    /// Sizes that make edge cases: one row, one column, odd widths, bands of one row, a last
    /// band shorter than the others, and levels from stored (0) to slow (9).
    func testBandedImagesRoundTripThroughLibpng() throws {
        let cases: [(width: Int, height: Int, bandRows: Int)] = [
            (1, 1, 0), (7, 1, 0), (1, 9, 1), (33, 17, 1), (301, 203, 0), (301, 203, 7), (640, 480, 64), (257, 65, 13),
        ]
        for (width, height, bandRows) in cases {
            let image = TestData.screenshotLike(width: width, height: height)
            for level in [0, 1, 2, 6, 9] {
                for filter in [EncodeOptions.Filter.none, .sub, .up, .adaptive] {
                    let options = EncodeOptions(compressionLevel: level, filter: filter, bandRows: bandRows)
                    let png = try PNGEncoder.encode(image, options: options, destination: "m")
                    let decoded = try PNGDecoder.decode(png, source: "m")
                    XCTAssertEqual(decoded.pixels, image.pixels, "\(width)x\(height), bands of \(bandRows) rows, level \(level), \(filter)")
                }
            }
        }
    }

    func testAlphaImagesInBandsOfOneRowRoundTrip() throws {
        var image = TestData.screenshotLike(width: 45, height: 31)
        image.hasAlpha = true
        for index in image.pixels.indices { image.pixels[index] &= index % 3 == 0 ? 0x40FF_FFFF : 0xFFFF_FFFF }
        let png = try PNGEncoder.encode(image, options: EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: 1), destination: "m")
        XCTAssertEqual(try PNGDecoder.decode(png, source: "m").pixels, image.pixels)
    }

    func testRowsWithPaddingAreReadInPlace() throws {
        // An X image's rows can be longer than the pixels they hold.
        let image = TestData.screenshotLike(width: 50, height: 40)
        let stride = 50 * 4 + 24
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * 40, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xEE, count: stride * 40)
        image.pixels.withUnsafeBytes { pixels in
            for row in 0..<40 { (memory + row * stride).copyMemory(from: pixels.baseAddress! + row * 200, byteCount: 200) }
        }
        let rows = try PixelRows(UnsafeMutableRawBufferPointer(start: memory, count: stride * 40), width: 50, height: 40,
                                 bytesPerRow: stride)
        let png = try PNGEncoder.encode(rows, options: EncodeOptions(compressionLevel: 1, filter: .none, bandRows: 3), destination: "m")
        XCTAssertEqual(try PNGDecoder.decode(png, source: "m").pixels, image.pixels)
        XCTAssertEqual(PixelBuffer(copying: rows), image)
    }

    func testRedactingRowsInPlaceMatchesRedactingABuffer() throws {
        var image = TestData.screenshotLike(width: 120, height: 90)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 480 * 90, alignment: 16)
        defer { memory.deallocate() }
        image.pixels.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: 480 * 90) }
        let rows = try PixelRows(UnsafeMutableRawBufferPointer(start: memory, count: 480 * 90), width: 120, height: 90,
                                 bytesPerRow: 480)
        for (rect, fill) in [(Rect(x: 10, y: 5, width: 30, height: 20), Fill.black),
                             (Rect(x: 100, y: 70, width: 50, height: 50), Fill.pixelate(blockSize: 8))] {
            rows.redact(rect, with: fill)
            image.redact(rect, with: fill)
        }
        XCTAssertEqual(PixelBuffer(copying: rows), image)
    }

    func testRowsWrittenBandByBandToAFileDecodeToTheSamePixels() throws {
        let image = TestData.screenshotLike(width: 123, height: 77)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 123 * 4 * 77, alignment: 16)
        defer { memory.deallocate() }
        image.pixels.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: 123 * 4 * 77) }
        let rows = try PixelRows(UnsafeMutableRawBufferPointer(start: memory, count: 123 * 4 * 77), width: 123, height: 77,
                                 bytesPerRow: 123 * 4)
        let path = NSTemporaryDirectory() + "/band-stream-\(getpid()).png"
        defer { unlink(path) }
        for bandRows in [0, 1, 10] {
            let options = EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: bandRows)
            try FileIO.writeAtomically(to: path, failure: ImagingError.init) { (fd) throws(ImagingError) in
                try PNGEncoder.write(rows, options: options, to: fd, destination: path)
            }
            let png = try FileIO.read(path, limit: 1 << 20)
            XCTAssertEqual(try PNGDecoder.decode(png, source: path).pixels, image.pixels, "bands of \(bandRows) rows")
        }
    }

    func testAFailedWriteIsAnErrorThatNamesTheFile() throws {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0x40, count: 64)
        let rows = try PixelRows(UnsafeMutableRawBufferPointer(start: memory, count: 64), width: 4, height: 4, bytesPerRow: 16)
        XCTAssertThrowsError(try PNGEncoder.write(rows, to: -1, destination: "closed.png")) { error in
            XCTAssertTrue("\(error)".contains("closed.png"), "\(error)")
            XCTAssertTrue("\(error)".contains("cannot write"), "\(error)")
        }
    }

    func testUnfinishingAMalformedStreamFailsInsteadOfReadingPastIt() {
        var bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0]
        var size = 0
        XCTAssertEqual(sg_deflate_unfinish(&bytes, 4, bytes.count, &size), -1)
    }

    /// The capacity is the caller's, not a promise in a comment: a stream with no room after it
    /// for the empty stored block is refused and left as it was.
    func testUnfinishingWithoutRoomForTheStoredBlockFailsAndChangesNothing() throws {
        let stream = try Self.rawDeflate(of: try PNGEncoder.encode(TestData.screenshotLike(width: 64, height: 16),
                                                                   options: EncodeOptions(compressionLevel: 1, filter: .up,
                                                                                          bandRows: 16),
                                                                   destination: "m"))
        var exact = stream
        var size = 0
        XCTAssertEqual(sg_deflate_unfinish(&exact, exact.count, exact.count, &size), -1)
        XCTAssertEqual(exact, stream, "a refused stream is not changed")
        XCTAssertEqual(sg_deflate_unfinish(&exact, exact.count, exact.count + 3, &size), -1)
        var roomy = stream + [0, 0, 0, 0, 0]
        XCTAssertEqual(sg_deflate_unfinish(&roomy, stream.count, roomy.count, &size), 0)
        XCTAssertLessThanOrEqual(size, roomy.count)
    }

    /// Regression (found under ASan): bands of more rows than the image has made the band count
    /// 0 (height + band_rows - 1 wrapped around in 32 bits) and the encoder read bands[0] past
    /// its array; in Swift, a band count over UInt32.max trapped. Any count now encodes.
    func testBandsOfMoreRowsThanTheImageHasEncodeAsOneBand() throws {
        let image = TestData.screenshotLike(width: 33, height: 21)
        for bandRows in [21, 22, Int(UInt32.max) - 1, Int(UInt32.max), Int(UInt32.max) + 1, Int.max, -5] {
            let options = EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: bandRows)
            let png = try PNGEncoder.encode(image, options: options, destination: "m")
            XCTAssertEqual(try PNGDecoder.decode(png, source: "m").pixels, image.pixels, "bands of \(bandRows) rows")
            let path = NSTemporaryDirectory() + "bands-\(UUID().uuidString).png"
            defer { unlink(path) }
            try FileIO.writeAtomically(to: path, failure: ImagingError.init) { (fd) throws(ImagingError) in
                try PNGEncoder.write(image, options: options, to: fd, destination: path)
            }
            XCTAssertEqual(try PNGDecoder.decode(try FileIO.read(path, limit: 1 << 20), source: path).pixels, image.pixels,
                           "streamed, bands of \(bandRows) rows")
        }
    }

    /// At level 1, mostly-flat bands are compressed by zlib and busy ones by libdeflate, in one
    /// stream: bands of flat colour and of noise in turn, ending in either, decode to the pixels.
    func testFlatAndBusyBandsInTurnRoundTrip() throws {
        var seed: UInt32 = 99
        for lastIsFlat in [true, false] {
            let bands = 7, bandRows = 9, width = 700
            var image = PixelBuffer(width: width, height: bands * bandRows)
            for y in 0..<image.height {
                let flat = (y / bandRows) % 2 == (lastIsFlat ? 0 : 1)
                for x in 0..<width {
                    seed = seed &* 1_103_515_245 &+ 12345
                    image[x, y] = flat ? 0xFFE0_E4E8 : 0xFF00_0000 | (seed >> 8)
                }
            }
            let before = sg_png_bands_by_zlib()
            let png = try PNGEncoder.encode(image, options: EncodeOptions(compressionLevel: 1, filter: .adaptive, bandRows: bandRows),
                                            destination: "m")
            XCTAssertGreaterThanOrEqual(sg_png_bands_by_zlib() - before, lastIsFlat ? 4 : 3, "the flat bands went to zlib")
            XCTAssertEqual(try PNGDecoder.decode(png, source: "m").pixels, image.pixels, "last band flat: \(lastIsFlat)")
        }
    }

    /// Finding a band's end from the back must agree with walking its codes wherever it gives
    /// an answer, and give one for nearly every band of one Huffman block (what libdeflate's
    /// fastest level makes of a band): on noise, screenshot-like rows, gradients and flat colour,
    /// of many sizes, from libdeflate (busy bands) and zlib (flat ones) at level 1, and at others.
    func testTheEndFoundFromTheBackIsTheEndTheWalkFinds() throws {
        var answered = 0, oneDynamicBlock = 0
        var seed: UInt32 = 7
        for (width, height) in [(1, 1), (16, 3), (97, 13), (640, 33), (1920, 11), (1280, 16), (333, 45)] {
            var noise = PixelBuffer(width: width, height: height)
            for i in noise.pixels.indices {
                seed = seed &* 1_103_515_245 &+ 12345
                noise.pixels[i] = 0xFF00_0000 | (seed >> 8)
            }
            var gradient = PixelBuffer(width: width, height: height)
            for y in 0..<height { for x in 0..<width { gradient[x, y] = 0xFF00_0000 | UInt32((x * 3 + y) & 0xFF) << 8 } }
            let images = [noise, gradient, TestData.screenshotLike(width: width, height: height),
                          PixelBuffer(width: width, height: height, fill: 0xFF33_66AA)]
            for (kind, image) in images.enumerated() {
                for level in [1, 2, 6] {
                    let options = EncodeOptions(compressionLevel: level, filter: .adaptive, bandRows: height)
                    var stream = try Self.rawDeflate(of: PNGEncoder.encode(image, options: options, destination: "m"))
                    let what = "\(width)x\(height), image \(kind), level \(level)"
                    var header = 0, walked = 0, fromBack = 0
                    XCTAssertEqual(sg_deflate_end_by_walking(&stream, stream.count, &header, &walked), 0, what)
                    XCTAssertEqual((walked + 7) / 8, stream.count, "the final block ends in the last byte: \(what)")
                    if sg_deflate_end_from_back(&stream, stream.count, &fromBack) == 0 {
                        XCTAssertEqual(fromBack, walked, what)
                        XCTAssertEqual(header, 0, "found from the back only for one block: \(what)")
                        answered += level == 1 ? 1 : 0
                    }
                    // Final and dynamic at bit 0: one Huffman block (noise gets a stored one).
                    oneDynamicBlock += level == 1 && stream[0] & 7 == 5 ? 1 : 0
                }
            }
        }
        // Ambiguous ends (the end-of-block code ending in zero bits that padding could also
        // be) are left to the walk; they are rare.
        XCTAssertGreaterThan(oneDynamicBlock, 10)
        XCTAssertGreaterThanOrEqual(answered * 10, oneDynamicBlock * 9, "\(answered) of \(oneDynamicBlock) one-block bands")
    }

    /// A block whose end-of-block code is all zero bits fits at every place in its last byte's
    /// padding: the end is not taken from the back, and the walk finds it.
    func testAnEndOfBlockCodeOfZeroBitsIsLeftToTheWalk() {
        // Final dynamic block: 'A' and 'B' have 2-bit codes (10, 11), the end-of-block code
        // "0". Code lengths through a code-length code of four 2-bit codes: 0, 1, 2 and 18
        // (a run of 11-138 zeros).
        var bits = BitWriter()
        bits.put(1, 1); bits.put(2, 2) // final, dynamic
        bits.put(0, 5); bits.put(0, 5); bits.put(14, 4) // 257 literal/length codes, 1 distance code, 18 lengths
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1]
        for symbol in order { bits.put([0, 1, 2, 18].contains(symbol) ? 2 : 0, 3) }
        let precode: [Int: UInt32] = [0: 0b00, 1: 0b01, 2: 0b10, 18: 0b11]
        func zeros(_ count: Int) { bits.code(precode[18]!, 2); bits.put(UInt32(count - 11), 7) }
        zeros(65) // literals 0-64
        bits.code(precode[2]!, 2); bits.code(precode[2]!, 2) // 'A', 'B': 2 bits
        zeros(138); zeros(51) // literals 67-255
        bits.code(precode[1]!, 2) // end of block: 1 bit
        bits.code(precode[0]!, 2) // the distance code: unused
        bits.code(0b10, 2); bits.code(0b10, 2); bits.code(0b11, 2) // "AAB"
        let endOfData = bits.count + 1
        bits.code(0b0, 1) // end of block
        var stream = bits.bytes
        XCTAssertGreaterThan(stream.count * 8 - endOfData, 0, "padding follows")
        var header = 0, walked = 0, fromBack = 0
        XCTAssertEqual(sg_deflate_end_by_walking(&stream, stream.count, &header, &walked), 0)
        XCTAssertEqual(walked, endOfData)
        XCTAssertEqual(sg_deflate_end_from_back(&stream, stream.count, &fromBack), -1, "several places fit")
        stream += [0, 0, 0, 0, 0]
        var size = 0
        XCTAssertEqual(sg_deflate_unfinish(&stream, stream.count - 5, stream.count, &size), 0)
        XCTAssertEqual(stream[0] & 1, 0, "the block is no longer final")
        XCTAssertEqual(Array(stream[size - 4..<size]), [0, 0, 0xFF, 0xFF], "an empty stored block ends it")
    }

    /// The raw deflate of a PNG encoded as one band: its IDAT data less the zlib header and the
    /// Adler-32 (the encoder ends the stream with the trailer in an IDAT of its own).
    private static func rawDeflate(of png: [UInt8]) throws -> [UInt8] {
        var data: [UInt8] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if png[offset + 4..<offset + 8].elementsEqual("IDAT".utf8) { data += png[offset + 8..<offset + 8 + length] }
            offset += 12 + length
        }
        XCTAssertGreaterThan(data.count, 6)
        return Array(data[2..<data.count - 4])
    }
}

/// Deflate's bit order: values least significant bit first, Huffman codes most significant first.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func put(_ value: UInt32, _ width: Int) {
        for bit in 0..<width { append(value >> UInt32(bit) & 1) }
    }

    mutating func code(_ code: UInt32, _ length: Int) {
        for bit in stride(from: length - 1, through: 0, by: -1) { append(code >> UInt32(bit) & 1) }
    }

    private mutating func append(_ bit: UInt32) {
        if count % 8 == 0 { bytes.append(0) }
        bytes[bytes.count - 1] |= UInt8(bit) << UInt8(count % 8)
        count += 1
    }
}
