// Fuzzes the BMP reader: any bytes give an image or a one-line error, and an opaque image survives a BMP round trip.
import FuzzSupport
import ShotguardImaging

/// Smaller than the standard limits so that one input costs milliseconds; the limit checks
/// themselves are the same code.
private let limits = DecodeLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 18, maxInputBytes: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBMP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    guard let image = requireDecoded("input.bmp", limits: limits, { () throws(ImagingError) in
        try BMPCodec.decode(bytes, source: "input.bmp", limits: limits)
    }) else { return 0 }
    require(ImageFormat.sniff(bytes) == .bmp && ImageFormat.bmp.isComplete(bytes), "an image was read from bytes that are not a whole BMP")
    require(image.hasAlpha || image.pixels.allSatisfy { $0 >> 24 == 0xFF }, "a BMP without alpha decoded with some")
    guard case .bmp? = ImageEncoding.matching(original: bytes) else {
        require(false, "a readable BMP is not matched as BMP")
        return 0
    }
    // The encoder writes 24 bits: every opaque pixel comes back as it was.
    do throws(ImagingError) {
        let encoded = try BMPCodec.encode(image, destination: "output.bmp")
        let again = try BMPCodec.decode(encoded, source: "output.bmp", limits: limits)
        require(again.width == image.width && again.height == image.height && !again.hasAlpha,
                "a \(image.width)x\(image.height) image came back \(again.width)x\(again.height)")
        require(zip(image.pixels, again.pixels).allSatisfy { $0 & 0xFF_FFFF == $1 & 0xFF_FFFF },
                "a \(image.width)x\(image.height) image changed colour in a BMP round trip")
    } catch {
        require(false, "a decoded image failed its round trip: \(error.description)")
    }
    return 0
}
