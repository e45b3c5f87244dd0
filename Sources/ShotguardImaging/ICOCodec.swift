// Windows icons (.ico) holding BMP or PNG images, read and written in Swift around the PNG codec.

/// How an icon is written: one image, as PNG or as a 32-bit bitmap with its mask. A redacted
/// copy keeps the kind of the original's largest image; an image over 256 pixels either way is
/// always PNG (a bitmap entry cannot say its size).
public struct ICOOptions: FormatSettings, Equatable {
    public var png: Bool

    public init(png: Bool = false) { self.png = png }

    public var format: ImageFormat { .ico }

    public func encode(_ image: PixelBuffer, destination: String) throws(ImagingError) -> [UInt8] {
        try ICOCodec.encode(image, options: self, destination: destination)
    }
}

public enum ICOCodec: ImageFileCodec {
    /// One image of the icon's directory.
    struct Entry {
        let width: Int
        let height: Int
        let bitCount: Int
        let offset: Int
        let size: Int
    }

    /// The directory: reserved 0, type 1, a count, and 16 bytes for each image.
    static func directory(_ bytes: UnsafeRawBufferPointer) -> [Entry]? {
        let fields = ByteFields(bytes)
        guard let reserved = fields.u16(0), reserved == 0, let type = fields.u16(2), type == 1, let count = fields.u16(4),
              (1...1024).contains(count), fields.contains(6, length: 16 * count) else { return nil }
        var entries: [Entry] = []
        for index in 0..<count {
            let at = 6 + 16 * index
            guard let width = fields.u8(at), let height = fields.u8(at + 1), let bitCount = fields.u16(at + 6),
                  let size = fields.u32(at + 8), let offset = fields.u32(at + 12), size > 0, offset >= 6 + 16 * count else { return nil }
            entries.append(Entry(width: width == 0 ? 256 : width, height: height == 0 ? 256 : height, bitCount: bitCount,
                                 offset: offset, size: size))
        }
        return entries
    }

    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // The whole directory is needed to tell an icon from other bytes that start with 0, 0, 1, 0.
        bytes.count >= 22 && bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 1 && bytes[3] == 0 && directory(bytes) != nil
    }

    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let entries = directory(bytes) else { return false }
        return entries.allSatisfy { ByteFields(bytes).contains($0.offset, length: $0.size) }
    }

    static func read(_ data: [UInt8], source: String, limits: DecodeLimits) throws(ImagingError) -> DecodedImage {
        DecodedImage(image: try decode(data, source: source, limits: limits), format: .ico)
    }

    /// The icon's largest image (most pixels, then most bits a pixel), PNG or bitmap.
    static func largest(_ entries: [Entry]) -> Entry? {
        entries.max { ($0.width * $0.height, $0.bitCount) < ($1.width * $1.height, $1.bitCount) }
    }

    /// Decodes the icon's largest image: a PNG entry through the PNG decoder, a bitmap entry of
    /// 1, 4, 8, 24 or 32 bits with its transparency mask.
    public static func decode(_ data: [UInt8], source: String, limits: DecodeLimits = .standard) throws(ImagingError) -> PixelBuffer {
        try limits.checkInput(data, source: source)
        let located = data.withUnsafeBytes { bytes -> Result<Entry, ImagingError> in
            guard let entries = directory(bytes), let entry = largest(entries) else {
                return .failure(ImagingError(.unknownFormat, source: source, "not a Windows icon (no ICO directory)"))
            }
            guard ByteFields(bytes).contains(entry.offset, length: entry.size) else {
                return .failure(ImagingError(.truncated, source: source,
                                             "ICO is cut short: its \(entry.width)x\(entry.height) image ends past byte \(bytes.count)"))
            }
            return .success(entry)
        }
        let entry = try located.get()
        let image = Array(data[entry.offset..<(entry.offset + entry.size)])
        if ImageFormat.sniff(image) == .png {
            return try PNGDecoder.decode(image, source: source, limits: limits)
        }
        let result = image.withUnsafeBytes { bytes in
            Result { () throws(ImagingError) in try ICOBitmap.decode(bytes, source: source, limits: limits) }
        }
        return try result.get()
    }

    static func encoding(named name: String, quality: Int?) -> ImageEncoding? { .settings(ICOOptions()) }

    static func encoding(matching original: [UInt8]) -> ImageEncoding? {
        let png = original.withUnsafeBytes { bytes -> Bool in
            guard let entry = directory(bytes).flatMap(largest), ByteFields(bytes).contains(entry.offset, length: 8) else { return false }
            return PNGFile.hasSignature(UnsafeRawBufferPointer(rebasing: bytes[entry.offset..<(entry.offset + 8)]))
        }
        return .settings(ICOOptions(png: png))
    }

    /// `image` as an icon of one image: a PNG entry, or a 32-bit bottom-up bitmap with its
    /// AND mask (transparent where alpha is 0).
    public static func encode(_ image: PixelBuffer, options: ICOOptions, destination: String) throws(ImagingError) -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= 65535, image.height <= 65535 else {
            throw ImagingError(.encode, source: destination, "cannot write a \(image.width)x\(image.height) image as ICO")
        }
        let asPNG = options.png || image.width > 256 || image.height > 256
        let body = asPNG ? try PNGEncoder.encode(image, destination: destination) : ICOBitmap.encode(image)
        var out = ByteWriter(capacity: 22 + body.count)
        out.u16(0)
        out.u16(1)
        out.u16(1)
        out.u8(image.width >= 256 ? 0 : image.width)
        out.u8(image.height >= 256 ? 0 : image.height)
        out.u8(0)
        out.u8(0)
        out.u16(1)
        out.u16(32)
        out.u32(body.count)
        out.u32(22)
        out.append(body)
        return out.bytes
    }
}

/// The bitmap images of icons: a BITMAPINFOHEADER (its height counting the mask too), a
/// palette below 16 bits, the colour rows bottom-up, then the 1-bit AND mask.
enum ICOBitmap {
    static func decode(_ bytes: UnsafeRawBufferPointer, source: String, limits: DecodeLimits) throws(ImagingError) -> PixelBuffer {
        let fields = ByteFields(bytes)
        guard let headerSize = fields.u32(0), headerSize >= 40, let rawWidth = fields.u32(4), let rawHeight = fields.u32(8),
              let bitCount = fields.u16(14), let compression = fields.u32(16), let used = fields.u32(32) else {
            throw ImagingError(.corrupt, source: source, "ICO image is neither PNG nor a bitmap with a 40-byte header")
        }
        let (width, height) = (rawWidth, rawHeight / 2)
        guard width > 0, height > 0, rawWidth < 1 << 31, rawHeight < 1 << 31 else {
            throw ImagingError(.corrupt, source: source, "ICO bitmap says it is \(rawWidth)x\(rawHeight / 2) pixels")
        }
        if let reason = limits.exceeded(width: width, height: height) { throw ImagingError(.tooLarge, source: source, reason) }
        guard [1, 4, 8, 24, 32].contains(bitCount), compression == 0 else {
            throw ImagingError(.unknownFormat, source: source, "ICO bitmap is \(bitCount)-bit with compression \(compression); "
                + "uncompressed 1-, 4-, 8-, 24- and 32-bit bitmaps are read")
        }
        let paletteCount = bitCount <= 8 ? (used == 0 || used > 1 << bitCount ? 1 << bitCount : used) : 0
        let rowBytes = (width * bitCount + 31) / 32 * 4
        let maskRowBytes = (width + 31) / 32 * 4
        let colourStart = headerSize + paletteCount * 4
        let maskStart = colourStart + rowBytes * height
        guard fields.contains(colourStart, length: rowBytes * height) else {
            throw ImagingError(.truncated, source: source, "ICO bitmap is cut short before the end of its rows")
        }
        // Some writers leave the mask out of 32-bit images: their alpha says it all.
        let hasMask = fields.contains(maskStart, length: maskRowBytes * height)
        var palette = [UInt32](repeating: 0xFF00_0000, count: paletteCount)
        for index in 0..<paletteCount { palette[index] = 0xFF00_0000 | UInt32(fields.u32(headerSize + index * 4) ?? 0) & 0xFF_FFFF }
        var pixels = [UInt32](repeating: 0, count: width * height)
        var anyAlpha = false
        for row in 0..<height {
            let line = colourStart + (height - 1 - row) * rowBytes
            for column in 0..<width {
                var pixel: UInt32
                switch bitCount {
                case 32:
                    pixel = UInt32(fields.u32(line + column * 4) ?? 0)
                    if pixel >> 24 != 0 { anyAlpha = true }
                case 24:
                    pixel = 0xFF00_0000 | UInt32(bytes[line + column * 3 + 2]) << 16 | UInt32(bytes[line + column * 3 + 1]) << 8
                        | UInt32(bytes[line + column * 3])
                default:
                    let bit = column * bitCount
                    let index = Int(bytes[line + bit / 8] >> (8 - UInt8(bit % 8) - UInt8(bitCount))) & ((1 << bitCount) - 1)
                    pixel = index < paletteCount ? palette[index] : 0xFF00_0000
                }
                pixels[row * width + column] = pixel
            }
        }
        // 32-bit images carry alpha; the others (and 32-bit ones whose alpha is all 0) take the mask.
        let useMask = hasMask && !(bitCount == 32 && anyAlpha)
        var transparent = false
        for row in 0..<height {
            let line = maskStart + (height - 1 - row) * maskRowBytes
            for column in 0..<width {
                let index = row * width + column
                if useMask, bytes[line + column / 8] >> (7 - UInt8(column % 8)) & 1 == 1 {
                    pixels[index] &= 0x00FF_FFFF
                } else if bitCount != 32 || !anyAlpha {
                    pixels[index] |= 0xFF00_0000
                }
                if pixels[index] >> 24 != 0xFF { transparent = true }
            }
        }
        return PixelBuffer(width: width, height: height, pixels: pixels, hasAlpha: transparent)
    }

    /// A 32-bit bitmap entry: header, rows bottom-up with alpha, then the AND mask.
    static func encode(_ image: PixelBuffer) -> [UInt8] {
        let (width, height) = (image.width, image.height)
        let maskRowBytes = (width + 31) / 32 * 4
        var out = ByteWriter(capacity: 40 + width * height * 4 + maskRowBytes * height)
        for field in [40, width, height * 2] { out.u32(field) }
        out.u16(1)
        out.u16(32)
        for _ in 0..<6 { out.u32(0) }
        for row in stride(from: height - 1, through: 0, by: -1) {
            for pixel in image.pixels[(row * width)..<((row + 1) * width)] { out.u32(Int(image.hasAlpha ? pixel : pixel | 0xFF00_0000)) }
        }
        for row in stride(from: height - 1, through: 0, by: -1) {
            var mask = [UInt8](repeating: 0, count: maskRowBytes)
            for column in 0..<width where image.hasAlpha && image.pixels[row * width + column] >> 24 == 0 {
                mask[column / 8] |= 0x80 >> UInt8(column % 8)
            }
            out.append(mask)
        }
        return out.bytes
    }
}
