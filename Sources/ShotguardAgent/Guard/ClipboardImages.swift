// The redacted clipboard image under each image target the original was offered as.
import ShotguardImaging

/// Encodes guard's clipboard image for the targets a paste may ask for: `image/png` always
/// (lossless, and what most programs paste), then every other image target the tool offered,
/// so that a program that asks only for `image/jpeg` gets the redacted image too, never the
/// original or nothing.
enum ClipboardImages {
    /// `image` as PNG first, then as each of `offered`'s other targets; a lossy target takes
    /// the original's own settings when the original was in that format (JPEG quality and
    /// chroma subsampling, WebP lossless or not). PNG must be made (its error is thrown); an
    /// other target that cannot be (WebP past 16383 pixels) is left out and listed in
    /// `skipped`, so that a paste asking for it is refused, never given the original.
    static func encodeAll(_ image: PixelBuffer, offered: [String], original: [UInt8]?) throws(ImagingError)
        -> (images: [(target: String, bytes: [UInt8])], skipped: [String]) {
        var images = [(target: "image/png", bytes: try encode(image, as: "image/png", original: original))]
        var skipped: [String] = []
        for target in offered where target != "image/png" && !images.contains(where: { $0.target == target }) {
            do throws(ImagingError) {
                images.append((target, try encode(image, as: target, original: original)))
            } catch {
                skipped.append("\(target) (\(error.message))")
            }
        }
        return (images, skipped)
    }

    /// `image` encoded for one image target (`image/png`, `image/jpeg`, `image/webp`).
    static func encode(_ image: PixelBuffer, as target: String, original: [UInt8]?) throws(ImagingError) -> [UInt8] {
        guard let format = format(of: target) else {
            throw ImagingError(.unknownFormat, source: "the clipboard", "no encoder for the clipboard target \(target)")
        }
        var encoding = ImageEncoding.standard(format)
        if let original, ImageFormat.sniff(original) == format, let matching = ImageEncoding.matching(original: original) {
            encoding = matching
        }
        return try ImageCodec.encode(image, as: encoding, destination: "the clipboard (\(target))")
    }

    static func format(of target: String) -> ImageFormat? {
        switch target {
        case "image/png": return .png
        case "image/jpeg": return .jpeg
        case "image/webp": return .webp
        default: return nil
        }
    }
}
