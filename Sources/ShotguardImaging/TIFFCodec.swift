// TIFF through libtiff, loaded on first use: the first image read as RGBA, written with its compression kept.
import CShotguardTIFF

/// How a TIFF is written: 8-bit RGB or grey, alpha when the image has it, and a compression.
/// A redacted copy keeps the original's compression (none, LZW, Deflate, PackBits, JPEG at
/// quality 90, ZSTD…), predictor and grey or colour; a new TIFF is LZW-compressed RGB.
public struct TIFFOptions: FormatSettings, Equatable {
    /// libtiff's COMPRESSION_ value: 1 none, 5 LZW, 8 Deflate, 32773 PackBits, 7 JPEG, 50000 ZSTD…
    public var compression: Int
    /// 2 for horizontal differencing (LZW, Deflate), 1 for none.
    public var predictor: Int
    /// One grey sample rather than RGB.
    public var grey: Bool

    public static let standard = TIFFOptions(compression: 5, predictor: 2, grey: false)

    public init(compression: Int, predictor: Int = 1, grey: Bool = false) {
        self.compression = compression
        self.predictor = predictor
        self.grey = grey
    }

    public var format: ImageFormat { .tiff }

    public func encode(_ image: PixelBuffer, destination: String) throws(ImagingError) -> [UInt8] {
        try TIFFCodec.encode(image, options: self, destination: destination)
    }
}

public enum TIFFCodec: ImageFileCodec {
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool { TIFFStructure.hasSignature(bytes) }
    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool { TIFFStructure.isComplete(bytes) }

    static func read(_ data: [UInt8], source: String, limits: DecodeLimits) throws(ImagingError) -> DecodedImage {
        DecodedImage(image: try decode(data, source: source, limits: limits), format: .tiff,
                     isLossy: info(of: data)?.compression == 7)
    }

    /// Loads libtiff the first time; the reason it cannot be loaded otherwise.
    static func load(_ source: String) throws(ImagingError) {
        var reason = [CChar](repeating: 0, count: 512)
        guard sg_tiff_load(&reason, reason.count) == 0 else {
            throw ImagingError(.io, source: source, "TIFF needs libtiff: \(cText(reason))")
        }
    }

    /// Decodes the first image of a one-image TIFF (any photometric, bit depth, compression,
    /// strips or tiles libtiff reads) into B,G,R,A pixels. A TIFF of several images is an
    /// error: rewriting one of them would drop or leave the others.
    public static func decode(_ data: [UInt8], source: String, limits: DecodeLimits = .standard) throws(ImagingError) -> PixelBuffer {
        try limits.checkInput(data, source: source)
        guard data.withUnsafeBytes({ TIFFStructure.isComplete($0) }) else {
            throw ImagingError(data.withUnsafeBytes { hasSignature($0) } ? .truncated : .unknownFormat, source: source,
                               "not a whole TIFF (its first directory or image data lies past the end)")
        }
        try load(source)
        var reason = [CChar](repeating: 0, count: 256)
        var info = sg_tiff_info()
        // libtiff's largest single allocation: a strip or tile of at most the whole image at 16-bit RGBA.
        let maxAllocation = UInt64(limits.maxPixels) * 8
        let result = data.withUnsafeBufferPointer { bytes in
            Result { () throws(ImagingError) -> PixelBuffer in
                guard let reader = sg_tiff_open(bytes.baseAddress, bytes.count, maxAllocation, &info, &reason, reason.count) else {
                    throw ImagingError(.corrupt, source: source, "not a readable TIFF: \(cText(reason))")
                }
                defer { sg_tiff_close(reader) }
                let (width, height) = (Int(info.width), Int(info.height))
                guard width > 0, height > 0 else {
                    throw ImagingError(.corrupt, source: source, "TIFF says it is \(width)x\(height) pixels")
                }
                if let reason = limits.exceeded(width: width, height: height) { throw ImagingError(.tooLarge, source: source, reason) }
                guard info.directories == 1 else {
                    throw ImagingError(.unknownFormat, source: source, "TIFF holds \(info.directories) images: only one-image TIFFs are read")
                }
                var failed = false
                let pixels = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
                    failed = sg_tiff_read_rgba(reader, buffer.baseAddress, buffer.count, &reason, reason.count) != 0
                    if failed { buffer.initialize(repeating: 0) }
                    count = width * height
                }
                guard !failed else { throw ImagingError(.corrupt, source: source, "TIFF image data is broken: \(cText(reason))") }
                // libtiff gives 0xAABBGGRR, colour multiplied by alpha; the buffer holds 0xAARRGGBB, colour as is.
                var anyTranslucent = false
                let swapped = pixels.map { pixel -> UInt32 in
                    let alpha = pixel >> 24
                    guard alpha != 0xFF else { return pixel & 0xFF00_FF00 | (pixel & 0xFF) << 16 | (pixel >> 16 & 0xFF) }
                    anyTranslucent = true
                    guard alpha > 0 else { return 0 }
                    let channel = { (shift: UInt32) in min(255, ((pixel >> shift & 0xFF) * 255 + alpha / 2) / alpha) }
                    return alpha << 24 | channel(0) << 16 | channel(8) << 8 | channel(16)
                }
                return PixelBuffer(width: width, height: height, pixels: swapped, hasAlpha: info.has_alpha != 0 && anyTranslucent)
            }
        }
        return try result.get()
    }

    /// The first directory's tags, or nil when libtiff cannot read the bytes.
    static func info(of data: [UInt8]) -> sg_tiff_info? {
        guard data.withUnsafeBytes({ TIFFStructure.isComplete($0) }) else { return nil }
        do { try load("") } catch { return nil }  // without libtiff nothing is known of the file
        var reason = [CChar](repeating: 0, count: 256)
        var info = sg_tiff_info()
        let opened = data.withUnsafeBufferPointer { bytes in
            sg_tiff_open(bytes.baseAddress, bytes.count, UInt64(DecodeLimits.standard.maxPixels) * 8, &info, &reason, reason.count)
        }
        guard let opened else { return nil }
        sg_tiff_close(opened)
        return info
    }

    static func encoding(named name: String, quality: Int?) -> ImageEncoding? { .settings(TIFFOptions.standard) }

    /// The original's compression where libtiff writes it (else LZW), its predictor, and grey
    /// for a one-sample grey original.
    static func encoding(matching original: [UInt8]) -> ImageEncoding? {
        guard let info = info(of: original) else { return .settings(TIFFOptions.standard) }
        let writable: Set<Int> = [1, 5, 7, 8, 32946, 32773, 34925, 50000]
        let compression = writable.contains(Int(info.compression)) ? Int(info.compression) : 5
        let grey = info.samples_per_pixel - UInt16(info.has_alpha != 0 ? 1 : 0) == 1 && info.photometric <= 1
        return .settings(TIFFOptions(compression: compression, predictor: Int(info.predictor), grey: grey))
    }

    /// `image` as a one-image TIFF with no metadata beyond what the pixels need. JPEG
    /// compression cannot carry alpha here: an image with alpha is written with LZW instead.
    public static func encode(_ image: PixelBuffer, options: TIFFOptions, destination: String) throws(ImagingError) -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= Int(UInt32.max), image.height <= Int(UInt32.max),
              let compression = UInt16(exactly: options.compression) else {
            throw ImagingError(.encode, source: destination, "cannot write a \(image.width)x\(image.height) image as TIFF")
        }
        try load(destination)
        let alpha = image.hasAlpha
        let colours = options.grey ? 1 : 3
        let samples = colours + (alpha ? 1 : 0)
        var bytes = [UInt8]()
        bytes.reserveCapacity(image.pixels.count * samples)
        for pixel in image.pixels {
            let r: Int = Int(pixel >> 16 & 0xFF), g: Int = Int(pixel >> 8 & 0xFF), b: Int = Int(pixel & 0xFF)
            if options.grey {
                let luma: Int = (299 * r + 587 * g + 114 * b + 500) / 1000
                bytes.append(UInt8(luma))
            } else {
                bytes += [UInt8(r), UInt8(g), UInt8(b)]
            }
            if alpha { bytes.append(UInt8(pixel >> 24)) }
        }
        let written: UInt16 = alpha && compression == 7 ? 5 : compression
        var layout = sg_tiff_layout()
        layout.colours = UInt16(colours)
        layout.alpha = alpha ? 1 : 0
        layout.compression = written
        layout.predictor = UInt16(clamping: options.predictor)
        layout.jpeg_quality = 90
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var reason = [CChar](repeating: 0, count: 256)
        let status = sg_tiff_write(bytes, bytes.count, UInt32(image.width), UInt32(image.height), layout, &output, &length, &reason,
                                   reason.count)
        guard status == 0, let output else {
            throw ImagingError(.encode, source: destination, "cannot write TIFF: \(cText(reason))")
        }
        defer { sg_tiff_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}
