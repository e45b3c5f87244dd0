// JPEG encoding straight from the 32-bit buffer through TurboJPEG.
import CTurboJPEG

/// How to write a JPEG.
public struct JPEGOptions: Sendable, Equatable {
    /// libjpeg quality 1-100.
    public var quality: Int
    /// Whether colour is kept at full resolution (4:4:4) rather than halved both ways (4:2:0).
    public var fullChroma: Bool

    /// Quality 90 and full-resolution colour: screenshots are text and thin coloured lines, which
    /// 4:2:0 subsampling smears.
    public static let standard = JPEGOptions(quality: 90, fullChroma: true)

    public init(quality: Int, fullChroma: Bool = true) {
        self.quality = quality
        self.fullChroma = fullChroma
    }
}

public enum JPEGEncoder {
    /// Encodes `image` as a baseline JFIF file with only the markers the pixels need: no EXIF,
    /// no comment, nothing from any input. Alpha is dropped (JPEG has none).
    public static func encode(
        _ image: PixelBuffer, options: JPEGOptions = .standard, destination: String
    ) throws(ImagingError) -> [UInt8] {
        guard (1...100).contains(options.quality) else {
            throw ImagingError(.encode, source: destination, "JPEG quality \(options.quality) is not in 1-100")
        }
        guard let handle = tjInitCompress() else {
            throw ImagingError(.encode, source: destination, "cannot start the JPEG encoder: \(JPEGDecoder.errorText(nil))")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let subsampling = options.fullChroma ? TJSAMP_444 : TJSAMP_420
        let status = image.pixels.withUnsafeBytes { pixels in
            tjCompress2(handle, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(image.width), Int32(image.width * 4),
                        Int32(image.height), Int32(TJPF_BGRX.rawValue), &output, &size,
                        Int32(subsampling.rawValue), Int32(options.quality), TJFLAG_ACCURATEDCT)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw ImagingError(.encode, source: destination, "cannot encode JPEG: \(JPEGDecoder.errorText(handle))")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
