// Fuzzes the TIFF reader: any bytes give an image or a one-line error, and what is read survives re-encoding.
import FuzzSupport
import ShotguardImaging

/// Smaller than the standard limits so that one input costs milliseconds; the limit checks
/// themselves are the same code.
private let limits = DecodeLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 18, maxInputBytes: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTIFF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    guard let image = requireDecoded("input.tiff", limits: limits, { () throws(ImagingError) in
        try TIFFCodec.decode(bytes, source: "input.tiff", limits: limits)
    }) else { return 0 }
    // A JPEG-compressed original is rewritten with JPEG: only its size must come back.
    var lossy = false
    if case .settings(let settings)? = ImageEncoding.matching(original: bytes), let options = settings as? TIFFOptions {
        lossy = options.compression == 7 && !image.hasAlpha
    }
    requireRoundTrip(image, of: bytes, as: .tiff, exact: !lossy) { (encoded) throws(ImagingError) in
        try TIFFCodec.decode(encoded, source: "output.tiff", limits: limits)
    }
    return 0
}
