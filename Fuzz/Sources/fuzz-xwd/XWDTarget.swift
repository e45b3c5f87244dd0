// Fuzzes the X window dump reader: any bytes give an image or a one-line error, and what is read survives re-encoding.
import FuzzSupport
import ShotguardImaging

/// Smaller than the standard limits so that one input costs milliseconds; the limit checks
/// themselves are the same code.
private let limits = DecodeLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 18, maxInputBytes: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXWD(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    guard let image = requireDecoded("input.xwd", limits: limits, { () throws(ImagingError) in
        try XWDCodec.decode(bytes, source: "input.xwd", limits: limits)
    }) else { return 0 }
    requireRoundTrip(image, of: bytes, as: .xwd, exact: true) { (encoded) throws(ImagingError) in
        try XWDCodec.decode(encoded, source: "output.xwd", limits: limits)
    }
    return 0
}
