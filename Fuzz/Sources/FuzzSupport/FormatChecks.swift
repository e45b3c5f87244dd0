// What every target of a format in the registry asks of a decoded file: recognised, complete, matched, and a round trip.
import ShotguardImaging

/// Checks what reading `bytes` as `format` gave: the registry recognises the bytes as that
/// format and as complete, the encoding matching them writes that format, and the image comes
/// back through it (every opaque pixel the same when `exact`, the size alone otherwise;
/// translucent pixels may round differently, transparent ones have no colour).
/// `decode` is the format's own decoder, with the target's limits.
public func requireRoundTrip(_ image: PixelBuffer, of bytes: [UInt8], as format: ImageFormat, exact: Bool,
                             decode: ([UInt8]) throws(ImagingError) -> PixelBuffer) {
    require(ImageFormat.sniff(bytes) == format, "an image was read from bytes not recognised as \(format.title)")
    require(format.isComplete(bytes), "an image was read from a \(format.title) that is not complete")
    guard let encoding = ImageEncoding.matching(original: bytes), encoding.format == format else {
        require(false, "a readable \(format.title) is not matched as \(format.title)")
        return
    }
    do throws(ImagingError) {
        let encoded = try ImageCodec.encode(image, as: encoding, destination: "output")
        require(ImageFormat.sniff(encoded) == format && format.isComplete(encoded), "what was written is not a whole \(format.title)")
        let again = try decode(encoded)
        require(again.width == image.width && again.height == image.height,
                "a \(image.width)x\(image.height) image came back \(again.width)x\(again.height)")
        guard exact else { return }
        let opaque = { (pixel: UInt32) in !image.hasAlpha || pixel >> 24 == 0xFF }
        require(zip(image.pixels, again.pixels).allSatisfy { !opaque($0) || $0 | 0xFF00_0000 == $1 | 0xFF00_0000 },
                "a \(image.width)x\(image.height) image changed in a \(format.title) round trip")
    } catch {
        require(false, "a decoded image failed its round trip: \(error.description)")
    }
}
