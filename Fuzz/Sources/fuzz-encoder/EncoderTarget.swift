// Fuzzes the PNG encoder: any size, alpha, level, filter, band size and pixels give a PNG that
// libpng reads back as the same pixels, whether encoded whole, written to a descriptor,
// streamed while its rows arrive with covers put on as they come, or streamed through a ring of
// strips (a capture's path); a bad level is an error. Rows in memory of any length and any
// distance apart are encoded when they fit it and refused as .bufferSize, before any read, when
// they do not.
import CShotguardPNG
import FuzzSupport
import Glibc
import ShotguardBase
import ShotguardImaging

private let limits = DecodeLimits(maxWidth: 4096, maxHeight: 4096, maxPixels: 1 << 20, maxInputBytes: 1 << 22)

/// The file every input's writers write to, emptied before each use (unlinked at once).
private let scratch: Int32 = {
    var template = Array("/tmp/shotguard-fuzz-encoder-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    require(fd >= 0, "cannot make a scratch file: \(errnoText())")
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return fd
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEncoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let path = input.byte() % 5
    let width = input.int(in: 1...64)
    let height = input.int(in: 1...64)
    let hasAlpha = input.byte() & 1 == 1
    let level = compressionLevel(input.byte())
    let filter: EncodeOptions.Filter = [.none, .sub, .up, .adaptive][Int(input.byte() % 4)]
    let options = EncodeOptions(compressionLevel: level, filter: filter, bandRows: bandRows(&input, height: height))
    let covers = (0..<Int(input.byte() % 4)).map { _ in cover(&input, width: width, height: height) }
    let arrivals = input.chunk()
    let image = PixelBuffer(width: width, height: height, pixels: pixels(input.rest(), count: width * height),
                            hasAlpha: hasAlpha)
    let valid = (0...12).contains(level)

    // One way per input: each costs an encode and a decode, and libFuzzer finds each by the byte.
    switch path {
    case 0:
        check(image, valid: valid, "encoded whole") { () throws(ImagingError) in
            try PNGEncoder.encode(image, options: options, destination: "output.png")
        }
    case 1:
        check(image, valid: valid, "written to a descriptor") { () throws(ImagingError) in
            try written { (fd) throws(ImagingError) in try PNGEncoder.write(image, options: options, to: fd, destination: "output.png") }
        }
    case 2:
        throughRing(image, strip: 1 + Int(arrivals.first ?? 0) % 16, covers: covers, options: options, valid: valid)
    case 3:
        inMemoryOfItsOwn(image, strideChange: Int(Int8(bitPattern: arrivals.first ?? 0)),
                         lengthChange: Int(Int8(bitPattern: arrivals.dropFirst().first ?? 0)), options: options, valid: valid)
    default:
        streamed(image, covers: covers, arrivals: arrivals, options: options, valid: valid)
    }
    return 0
}

/// Levels 0-12 mostly, and now and then one the encoder must refuse.
private func compressionLevel(_ byte: UInt8) -> Int {
    byte < 232 ? Int(byte % 13) : [-1, 13, 99, Int(Int32.max), Int(Int32.max) + 1, Int.max, Int.min, -13][Int(byte % 8)]
}

/// Rows per band: the default, a few, about the height, or far past it (which wrapped the band
/// count to 0 in 32 bits), and negative.
private func bandRows(_ input: inout FuzzInput, height: Int) -> Int {
    switch input.byte() % 5 {
    case 0: return 0
    case 1: return input.int(in: 1...8)
    case 2: return height + input.int(in: -2...2)
    case 3: return Int(input.uint32())
    default: return [Int(UInt32.max), Int(UInt32.max) + 1, Int.max, Int.min, -1][Int(input.byte() % 5)]
    }
}

/// A rectangle that may reach past any edge, and a fill.
private func cover(_ input: inout FuzzInput, width: Int, height: Int) -> Cover {
    let rect = Rect(x: input.int(in: -8...width + 8), y: input.int(in: -8...height + 8),
                    width: input.int(in: 0...width + 16), height: input.int(in: 0...height + 16))
    let kind = input.byte()
    let fill: Fill = kind & 1 == 0 ? .solid(input.uint32() & 0xFF_FFFF) : .pixelate(blockSize: Int(kind >> 1) % 20)
    return (rect, fill)
}

/// `count` pixels from `bytes`, repeated to fill; a gradient when there are none.
private func pixels(_ bytes: [UInt8], count: Int) -> [UInt32] {
    guard !bytes.isEmpty else { return (0..<count).map { UInt32(truncatingIfNeeded: $0 &* 0x0103_0507) } }
    return (0..<count).map { index in
        (0..<4).reduce(UInt32(0)) { word, byte in word << 8 | UInt32(bytes[(index * 4 + byte) % bytes.count]) }
    }
}

/// What `write` put in the scratch file.
private func written(_ write: (Int32) throws(ImagingError) -> Void) throws(ImagingError) -> [UInt8] {
    require(ftruncate(scratch, 0) == 0 && lseek(scratch, 0, SEEK_SET) == 0, "cannot empty the scratch file")
    try write(scratch)
    require(lseek(scratch, 0, SEEK_SET) == 0, "cannot rewind the scratch file")
    do throws(FileError) {
        return try FileDescriptor(scratch, name: "scratch").readAll(limit: 1 << 24)
    } catch {
        require(false, "cannot read the scratch file back: \(error)")
        return []
    }
}

/// `encode` must give a PNG of `expected` when the options are valid, and a one-line error
/// naming the output when they are not.
private func check(_ expected: PixelBuffer, valid: Bool, _ how: String, _ encode: () throws(ImagingError) -> [UInt8]) {
    let png: [UInt8]
    do throws(ImagingError) {
        png = try encode()
    } catch {
        require(!valid, "\(how): valid options failed: \(error.description)")
        require(error.description.hasPrefix("output.png: ") && !error.description.contains("\n"),
                "\(how): the error names the output, on one line: \(error.description)")
        return
    }
    require(valid, "\(how): an invalid compression level was accepted")
    guard let decoded = requireDecoded("output.png", limits: limits, { () throws(ImagingError) in
        try PNGDecoder.decode(png, source: "output.png", limits: limits)
    }) else {
        require(false, "\(how): libpng cannot read the encoder's PNG")
        return
    }
    // An opaque image's fourth byte is padding, not alpha: the PNG is RGB.
    let mask: UInt32 = expected.hasAlpha ? 0xFFFF_FFFF : 0x00FF_FFFF
    require(decoded.width == expected.width && decoded.height == expected.height
            && zip(decoded.pixels, expected.pixels).allSatisfy { $0 & mask == $1 & mask },
            "\(how): a \(expected.width)x\(expected.height) image (alpha \(expected.hasAlpha)) did not read back the same")
}

/// Streams `image` as its rows arrive in the steps `arrivals` gives, with `covers` put on as
/// they allow, and checks the PNG against the covers applied all at once. An arrivals byte of
/// 255 cancels the stream there instead: nothing is checked but that nothing breaks.
private func streamed(_ image: PixelBuffer, covers: [Cover], arrivals: [UInt8], options: EncodeOptions, valid: Bool) {
    var expected = image
    if image.hasAlpha {
        // Covers of rows held elsewhere (an X image, a PNG being decoded) make a mosaic opaque.
        expected.pixels.withUnsafeMutableBytes { bytes in
            let rows = validRows(bytes, width: image.width, height: image.height, bytesPerRow: image.width * 4)
            for cover in covers { rows.redact(cover.rect, with: cover.fill) }
        }
    } else {
        for cover in covers { expected.redact(cover.rect, with: cover.fill) }
    }
    var frame = image.pixels
    frame.withUnsafeMutableBytes { bytes in
        let rows = validRows(bytes, width: image.width, height: image.height, bytesPerRow: image.width * 4)
        if let cut = arrivals.firstIndex(of: 255) {
            cancelled(rows, after: arrivals[..<cut], covers: covers, hasAlpha: image.hasAlpha, options: options)
            return
        }
        check(expected, valid: valid, "streamed") { () throws(ImagingError) in
            try written { (fd) throws(ImagingError) in
                let writer = try PNGStreamWriter(rows, covers: covers, hasAlpha: image.hasAlpha, options: options, to: fd,
                                                 destination: "output.png")
                var arrived = 0
                for step in arrivals {
                    arrived += Int(step)
                    writer.rowsArrived(arrived)
                }
                try writer.finish()
            }
        }
    }
}

/// A stream cancelled after some rows arrived: its workers stop and nothing is left running.
private func cancelled(_ rows: PixelRows, after arrivals: ArraySlice<UInt8>, covers: [Cover], hasAlpha: Bool,
                       options: EncodeOptions) {
    _ = try? written { (fd) throws(ImagingError) in
        let writer = try PNGStreamWriter(rows, covers: covers, hasAlpha: hasAlpha, options: options, to: fd,
                                         destination: "output.png")
        var arrived = 0
        for step in arrivals {
            arrived += Int(step)
            writer.rowsArrived(arrived)
        }
        writer.cancel()
        do throws(ImagingError) {
            try writer.finish()  // after a cancel: nothing to do
        } catch {
            require(false, "finish after cancel failed: \(error.description)")
        }
    }
}

/// Streams an opaque `image` through the smallest ring that holds a strip of `strip` rows beside
/// a band, with the solid ones of `covers`: the PNG must read back as the covers applied at once.
private func throughRing(_ image: PixelBuffer, strip: Int, covers: [Cover], options: EncodeOptions, valid: Bool) {
    let solid = covers.filter { if case .solid = $0.fill { true } else { false } }
    var expected = image
    expected.hasAlpha = false
    expected.pixels = expected.pixels.map { $0 | 0xFF00_0000 }
    for cover in solid { expected.redact(cover.rect, with: cover.fill) }
    let besides = PNGStreamWriter.ringRowsBesidesStrip(width: image.width, height: image.height, options: options)
    let ringRows = strip * max(1, (strip + besides + strip - 1) / strip)
    var ring = [UInt32](repeating: 0xFFDE_ADBE, count: image.width * ringRows)
    ring.withUnsafeMutableBytes { bytes in
        let rows = validRows(bytes, width: image.width, height: ringRows, bytesPerRow: image.width * 4)
        check(expected, valid: valid, "through a ring of \(ringRows) rows in strips of \(strip)") { () throws(ImagingError) in
            try written { (fd) throws(ImagingError) in
                let writer = try PNGStreamWriter(ring: rows, height: image.height, covers: solid, options: options, to: fd,
                                                 destination: "output.png")
                for start in stride(from: 0, to: image.height, by: strip) {
                    let end = min(start + strip, image.height)
                    require(writer.reserve(until: end), "a strip that fits the ring was refused")
                    image.pixels.withUnsafeBytes { pixels in
                        (rows.base + (start % ringRows) * rows.bytesPerRow).copyMemory(
                            from: pixels.baseAddress! + start * image.width * 4, byteCount: (end - start) * image.width * 4)
                    }
                    writer.ringArrived(start..<end)
                }
                try writer.finish()
            }
        }
    }
}

/// Rows that fit their memory by construction.
private func validRows(_ memory: UnsafeMutableRawBufferPointer, width: Int, height: Int, bytesPerRow: Int) -> PixelRows {
    do throws(ImagingError) {
        return try PixelRows(memory, width: width, height: height, bytesPerRow: bytesPerRow)
    } catch {
        require(false, "rows that fit their memory were refused: \(error.description)")
        fatalError("unreachable")
    }
}

/// `image`'s rows copied `strideChange` bytes further apart than its pixels (closer when
/// negative) into an allocation of exactly `lengthChange` bytes more than they need (fewer when
/// negative): rows that fit must encode to the image, through PixelRows and through the C
/// entry point called directly; rows that do not must be refused as .bufferSize by both, and
/// AddressSanitizer sees any read past the allocation either way.
private func inMemoryOfItsOwn(_ image: PixelBuffer, strideChange: Int, lengthChange: Int, options: EncodeOptions,
                              valid: Bool) {
    let apart = max(0, image.width * 4 + strideChange)
    let needed = apart * (image.height - 1) + image.width * 4
    let length = max(0, needed + lengthChange)
    let fits = apart >= image.width * 4 && length >= needed
    let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 1)
    defer { memory.deallocate() }
    memory.initializeMemory(as: UInt8.self, repeating: 0xA5)
    if fits {
        image.pixels.withUnsafeBytes { pixels in
            for row in 0..<image.height {
                (memory.baseAddress! + row * apart).copyMemory(from: pixels.baseAddress! + row * image.width * 4,
                                                               byteCount: image.width * 4)
            }
        }
    }
    var message = [CChar](repeating: 0, count: 256)
    var job: OpaquePointer?
    let status = sg_png_compress_bgrx(memory.baseAddress?.assumingMemoryBound(to: UInt8.self), memory.count,
                                      UInt32(image.width), UInt32(image.height), apart, 0,
                                      Int32(clamping: options.compressionLevel), options.filter.rawValue,
                                      UInt32(clamping: options.bandRows), &job, &message, message.count)
    sg_png_job_free(job)
    // A bad level is refused before the rows are looked at.
    require(!valid ? status != 0 : fits ? status == 0 : status == Int32(SG_PNG_BAD_BUFFER),
            "the encoder's C entry point said \(status) of rows \(apart) bytes apart in \(length) bytes (\(needed) needed)")
    let rows: PixelRows
    do throws(ImagingError) {
        rows = try PixelRows(memory, width: image.width, height: image.height, bytesPerRow: apart)
    } catch {
        require(!fits && error.kind == .bufferSize, "rows \(apart) bytes apart in \(length) bytes: \(error.description)")
        return
    }
    require(fits, "rows \(apart) bytes apart were taken in \(length) bytes (\(needed) needed)")
    var opaque = image
    opaque.hasAlpha = false
    check(opaque, valid: valid, "in memory of its own, rows \(apart) bytes apart") { () throws(ImagingError) in
        try PNGEncoder.encode(rows, options: options, destination: "output.png")
    }
}
