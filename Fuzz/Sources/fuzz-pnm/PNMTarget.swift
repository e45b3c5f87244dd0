// Fuzzes the Netpbm (P1-P7) reader: any bytes give an image or a one-line error, and what is read survives re-encoding.
import FuzzSupport
import ShotguardImaging

/// Smaller than the standard limits so that one input costs milliseconds; the limit checks
/// themselves are the same code.
private let limits = DecodeLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 18, maxInputBytes: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNM(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    guard let image = requireDecoded("input.pnm", limits: limits, { () throws(ImagingError) in
        try PNMCodec.decode(bytes, source: "input.pnm", limits: limits)
    }) else { return 0 }
    requireRoundTrip(image, of: bytes, as: .pnm, exact: true) { (encoded) throws(ImagingError) in
        try PNMCodec.decode(encoded, source: "output.pnm", limits: limits)
    }
    return 0
}
