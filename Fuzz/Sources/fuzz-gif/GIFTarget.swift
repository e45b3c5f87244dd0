// Fuzzes the GIF reader: any bytes give an image or a one-line error, and what is read survives re-encoding with its palette.
import FuzzSupport
import ShotguardImaging

/// Smaller than the standard limits so that one input costs milliseconds; the limit checks
/// themselves are the same code.
private let limits = DecodeLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 18, maxInputBytes: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    guard let image = requireDecoded("input.gif", limits: limits, { () throws(ImagingError) in
        try GIFCodec.decode(bytes, source: "input.gif", limits: limits)
    }) else { return 0 }
    requireRoundTrip(image, of: bytes, as: .gif, exact: true) { (encoded) throws(ImagingError) in
        try GIFCodec.decode(encoded, source: "output.gif", limits: limits)
    }
    return 0
}
