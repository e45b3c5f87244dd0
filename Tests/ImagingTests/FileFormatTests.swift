// GIF, TIFF, PNM, ICO, XWD and AVIF: files made by ImageMagick read to their exact pixels, redacted
// copies written in the original's format and settings and read back by ImageMagick, cut files refused.
import Foundation
import ShotguardBase
import ShotguardImaging
import XCTest

final class FileFormatTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "shotguard-formats-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let folder = folder
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// Runs ImageMagick's convert (the real one, not a wrapper earlier in PATH): a test failure,
    /// not a skip, when it is missing.
    private func magick(_ tool: String, _ arguments: [String]) throws -> String {
        let program = "/usr/bin/" + tool
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw ImagingError(.io, source: program, "ImageMagick is not installed (Debian package imagemagick)")
        }
        let out = folder + "/magick.out"
        let child = try ChildProcess("/bin/sh", ["-c", "\"$0\" \"$@\" > '\(out)'", program] + arguments, output: .standardError)
        XCTAssertEqual(child.waitForExit(), 0, ([tool] + arguments).joined(separator: " "))
        return String(decoding: try FileIO.read(out, limit: 1 << 20), as: UTF8.self)
    }

    private func convert(_ arguments: String...) throws { _ = try magick("convert", arguments.map { $0.hasPrefix("-") || Int($0) != nil ? $0 : path($0) }) }
    /// A name in the test's folder; `FORMAT:name` keeps ImageMagick's format prefix in front.
    private func path(_ name: String) -> String {
        name.contains(":") ? name.replacingOccurrences(of: ":", with: ":" + folder + "/") : folder + "/" + name
    }
    private func read(_ name: String) throws -> [UInt8] { try FileIO.read(folder + "/" + name, limit: 1 << 26) }
    private func write(_ name: String, _ bytes: [UInt8]) throws { try FileIO.writeAtomically(bytes, to: folder + "/" + name) }

    /// A screenshot-like image of few colours (GIF holds it exactly): flat panels, a text-like
    /// row of marks, odd size so that rows need padding.
    private func sample(width: Int = 61, height: Int = 37, grey: Bool = false) -> PixelBuffer {
        let colours: [UInt32] = grey ? [0x000000, 0x404040, 0x808080, 0xC0C0C0, 0xFFFFFF, 0x202020]
            : [0x202428, 0xF0F0F0, 0x3366AA, 0xCC3311, 0x11AA44, 0xFFDD00]
        var image = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let mark = y % 9 < 5 && (x * 7 + y) % 11 < 4
                image[x, y] = 0xFF00_0000 | colours[mark ? (x / 5 + y) % colours.count : (y / 9) % 3]
            }
        }
        return image
    }

    private func blackAndWhite() -> PixelBuffer {
        var image = sample()
        for index in image.pixels.indices { image.pixels[index] = image.pixels[index] & 0xFF == 0xF0 ? 0xFFFF_FFFF : 0xFF00_0000 }
        return image
    }

    /// The image with a rectangle covered, as a redaction leaves it.
    private func redacted(_ image: PixelBuffer, fill: UInt32 = 0xFF00_0000) -> PixelBuffer {
        var copy = image
        for y in 4..<20 { for x in 10..<40 { copy[x, y] = fill } }
        return copy
    }

    /// Each format ImageMagick writes decodes to the pixels of the PNG it was made from.
    func testImageMagicksFilesDecodeToTheirPixels() throws {
        let colour = sample(), grey = sample(grey: true), bits = blackAndWhite()
        let cases: [(name: String, options: [String], image: PixelBuffer, format: ImageFormat)] = [
            ("a.gif", [], colour, .gif), ("b.gif", ["-interlace", "GIF"], colour, .gif),
            ("a.tiff", [], colour, .tiff), ("lzw.tiff", ["-compress", "lzw"], colour, .tiff),
            ("zip.tiff", ["-compress", "zip"], colour, .tiff), ("packbits.tiff", ["-compress", "rle"], colour, .tiff),
            ("msb.tiff", ["-endian", "msb"], colour, .tiff), ("grey.tiff", ["-colorspace", "gray"], grey, .tiff),
            ("a.ppm", [], colour, .pnm), ("plain.ppm", ["-compress", "none"], colour, .pnm),
            ("a.pgm", [], grey, .pnm), ("plain.pgm", ["-compress", "none"], grey, .pnm),
            ("a.pbm", [], bits, .pnm), ("plain.pbm", ["-compress", "none"], bits, .pnm),
            ("a.pam", [], colour, .pnm), ("deep.ppm", ["-depth", "16"], colour, .pnm),
            ("a.ico", [], colour, .ico), ("a.xwd", [], colour, .xwd),
        ]
        for (index, entry) in cases.enumerated() {
            let source = "in\(index).png"
            try write(source, try PNGEncoder.encode(entry.image, destination: source))
            _ = try magick("convert", [path(source)] + entry.options + [path(entry.name)])
            let bytes = try read(entry.name)
            XCTAssertEqual(ImageFormat.sniff(bytes), entry.format, entry.name)
            XCTAssertTrue(entry.format.isComplete(bytes), entry.name)
            let decoded = try ImageCodec.decode(bytes, source: entry.name)
            XCTAssertEqual(decoded.format, entry.format, entry.name)
            XCTAssertFalse(decoded.isLossy, entry.name)
            XCTAssertEqual(decoded.image.width, entry.image.width, entry.name)
            XCTAssertEqual(decoded.image.pixels.map { $0 | 0xFF00_0000 }, entry.image.pixels, entry.name)
        }
    }

    /// A redacted copy is written in the original's format, variant and settings, and ImageMagick
    /// reads the same pixels from it as shotguard wrote.
    func testRedactedCopiesKeepTheOriginalsFormatAndSettings() throws {
        let colour = sample(), grey = sample(grey: true)
        let cases: [(name: String, options: [String], image: PixelBuffer, keeps: String)] = [
            ("k.gif", [], colour, ""), ("k.tiff", ["-compress", "zip"], colour, "Zip"), ("l.tiff", ["-compress", "lzw"], colour, "LZW"),
            ("n.tiff", ["-compress", "none"], colour, "None"), ("g.tiff", ["-colorspace", "gray", "-compress", "lzw"], grey, "LZW"),
            ("k.ppm", [], colour, "P6"), ("k.pgm", [], grey, "P5"), ("plain.ppm", ["-compress", "none"], colour, "P3"),
            ("k.pam", [], colour, "P7"), ("k.ico", [], colour, ""), ("k.xwd", [], colour, ""),
        ]
        for (index, entry) in cases.enumerated() {
            let source = "src\(index).png"
            try write(source, try PNGEncoder.encode(entry.image, destination: source))
            _ = try magick("convert", [path(source)] + entry.options + [path(entry.name)])
            let original = try read(entry.name)
            let encoding = try XCTUnwrap(ImageEncoding.matching(original: original), entry.name)
            XCTAssertEqual(encoding.format, ImageFormat.sniff(original), entry.name)
            let covered = redacted(entry.image)
            let bytes = try ImageCodec.encode(covered, as: encoding, destination: entry.name)
            XCTAssertEqual(ImageFormat.sniff(bytes), encoding.format, entry.name)
            XCTAssertEqual(try ImageCodec.decode(bytes, source: entry.name).image.pixels.map { $0 | 0xFF00_0000 }, covered.pixels,
                           entry.name)
            let written = "out-" + entry.name
            try write(written, bytes)
            _ = try magick("convert", [path(written), "-depth", "8", "PNG24:" + path(written + ".png")])
            XCTAssertEqual(try PNGDecoder.decode(try read(written + ".png"), source: written).pixels.map { $0 | 0xFF00_0000 },
                           covered.pixels, "ImageMagick reads \(written) as written")
            if entry.name.hasSuffix("tiff") {
                XCTAssertEqual(try magick("identify", ["-format", "%C", path(written)]), entry.keeps, "\(entry.name)'s compression")
            } else if !entry.keeps.isEmpty {
                XCTAssertEqual(String(decoding: bytes.prefix(2), as: UTF8.self), entry.keeps, "\(entry.name)'s variant")
            }
        }
    }

    /// A GIF's palette is kept: a fill colour already in it is used as it is, a new one is
    /// added while there is room, and beyond 256 colours each new colour becomes its nearest.
    func testAGIFKeepsItsPalette() throws {
        let image = sample()
        try write("p.png", try PNGEncoder.encode(image, destination: "p.png"))
        try convert("p.png", "p.gif")
        let original = try read("p.gif")
        guard case .settings(let settings) = try XCTUnwrap(ImageEncoding.matching(original: original)),
              let options = settings as? GIFOptions else { return XCTFail("a GIF original is not matched as GIF") }
        XCTAssertEqual(Set(options.palette.prefix(6)), Set([0x202428, 0xF0F0F0, 0x3366AA, 0xCC3311, 0x11AA44, 0xFFDD00]))
        let filled = try GIFCodec.encode(redacted(image, fill: 0xFF12_3456), options: options, destination: "p.gif")
        XCTAssertEqual(try GIFCodec.decode(filled, source: "p.gif"), redacted(image, fill: 0xFF12_3456), "a new fill colour is added")
        XCTAssertEqual(Array(filled[13..<(13 + 18)]), Array(original[13..<(13 + 18)]), "the original's entries keep their places")
        // An interlaced original stays interlaced: its rows go out in the four passes, as ImageMagick reads them.
        var interlaced = options
        interlaced.interlaced = true
        try write("i.gif", try GIFCodec.encode(image, options: interlaced, destination: "i.gif"))
        XCTAssertEqual(try magick("identify", ["-format", "%[interlace]", path("i.gif")]), "GIF")
        try convert("i.gif", "-depth", "8", "PNG24:i.png")
        XCTAssertEqual(try PNGDecoder.decode(try read("i.png"), source: "i.png"), image)

        // A full palette: the fill is drawn as its nearest entry, the rest stays exact.
        let full = GIFOptions(palette: (0..<256).map { UInt32($0) << 16 | UInt32($0) }, transparentIndex: nil)
        var ramp = PixelBuffer(width: 256, height: 2)
        for x in 0..<256 { ramp[x, 0] = 0xFF00_0000 | UInt32(x) << 16 | UInt32(x); ramp[x, 1] = ramp[x, 0] }
        ramp[3, 1] = 0xFF05_0006
        let back = try GIFCodec.decode(try GIFCodec.encode(ramp, options: full, destination: "r.gif"), source: "r.gif")
        XCTAssertEqual(back[3, 1], 0xFF05_0005, "the nearest palette entry")
        XCTAssertEqual(Array(back.pixels[0..<256]), Array(ramp.pixels[0..<256]))
    }

    /// An animation is refused, not read as its first frame: rewriting one frame would drop the
    /// others, and guard cannot know what each showed. A new GIF of many colours is quantised.
    func testAnAnimatedGIFIsRefusedAndManyColoursAreQuantised() throws {
        try write("f1.png", try PNGEncoder.encode(sample(), destination: "f1.png"))
        try write("f2.png", try PNGEncoder.encode(sample(grey: true), destination: "f2.png"))
        try convert("-delay", "20", "f1.png", "f2.png", "anim.gif")
        let animation = try read("anim.gif")
        XCTAssertTrue(ImageFormat.gif.isComplete(animation))
        XCTAssertThrowsError(try ImageCodec.decode(animation, source: "anim.gif")) { error in
            XCTAssertTrue("\(error)".contains("animated GIF (2 frames)"), "\(error)")
        }
        var gradient = PixelBuffer(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { gradient[x, y] = 0xFF00_0000 | UInt32(x * 4) << 16 | UInt32(y * 4) << 8 | 0x80 } }
        let bytes = try ImageCodec.encode(gradient, as: .standard(.gif), destination: "g.gif")
        let back = try GIFCodec.decode(bytes, source: "g.gif")
        var worst = 0
        for (a, b) in zip(back.pixels, gradient.pixels) {
            for shift: UInt32 in [16, 8, 0] { worst = max(worst, abs(Int(a >> shift & 0xFF) - Int(b >> shift & 0xFF))) }
        }
        XCTAssertLessThan(worst, 40, "4096 colours quantised to 256")
    }

    /// XWD in both byte orders and at 24 and 32 bits a pixel: what is written, ImageMagick reads.
    func testXWDsOfEitherByteOrderAreReadBackByImageMagick() throws {
        let image = sample()
        for (bits, bigEndian) in [(32, false), (32, true), (24, false), (24, true)] {
            let bytes = try XWDCodec.encode(image, options: XWDOptions(depth: 24, bitsPerPixel: bits, bigEndian: bigEndian), destination: "x")
            XCTAssertEqual(ImageFormat.sniff(bytes), .xwd)
            XCTAssertEqual(try XWDCodec.decode(bytes, source: "x"), image)
            let name = "o\(bits)\(bigEndian).xwd"
            try write(name, bytes)
            try convert(name, "-depth", "8", "PNG24:" + name + ".png")
            XCTAssertEqual(try PNGDecoder.decode(try read(name + ".png"), source: name), image, name)
            guard case .settings(let settings) = try XCTUnwrap(ImageEncoding.matching(original: bytes)),
                  let options = settings as? XWDOptions else { return XCTFail("an XWD is not matched as XWD") }
            XCTAssertEqual([options.bitsPerPixel, options.bigEndian ? 1 : 0], [bits, bigEndian ? 1 : 0])
        }
    }

    /// XWD has no magic number: a dump is recognised by every field of its header, and bytes
    /// that only come close (another version, a size beyond 65535, lines too short for their
    /// pixels, text) are not taken for one.
    func testAnXWDIsRecognisedByItsWholeHeaderOnly() throws {
        let dump = try XWDCodec.encode(sample(), options: .standard, destination: "x")
        XCTAssertEqual(ImageFormat.sniff(dump), .xwd)
        func patched(_ field: Int, _ value: UInt32) -> [UInt8] {
            var bytes = dump
            for index in 0..<4 { bytes[field * 4 + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
            return bytes
        }
        for (what, bytes) in [("version 6", patched(1, 6)), ("a header of 12 bytes", patched(0, 12)), ("70000 wide", patched(4, 70000)),
                              ("depth 33", patched(3, 33)), ("lines of 4 bytes", patched(12, 4)), ("visual class 9", patched(13, 9)),
                              ("text", Array(String(repeating: "not an image ", count: 10).utf8))] {
            XCTAssertNil(ImageFormat.sniff(bytes), what)
        }
    }

    /// AVIF: ImageMagick's (libheif's) files decode close to their pixels; shotguard's lossless
    /// AVIF comes back exact, and a redacted copy of a lossy original stays lossy.
    func testAVIFIsReadAndWritten() throws {
        // Smooth colour: AVIF's halved chroma (4:2:0) smears thin coloured marks, and decoders
        // upsample it each their own way.
        var image = PixelBuffer(width: 61, height: 37)
        for y in 0..<37 { for x in 0..<61 { image[x, y] = 0xFF00_0000 | UInt32(40 + x * 3) << 16 | UInt32(60 + y * 4) << 8 | 0x90 } }
        try write("s.png", try PNGEncoder.encode(image, destination: "s.png"))
        try convert("s.png", "-quality", "90", "s.avif")
        let original = try read("s.avif")
        XCTAssertEqual(ImageFormat.sniff(original), .avif)
        XCTAssertTrue(ImageFormat.avif.isComplete(original))
        let decoded = try ImageCodec.decode(original, source: "s.avif")
        XCTAssertTrue(decoded.isLossy)
        try convert("s.avif", "-depth", "8", "PNG24:s-back.png")
        XCTAssertLessThan(meanError(decoded.image, try PNGDecoder.decode(try read("s-back.png"), source: "s-back.png")), 2,
                          "as ImageMagick (libheif) reads it")
        XCTAssertLessThan(meanError(decoded.image, image), 3)
        guard case .settings(let settings) = try XCTUnwrap(ImageEncoding.matching(original: original)),
              let options = settings as? AVIFOptions else { return XCTFail("an AVIF is not matched as AVIF") }
        XCTAssertFalse(options.lossless)
        let marks = sample()
        let lossless = try AVIFCodec.encode(marks, options: AVIFOptions(quality: 100, lossless: true), destination: "l.avif")
        XCTAssertEqual(try AVIFCodec.decode(lossless, source: "l.avif"), marks)
        try write("l.avif", lossless)
        XCTAssertEqual(try magick("identify", ["-format", "%wx%h", path("l.avif")]), "61x37")
    }

    /// Every format cut short (a writer still at work, a broken copy) is incomplete and refused
    /// with one line naming the file; nothing is read from it.
    func testCutFilesAreIncompleteAndRefusedInOneLine() throws {
        let image = sample()
        try write("c.png", try PNGEncoder.encode(image, destination: "c.png"))
        for name in ["c.gif", "c.tiff", "c.ppm", "c.pam", "c.ico", "c.xwd", "c.avif"] {
            try convert("c.png", name)
            let whole = try read(name)
            for length in [whole.count / 2, whole.count - 1, 24] {
                let cut = Array(whole.prefix(length))
                XCTAssertFalse(ImageFormat.sniff(cut)?.isComplete(cut) ?? false, "\(name) cut to \(length) bytes")
                XCTAssertThrowsError(try ImageCodec.decode(cut, source: name), "\(name) cut to \(length) bytes") { error in
                    let text = "\(error)"
                    XCTAssertTrue(text.hasPrefix(name + ": ") && !text.contains("\n"), text)
                }
            }
        }
    }

    /// Mean absolute difference per channel.
    private func meanError(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var total = 0
        for (p, q) in zip(a.pixels, b.pixels) {
            for shift: UInt32 in [16, 8, 0] { total += abs(Int(p >> shift & 0xFF) - Int(q >> shift & 0xFF)) }
        }
        return Double(total) / Double(a.pixels.count * 3)
    }
}
