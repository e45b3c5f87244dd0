// BMP, as screenshot tools write it: 24- and 32-bit uncompressed bitmaps read, 24-bit written.

/// Windows bitmaps: reads uncompressed 24-bit (BI_RGB) and 32-bit (BI_RGB or BI_BITFIELDS)
/// images, bottom-up or top-down, with any of the info headers from BITMAPINFOHEADER (40
/// bytes) to BITMAPV5HEADER (124); writes 24-bit bottom-up BI_RGB with a BITMAPINFOHEADER,
/// which every reader takes. Hostile input is bounded before anything is allocated: sizes
/// against the limits, every offset and length against the bytes there are.
public enum BMPCodec {
    /// A BMP's framing, read from its headers.
    struct Layout {
        let width: Int
        let height: Int
        let topDown: Bool
        let bitCount: Int
        /// Red, green, blue and alpha masks of a 32-bit pixel (alpha 0 when there is none).
        let masks: (red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32)
        let pixelOffset: Int
        let rowBytes: Int
        var dataEnd: Int { pixelOffset + rowBytes * height }
    }

    /// The info header sizes of the Windows bitmap versions this reads (OS/2's 12 and 64 are not).
    static let headerSizes: Set<Int> = [40, 52, 56, 108, 124]

    /// Whether `bytes` start like a BMP this codec knows: `BM` and a known info header size.
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 18 && bytes[0] == UInt8(ascii: "B") && bytes[1] == UInt8(ascii: "M")
            && headerSizes.contains(Int(le32(bytes, 14)))
    }

    /// Whether `bytes` hold every row their headers promise (a writer still at work does not).
    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let layout = try? layout(of: bytes, source: "", limits: .standard) else { return false }  // not a BMP: not complete
        return bytes.count >= layout.dataEnd
    }

    public static func decode(_ data: [UInt8], source: String, limits: DecodeLimits = .standard) throws(ImagingError) -> PixelBuffer {
        try limits.checkInput(data, source: source)
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(ImagingError) in try decode(bytes, source: source, limits: limits) }
        }
        return try result.get()
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, source: String,
                               limits: DecodeLimits) throws(ImagingError) -> PixelBuffer {
        let layout = try layout(of: bytes, source: source, limits: limits)
        guard bytes.count >= layout.dataEnd else {
            throw ImagingError(.truncated, source: source,
                               "BMP is cut short: \(bytes.count) bytes, its rows end at byte \(layout.dataEnd)")
        }
        let (width, height) = (layout.width, layout.height)
        var pixels = [UInt32](repeating: 0, count: width * height)
        var anyAlpha = false
        let fields = [layout.masks.red, layout.masks.green, layout.masks.blue, layout.masks.alpha].map(MaskField.init)
        for row in 0..<height {
            let source = layout.pixelOffset + (layout.topDown ? row : height - 1 - row) * layout.rowBytes
            for column in 0..<width {
                if layout.bitCount == 24 {
                    let at = source + column * 3
                    pixels[row * width + column] = 0xFF00_0000 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 1]) << 8
                        | UInt32(bytes[at])
                } else {
                    let value = le32(bytes, source + column * 4)
                    let alpha = layout.masks.alpha == 0 ? 0xFF : fields[3].extract(value)
                    if alpha != 0 { anyAlpha = true }
                    pixels[row * width + column] = alpha << 24 | fields[0].extract(value) << 16 | fields[1].extract(value) << 8
                        | fields[2].extract(value)
                }
            }
        }
        // A zero alpha channel throughout is a writer that does not use it (common): opaque.
        let hasAlpha = layout.masks.alpha != 0 && anyAlpha
        if layout.masks.alpha != 0, !anyAlpha {
            for index in pixels.indices { pixels[index] |= 0xFF00_0000 }
        }
        return PixelBuffer(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha)
    }

    /// The headers, checked: every refusal says what the file has and what is read.
    static func layout(of bytes: UnsafeRawBufferPointer, source: String, limits: DecodeLimits) throws(ImagingError) -> Layout {
        guard hasSignature(bytes) else {
            throw ImagingError(.unknownFormat, source: source, "not a BMP this reads (expected 'BM' and a Windows info header)")
        }
        let headerSize = Int(le32(bytes, 14))
        guard bytes.count >= 14 + headerSize else {
            throw ImagingError(.truncated, source: source, "BMP is cut short inside its \(headerSize)-byte info header")
        }
        let rawWidth = Int32(bitPattern: le32(bytes, 18)), rawHeight = Int32(bitPattern: le32(bytes, 22))
        let planes = le16(bytes, 26), bitCount = Int(le16(bytes, 28)), compression = le32(bytes, 30)
        guard rawWidth > 0, rawHeight != 0, rawHeight != Int32.min else {
            throw ImagingError(.corrupt, source: source, "BMP says it is \(rawWidth)x\(rawHeight) pixels")
        }
        let width = Int(rawWidth), height = Int(rawHeight.magnitude)
        if let reason = limits.exceeded(width: width, height: height) { throw ImagingError(.tooLarge, source: source, reason) }
        guard planes == 1 else { throw ImagingError(.corrupt, source: source, "BMP has \(planes) planes (expected 1)") }
        var masks: (red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32)
        switch (bitCount, compression) {
        case (24, 0):
            masks = (0xFF_0000, 0xFF00, 0xFF, 0)
        case (32, 0):
            masks = (0xFF_0000, 0xFF00, 0xFF, 0)  // the fourth byte is unused in BI_RGB
        case (32, 3), (32, 6):
            // BI_BITFIELDS: the masks follow a 40-byte header, or are part of a longer one.
            let at = 14 + 40
            let count = headerSize > 40 ? (headerSize >= 56 ? 4 : 3) : (compression == 6 ? 4 : 3)
            guard bytes.count >= at + count * 4 else {
                throw ImagingError(.truncated, source: source, "BMP is cut short before its colour masks")
            }
            masks = (le32(bytes, at), le32(bytes, at + 4), le32(bytes, at + 8), count == 4 ? le32(bytes, at + 12) : 0)
            let all = [masks.red, masks.green, masks.blue, masks.alpha]
            guard masks.red != 0, masks.green != 0, masks.blue != 0, all.allSatisfy(MaskField.isContiguous),
                  all.reduce(0, { $0 + $1.nonzeroBitCount }) == all.reduce(0, |).nonzeroBitCount else {
                throw ImagingError(.corrupt, source: source, "BMP colour masks overlap, are empty or have gaps")
            }
        default:
            throw ImagingError(.unknownFormat, source: source, "BMP is \(bitCount)-bit with compression \(compression); "
                + "only uncompressed 24- and 32-bit BMPs are read")
        }
        let rowBytes = (width * bitCount + 31) / 32 * 4
        let pixelOffset = Int(le32(bytes, 10))
        let (area, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        guard pixelOffset >= 14 + headerSize, !overflow, pixelOffset <= Int.max - area else {
            throw ImagingError(.corrupt, source: source, "BMP's pixel data starts at byte \(pixelOffset), inside its headers")
        }
        return Layout(width: width, height: height, topDown: rawHeight < 0, bitCount: bitCount, masks: masks,
                      pixelOffset: pixelOffset, rowBytes: rowBytes)
    }

    /// `image` as a 24-bit bottom-up BMP (alpha is dropped: screenshots are opaque).
    public static func encode(_ image: PixelBuffer, destination: String) throws(ImagingError) -> [UInt8] {
        let rowBytes = (image.width * 3 + 3) / 4 * 4
        let (pixelBytes, overflow) = rowBytes.multipliedReportingOverflow(by: image.height)
        guard image.width > 0, image.height > 0, !overflow, pixelBytes <= Int(UInt32.max) - 54,
              image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
            throw ImagingError(.encode, source: destination, "cannot write a \(image.width)x\(image.height) image as BMP")
        }
        var out = [UInt8]()
        out.reserveCapacity(54 + pixelBytes)
        out += Array("BM".utf8)
        put32(&out, UInt32(54 + pixelBytes))
        put32(&out, 0)
        put32(&out, 54)
        put32(&out, 40)
        put32(&out, UInt32(image.width))
        put32(&out, UInt32(image.height))
        out += [1, 0, 24, 0]
        put32(&out, 0)  // BI_RGB
        put32(&out, UInt32(pixelBytes))
        put32(&out, 2835)  // 72 dpi, in pixels per metre
        put32(&out, 2835)
        put32(&out, 0)
        put32(&out, 0)
        let padding = [UInt8](repeating: 0, count: rowBytes - image.width * 3)
        for row in stride(from: image.height - 1, through: 0, by: -1) {
            for pixel in image.pixels[(row * image.width)..<((row + 1) * image.width)] {
                out += [UInt8(truncatingIfNeeded: pixel), UInt8(truncatingIfNeeded: pixel >> 8), UInt8(truncatingIfNeeded: pixel >> 16)]
            }
            out += padding
        }
        return out
    }

    private static func le16(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func le32(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    private static func put32(_ out: inout [UInt8], _ value: UInt32) {
        out += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
                UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24)]
    }
}

/// One channel of a BI_BITFIELDS pixel: where its bits are, and how to widen them to 8.
private struct MaskField {
    let shift: UInt32
    let bits: Int

    init(_ mask: UInt32) {
        shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
        bits = mask.nonzeroBitCount
        self.mask = mask
    }

    private let mask: UInt32

    /// The channel of `pixel` scaled to 0...255 (its top 8 bits when it has more).
    func extract(_ pixel: UInt32) -> UInt32 {
        guard bits > 0 else { return 0 }
        let value = (pixel & mask) >> shift
        if bits >= 8 { return value >> UInt32(bits - 8) }
        return value * 255 / ((1 << UInt32(bits)) - 1)
    }

    /// Whether the mask's bits are one run (or it is empty).
    static func isContiguous(_ mask: UInt32) -> Bool {
        mask == 0 || (mask >> mask.trailingZeroBitCount) & ((mask >> mask.trailingZeroBitCount) &+ 1) == 0
    }
}
