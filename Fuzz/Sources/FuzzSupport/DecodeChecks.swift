// What every decoder target asks of one decode: an image within the limits, or one line of error.
import ShotguardImaging

/// Runs `decode` on input named `source` and checks its outcome: an error names the source,
/// says why and is one line; an image has pixels, is within `limits` and holds as many pixels
/// as its size says. Returns the image, or nil after an error.
public func requireDecoded(_ source: String, limits: DecodeLimits,
                           _ decode: () throws(ImagingError) -> PixelBuffer) -> PixelBuffer? {
    let image: PixelBuffer
    do throws(ImagingError) {
        image = try decode()
    } catch {
        require(error.description.hasPrefix(source + ": ") && !error.message.isEmpty,
                "an error names its source and says why: \(error.description)")
        require(!error.description.contains("\n"), "an error is one line: \(error.description)")
        return nil
    }
    require(image.width > 0 && image.height > 0 && image.width <= limits.maxWidth && image.height <= limits.maxHeight
            && image.width * image.height <= limits.maxPixels,
            "a decoded image is within the limits: \(image.width)x\(image.height)")
    require(image.pixels.count == image.width * image.height,
            "\(image.width)x\(image.height) image has \(image.pixels.count) pixels")
    return image
}
