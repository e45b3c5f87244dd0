// Fuzzes the PNG decoder: any bytes give an image or a one-line error; an image survives a round trip.
import FuzzSupport
import ShotguardImaging

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
    return 0
}

private func check(_ bytes: [UInt8]) {
    guard let image = requireDecoded("input.png", limits: limits, { () throws(ImagingError) in
        try PNGDecoder.decode(bytes, source: "input.png", limits: limits)
    }) else { return }
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
