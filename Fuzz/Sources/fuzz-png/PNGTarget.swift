// Fuzzes the PNG decoder: any bytes give an image or a one-line error; an image survives a round
// trip; a rewrite while decoding (redact's path) gives what decode, cover and encode give, or
// says the data is corrupt. The fast decoders are also handed bytes other than the ones probed
// (the input as it came after its fixed copy was probed, and cut short): they decline them or
// say they are corrupt, never reading or writing out of bounds.
import FuzzSupport
import Glibc
@testable import ShotguardImaging

/// Smaller than the standard limits so that one input costs milliseconds, not a 256 MiB
/// allocation; the limit checks themselves are the same code.
private let limits = DecodeLimits(maxWidth: 4096, maxHeight: 4096, maxPixels: 1 << 20, maxInputBytes: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    check(input.bytes)
    // The same bytes with valid checksums, which reach the decoding behind libpng's CRC checks.
    let fixed = withCorrectChecksums(input.bytes)
    if fixed != input.bytes { check(fixed) }
    if let header = FastPNGHeader(fixed) {
        notWhatWasProbed(input.bytes, probed: header)
        notWhatWasProbed(Array(input.bytes.prefix(input.bytes.count / 2 + Int(input.bytes.last ?? 0) % 16)), probed: header)
    }
    return 0
}

/// `bytes` decoded with what a probe said of other bytes: an image of the probed size, nil
/// (declined, as corrupt data is), or .corrupt from a rewrite; nothing else, and no access
/// out of bounds (AddressSanitizer watches the allocations of both decoders).
private func notWhatWasProbed(_ bytes: [UInt8], probed header: FastPNGHeader) {
    guard limits.exceeded(width: header.width, height: header.height) == nil else { return }
    do throws(ImagingError) {
        if let image = try PNGDecoder.fastDecode(bytes, probed: header, source: "input.png", limits: limits) {
            require(image.width == header.width && image.height == header.height, "the fast decoder changed the image's size")
        }
    } catch {
        require(false, "the fast decoder threw for bytes not probed: \(error.description)")
    }
    require(ftruncate(scratch, 0) == 0 && lseek(scratch, 0, SEEK_SET) == 0, "cannot empty the scratch file")
    do throws(ImagingError) {
        try PNGRewrite(bytes, probed: header).write(covers: [], to: scratch, destination: "output.png")
    } catch {
        require(error.kind == .corrupt || error.kind == .tooLarge, "a rewrite of bytes not probed: \(error.description)")
    }
}

private func check(_ bytes: [UInt8]) {
    let image = requireDecoded("input.png", limits: limits, { () throws(ImagingError) in
        try PNGDecoder.decode(bytes, source: "input.png", limits: limits)
    })
    rewrite(bytes, decoded: image)
    guard let image else { return }
    // What the decoder returns, the encoder must write and the decoder read back unchanged:
    // a redacted screenshot is exactly this trip.
    do throws(ImagingError) {
        let encoded = try PNGEncoder.encode(image, destination: "output.png")
        let again = try PNGDecoder.decode(encoded, source: "output.png", limits: limits)
        require(again == image, "a \(image.width)x\(image.height) image changed in an encode-decode round trip")
    } catch {
        require(false, "a decoded image failed its round trip: \(error.description)")
    }
}

/// The file the rewrites write to, emptied before each use (unlinked at once).
private let scratch: Int32 = {
    var template = Array("/tmp/shotguard-fuzz-png-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    require(fd >= 0, "cannot make a scratch file")
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return fd
}()

/// A PNG the rewrite path takes (small enough for these limits) is decoded, covered and encoded
/// at once: the output must read back as the decoded image with the covers on, or the rewrite
/// says the data is corrupt (redact then reads it with the full decoder, which words the error
/// or, more lenient than the fast path, reads it).
private func rewrite(_ bytes: [UInt8], decoded: PixelBuffer?) {
    guard let rewrite = PNGRewrite(bytes), rewrite.width * rewrite.height <= 1 << 20 else { return }
    let covers: [Cover] = [(rect: Rect(x: 1, y: 1, width: rewrite.width / 2, height: rewrite.height / 2), fill: .black),
                           (rect: Rect(x: rewrite.width / 3, y: 0, width: 5, height: rewrite.height), fill: .pixelate(blockSize: 3))]
    require(ftruncate(scratch, 0) == 0 && lseek(scratch, 0, SEEK_SET) == 0, "cannot empty the scratch file")
    do throws(ImagingError) {
        try rewrite.write(covers: covers, to: scratch, destination: "output.png")
    } catch {
        require(error.kind == .corrupt || error.kind == .tooLarge,
                "the rewrite failed but for corrupt data or memory: \(error.description)")
        return
    }
    guard var expected = decoded else {
        require(false, "the rewrite wrote a PNG the decoder refused")
        return
    }
    require(lseek(scratch, 0, SEEK_SET) == 0, "cannot rewind the scratch file")
    var output = [UInt8](repeating: 0, count: 1 << 23)
    let count = read(scratch, &output, output.count)
    require(count > 0, "the rewrite wrote nothing")
    expected.pixels = expected.pixels.map { expected.hasAlpha ? $0 : $0 | 0xFF00_0000 }
    for cover in covers { expected.redact(cover.rect, with: cover.fill) }
    do throws(ImagingError) {
        let again = try PNGDecoder.decode(Array(output.prefix(count)), source: "output.png", limits: limits)
        require(again == expected, "a \(expected.width)x\(expected.height) rewrite differs from decode, cover, encode")
    } catch {
        require(false, "libpng cannot read the rewrite's PNG: \(error.description)")
    }
}
