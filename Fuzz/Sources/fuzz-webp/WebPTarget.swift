// Fuzzes the WebP reader: any bytes give a still image or a one-line error, and what is read survives re-encoding.
import FuzzSupport
// Whether a file is lossless is internal; `make fuzz` builds with testable imports.
@testable import ShotguardImaging

/// Smaller than the standard limits so that one input costs milliseconds; the limit checks
/// themselves are the same code.
private let limits = DecodeLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 18, maxInputBytes: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    let lossless = WebPCodec.isLossless(bytes)
    guard let image = requireDecoded("input.webp", limits: limits, { () throws(ImagingError) in
        try WebPCodec.decode(bytes, source: "input.webp", limits: limits)
    }) else { return 0 }
    require(ImageFormat.webp.isComplete(bytes), "an image was read from a WebP shorter than its RIFF header says")
    require(image.hasAlpha || image.pixels.allSatisfy { $0 >> 24 == 0xFF }, "a WebP without alpha decoded with some")
    guard case .webp(let options)? = ImageEncoding.matching(original: bytes) else {
        require(false, "a readable WebP is not matched as WebP")
        return 0
    }
    require(options.lossless == lossless, "the matched encoding disagrees on lossless")
    // Lossless coding must give back every visible pixel; libwebp may change the colour of a
    // fully transparent one, which nobody sees.
    do throws(ImagingError) {
        let encoded = try WebPCodec.encode(image, options: WebPOptions(quality: 90, lossless: true), destination: "output.webp")
        let again = try WebPCodec.decode(encoded, source: "output.webp", limits: limits)
        require(again.width == image.width && again.height == image.height,
                "a \(image.width)x\(image.height) image came back \(again.width)x\(again.height)")
        let visible = { (pixel: UInt32) -> UInt32 in image.hasAlpha && pixel >> 24 == 0 ? 0 : pixel }
        require(zip(image.pixels, again.pixels).allSatisfy { visible($0) == visible($1) },
                "a \(image.width)x\(image.height) image changed in a lossless round trip")
    } catch {
        require(false, "a decoded image failed its round trip: \(error.description)")
    }
    return 0
}
