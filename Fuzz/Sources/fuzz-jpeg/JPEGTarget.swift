// Fuzzes the JPEG reader: any bytes give an image or a one-line error, and what is read survives re-encoding.
import FuzzSupport
// The chroma check is internal; `make fuzz` builds with testable imports.
@testable import ShotguardImaging

/// Smaller than the standard limits so that one input costs milliseconds; the limit checks
/// themselves are the same code.
private let limits = DecodeLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 18, maxInputBytes: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    // What the agent reads from a JPEG besides its pixels, to write a redacted copy alike.
    if let quality = JPEGQuality.estimate(bytes) {
        require((1...100).contains(quality), "an estimated quality of \(quality)")
    }
    let fullChroma = JPEGDecoder.isFullChroma(bytes)
    guard let image = requireDecoded("input.jpg", limits: limits, { () throws(ImagingError) in
        try JPEGDecoder.decode(bytes, source: "input.jpg", limits: limits)
    }) else { return 0 }
    require(ImageFormat.jpeg.isComplete(bytes), "an image was read from a JPEG without its EOI marker")
    require(!image.hasAlpha && image.pixels.allSatisfy { $0 >> 24 == 0xFF }, "a JPEG decoded with alpha")
    // A redacted copy is written in the original's settings and must read back at its size.
    guard case .jpeg(let options)? = ImageEncoding.matching(original: bytes) else {
        require(false, "a readable JPEG is not matched as JPEG")
        return 0
    }
    require(options.fullChroma == fullChroma, "the matched encoding disagrees on chroma subsampling")
    do throws(ImagingError) {
        let encoded = try JPEGEncoder.encode(image, options: options, destination: "output.jpg")
        let again = try JPEGDecoder.decode(encoded, source: "output.jpg", limits: limits)
        require(again.width == image.width && again.height == image.height,
                "a \(image.width)x\(image.height) image came back \(again.width)x\(again.height)")
    } catch {
        require(false, "a decoded image failed its round trip: \(error.description)")
    }
    return 0
}
