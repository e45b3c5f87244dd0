// JPEG decoding through libjpeg-turbo's TurboJPEG API, which returns errors instead of jumping.
import CTurboJPEG

public enum JPEGDecoder {
    /// Decodes a baseline or progressive JPEG (greyscale or YCbCr, any chroma subsampling) into
    /// opaque B,G,R,X pixels. The size is checked against `limits` from the header before any
    /// pixel memory is allocated; a truncated file, any libjpeg warning or a progressive file of
    /// more than 500 scans (each a pass over the whole image, so a file of thousands of tiny
    /// scans costs thousands of decodes) is an error. EXIF orientation is ignored: the pixels are placed as stored,
    /// as a screenshot tool wrote them.
    public static func decode(
        _ data: [UInt8], source: String, limits: DecodeLimits = .standard
    ) throws(ImagingError) -> PixelBuffer {
        try limits.checkInput(data, source: source)
        guard ImageFormat.sniff(data) == .jpeg else {
            throw ImagingError(.unknownFormat, source: source, "not a JPEG file (no SOI marker)")
        }
        guard ImageFormat.jpeg.isComplete(data) else {
            throw ImagingError(.truncated, source: source, "JPEG is truncated (no EOI marker after the image data)")
        }
        guard let handle = tjInitDecompress() else {
            throw ImagingError(.corrupt, source: source, "cannot start the JPEG decoder: \(errorText(nil))")
        }
        defer { tjDestroy(handle) }

        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        let header = data.withUnsafeBufferPointer { bytes in
            tjDecompressHeader3(handle, bytes.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colourspace)
        }
        guard header == 0 else {
            throw ImagingError(.corrupt, source: source, "not a readable JPEG: \(errorText(handle))")
        }
        let (w, h) = (Int(width), Int(height))
        guard w > 0, h > 0, w <= limits.maxWidth, h <= limits.maxHeight, w * h <= limits.maxPixels else {
            throw ImagingError(
                .tooLarge, source: source,
                "image is \(w)x\(h), over the limit of \(limits.maxWidth)x\(limits.maxHeight) and \(limits.maxPixels) pixels")
        }
        var status: Int32 = 0
        let pixels = [UInt32](unsafeUninitializedCapacity: w * h) { buffer, count in
            // TJPF_BGRA writes 0xFF into the fourth byte, so the pixels come out opaque.
            status = data.withUnsafeBufferPointer { bytes in
                tjDecompress2(handle, bytes.baseAddress, UInt(bytes.count),
                              UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: UInt8.self),
                              width, width * 4, height, Int32(TJPF_BGRA.rawValue),
                              TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS)
            }
            if status != 0 { buffer.initialize(repeating: 0) }
            count = w * h
        }
        guard status == 0 else {
            throw ImagingError(.corrupt, source: source, "JPEG data is corrupt: \(errorText(handle))")
        }
        return PixelBuffer(width: w, height: h, pixels: pixels, hasAlpha: false)
    }

    /// Whether a JPEG keeps colour at full resolution (4:4:4, or greyscale); false for any
    /// subsampling or a header that cannot be read.
    static func isFullChroma(_ data: [UInt8]) -> Bool {
        guard let handle = tjInitDecompress() else { return false }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        let status = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colourspace)
        }
        return status == 0 && (subsampling == Int32(TJSAMP_444.rawValue) || subsampling == Int32(TJSAMP_GRAY.rawValue))
    }

    /// TurboJPEG's message for the last error on `handle` (or the last global one).
    static func errorText(_ handle: tjhandle?) -> String {
        guard let message = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: message)
    }
}
