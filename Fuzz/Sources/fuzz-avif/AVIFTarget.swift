// Fuzzes the AVIF reader: any bytes give an image or a one-line error, and what is read survives re-encoding (its size: AVIF is lossy).
import FuzzSupport
import ShotguardImaging

/// Smaller than the standard limits so that one input costs milliseconds; the limit checks
/// themselves are the same code.
private let limits = DecodeLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 18, maxInputBytes: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAVIF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    guard let image = requireDecoded("input.avif", limits: limits, { () throws(ImagingError) in
        try AVIFCodec.decode(bytes, source: "input.avif", limits: limits)
    }) else { return 0 }
    requireRoundTrip(image, of: bytes, as: .avif, exact: false) { (encoded) throws(ImagingError) in
        try AVIFCodec.decode(encoded, source: "output.avif", limits: limits)
    }
    return 0
}
