// X Window Dumps (what `xwd` writes), version 7, read and written in Swift: no library needed.

/// How an XWD is written: the pixel layout of the server it came from. A redacted copy keeps
/// the original's depth, bits per pixel and byte order, and its colour map entries; a new file
/// is what `xwd -root` writes on a 24-bit server of this machine (32 bits a pixel, LSBFirst).
public struct XWDOptions: FormatSettings, Equatable {
    /// 24 or 32: the pixels' depth (32 keeps alpha in the top byte).
    public var depth: Int
    /// 24 or 32 bits each pixel takes.
    public var bitsPerPixel: Int
    /// MSBFirst (true) or LSBFirst image bytes; the header is always written MSBFirst, as xwd does.
    public var bigEndian: Bool
    /// The colour map entries the original held (12 bytes each, as read), kept as they were.
    var colourMap: [UInt8] = []

    public static let standard = XWDOptions(depth: 24, bitsPerPixel: 32, bigEndian: false)

    public init(depth: Int, bitsPerPixel: Int, bigEndian: Bool) {
        self.depth = depth
        self.bitsPerPixel = bitsPerPixel
        self.bigEndian = bigEndian
    }

    public var format: ImageFormat { .xwd }

    public func encode(_ image: PixelBuffer, destination: String) throws(ImagingError) -> [UInt8] {
        try XWDCodec.encode(image, options: self, destination: destination)
    }
}

public enum XWDCodec: ImageFileCodec {
    /// XWD has no magic number: a header counts when every field is what a dump holds (see `XWDHeader`).
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool { XWDHeader(bytes) != nil }

    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let header = XWDHeader(bytes), let end = header.dataEnd else { return false }
        return bytes.count >= end
    }

    static func read(_ data: [UInt8], source: String, limits: DecodeLimits) throws(ImagingError) -> DecodedImage {
        DecodedImage(image: try decode(data, source: source, limits: limits), format: .xwd)
    }

    /// Decodes a ZPixmap dump: TrueColor or DirectColor at 8, 16, 24 or 32 bits a pixel
    /// (either byte order), or PseudoColor, StaticColor and grey visuals at 8 bits through
    /// their colour map. XYPixmap and XYBitmap dumps are refused.
    public static func decode(_ data: [UInt8], source: String, limits: DecodeLimits = .standard) throws(ImagingError) -> PixelBuffer {
        try limits.checkInput(data, source: source)
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(ImagingError) in try decode(bytes, source: source, limits: limits) }
        }
        return try result.get()
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer, source: String, limits: DecodeLimits) throws(ImagingError) -> PixelBuffer {
        guard let header = XWDHeader(bytes) else {
            throw ImagingError(.unknownFormat, source: source, "not an X window dump (no version 7 header)")
        }
        if let reason = limits.exceeded(width: header.width, height: header.height) {
            throw ImagingError(.tooLarge, source: source, reason)
        }
        guard header.pixmapFormat == 2 else {
            throw ImagingError(.unknownFormat, source: source, "XWD is an \(header.pixmapFormat == 1 ? "XYPixmap" : "XYBitmap") dump; "
                + "only ZPixmap dumps (what xwd writes) are read")
        }
        let trueColour = header.visualClass >= 4
        guard [8, 16, 24, 32].contains(header.bitsPerPixel), trueColour || header.bitsPerPixel == 8 else {
            throw ImagingError(.unknownFormat, source: source, "XWD has \(header.bitsPerPixel) bits a pixel in visual class "
                + "\(header.visualClass); TrueColor at 8-32 bits and colour-mapped 8-bit dumps are read")
        }
        guard let dataEnd = header.dataEnd, header.bytesPerLine >= (header.width * header.bitsPerPixel + 7) / 8 else {
            throw ImagingError(.corrupt, source: source, "XWD's \(header.bytesPerLine)-byte lines cannot hold \(header.width) pixels")
        }
        guard bytes.count >= dataEnd else {
            throw ImagingError(.truncated, source: source, "XWD is cut short: \(bytes.count) bytes, its lines end at byte \(dataEnd)")
        }
        let masks = [header.redMask, header.greenMask, header.blueMask].map(ChannelMask.init)
        guard !trueColour || masks.allSatisfy({ $0.bits > 0 }) else {
            throw ImagingError(.corrupt, source: source, "XWD's TrueColor masks are empty")
        }
        // Colour-mapped pixels look up their entry; a pixel with no entry is black.
        var colourMap = [UInt32](repeating: 0xFF00_0000, count: trueColour ? 0 : 256)
        let fields = ByteFields(bytes, bigEndian: true)
        for entry in 0..<(trueColour ? 0 : header.colours) {
            let at = header.headerSize + entry * 12
            guard let pixel = fields.u32(at), pixel < 256, let red = fields.u16(at + 4), let green = fields.u16(at + 6),
                  let blue = fields.u16(at + 8) else { continue }
            colourMap[pixel] = 0xFF00_0000 | UInt32(red >> 8) << 16 | UInt32(green >> 8) << 8 | UInt32(blue >> 8)
        }
        let (width, height) = (header.width, header.height)
        let bytesPerPixel = header.bitsPerPixel / 8
        let big = header.imageBigEndian
        var pixels = [UInt32](repeating: 0, count: width * height)
        for row in 0..<height {
            let line = header.dataStart + row * header.bytesPerLine
            for column in 0..<width {
                let at = line + column * bytesPerPixel
                var value: UInt32 = 0
                for index in 0..<bytesPerPixel {
                    let byte = UInt32(bytes[at + (big ? index : bytesPerPixel - 1 - index)])
                    value = value << 8 | byte
                }
                pixels[row * width + column] = trueColour
                    ? 0xFF00_0000 | masks[0].extract(value) << 16 | masks[1].extract(value) << 8 | masks[2].extract(value)
                    : colourMap[Int(value & 0xFF)]
            }
        }
        return PixelBuffer(width: width, height: height, pixels: pixels, hasAlpha: false)
    }

    static func encoding(named name: String, quality: Int?) -> ImageEncoding? { .settings(XWDOptions.standard) }

    static func encoding(matching original: [UInt8]) -> ImageEncoding? {
        let options = original.withUnsafeBytes { bytes -> XWDOptions in
            guard let header = XWDHeader(bytes), header.visualClass >= 4, [24, 32].contains(header.bitsPerPixel),
                  header.redMask == 0xFF_0000, header.greenMask == 0xFF00, header.blueMask == 0xFF else { return .standard }
            var options = XWDOptions(depth: header.depth == 32 ? 32 : 24, bitsPerPixel: header.bitsPerPixel,
                                     bigEndian: header.imageBigEndian)
            let mapBytes = header.colours * 12
            if ByteFields(bytes).contains(header.headerSize, length: mapBytes) {
                options.colourMap = Array(bytes[header.headerSize..<(header.headerSize + mapBytes)])
            }
            return options
        }
        return .settings(options)
    }

    /// `image` as a TrueColor ZPixmap dump (red 0xFF0000, green 0xFF00, blue 0xFF), named
    /// `xwdump` as xwd names a window without a name: the original's window name (which may
    /// be a protected window's title) is never written.
    public static func encode(_ image: PixelBuffer, options: XWDOptions, destination: String) throws(ImagingError) -> [UInt8] {
        let bytesPerPixel = options.bitsPerPixel / 8
        guard [24, 32].contains(options.bitsPerPixel), [24, 32].contains(options.depth), image.width > 0, image.height > 0,
              options.colourMap.count % 12 == 0,
              let bytesPerLine = checkedProduct(image.width, bytesPerPixel).map({ ($0 + 3) / 4 * 4 }),
              let size = checkedProduct(bytesPerLine, image.height), size <= Int(UInt32.max) else {
            throw ImagingError(.encode, source: destination, "cannot write a \(image.width)x\(image.height) image as XWD "
                + "at \(options.bitsPerPixel) bits a pixel")
        }
        let name = Array("xwdump".utf8) + [0]
        let colours = options.colourMap.count / 12
        var out = ByteWriter(bigEndian: true, capacity: 100 + name.count + options.colourMap.count + size)
        let fields = [
            100 + name.count, 7, 2, options.depth, image.width, image.height, 0,
            options.bigEndian ? 1 : 0, 32, options.bigEndian ? 1 : 0, 32, options.bitsPerPixel, bytesPerLine,
            4, 0xFF_0000, 0xFF00, 0xFF, 8, colours == 0 ? 256 : colours, colours, image.width, image.height, 0, 0, 0,
        ]
        for field in fields { out.u32(field) }
        out.append(name)
        out.append(options.colourMap)
        // Each line written in place: a 1080p dump is 8 MB, too many for a small array a pixel.
        var lines = [UInt8](repeating: 0, count: size)
        let alphaByte: UInt32 = options.depth == 32 ? 0xFF00_0000 : 0
        for row in 0..<image.height {
            var at = row * bytesPerLine
            for pixel in image.pixels[(row * image.width)..<((row + 1) * image.width)] {
                let value = options.depth == 32 && image.hasAlpha ? pixel : pixel & 0xFF_FFFF | alphaByte
                for index in 0..<bytesPerPixel {
                    // Byte `index` of the pixel: from the top for MSBFirst, from the bottom for LSBFirst.
                    let shift = options.bigEndian ? 8 * (bytesPerPixel - 1 - index) : 8 * index
                    lines[at + index] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
                }
                at += bytesPerPixel
            }
        }
        out.append(lines)
        return out.bytes
    }
}

/// An XWD header (`XWDFileHeader` of X11/XWDFile.h), recognised only when every field is what
/// a dump holds: version 7, a header of at least 100 bytes (with a name of at most 4 KiB),
/// a known pixmap format, byte order and visual class, a depth of 1-32, a size of 1-65535
/// pixels each way, bits a pixel that fit the depth, lines long enough. xwd writes it MSBFirst;
/// a header in the other order (other writers) is read too.
struct XWDHeader {
    let headerSize, pixmapFormat, depth, width, height, bitsPerPixel, bytesPerLine, visualClass: Int
    let redMask, greenMask, blueMask, colours: Int
    let imageBigEndian: Bool

    var dataStart: Int { headerSize + colours * 12 }
    var dataEnd: Int? { checkedProduct(bytesPerLine, height).map { dataStart + $0 } }

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 100 else { return nil }
        for bigEndian in [true, false] {
            let fields = ByteFields(bytes, bigEndian: bigEndian)
            let values = (0..<25).compactMap { fields.u32($0 * 4) }
            guard values.count == 25 else { return nil }
            let (size, version, format, depth) = (values[0], values[1], values[2], values[3])
            let (width, height, order, bitsPerPixel, bytesPerLine, visual) = (values[4], values[5], values[7], values[11], values[12],
                                                                                values[13])
            guard version == 7, (100...4196).contains(size), format <= 2, (1...32).contains(depth), (1...65535).contains(width),
                  (1...65535).contains(height), order <= 1, [1, 4, 8, 16, 24, 32].contains(bitsPerPixel), bitsPerPixel >= depth
                      || format != 2, visual <= 5, values[19] <= 65536, bytesPerLine >= (width * bitsPerPixel + 7) / 8,
                  bytesPerLine <= width * 4 + 64 else { continue }
            self.headerSize = size
            self.pixmapFormat = format
            self.depth = depth
            self.width = width
            self.height = height
            self.bitsPerPixel = bitsPerPixel
            self.bytesPerLine = bytesPerLine
            self.visualClass = visual
            (redMask, greenMask, blueMask) = (values[14], values[15], values[16])
            colours = values[19]
            imageBigEndian = order == 1
            return
        }
        return nil
    }
}

/// One channel of a TrueColor pixel: where its bits are, and how to widen them to 8.
struct ChannelMask {
    let mask: UInt32
    let shift: UInt32
    let bits: Int

    init(_ mask: Int) {
        self.mask = UInt32(truncatingIfNeeded: mask)
        shift = self.mask == 0 ? 0 : UInt32(self.mask.trailingZeroBitCount)
        // The run of ones from the lowest set bit (0 for an empty mask).
        bits = self.mask == 0 ? 0 : (~(self.mask >> shift)).trailingZeroBitCount
    }

    /// The channel of `pixel` scaled to 0...255 (its top 8 bits when it has more).
    func extract(_ pixel: UInt32) -> UInt32 {
        guard bits > 0 else { return 0 }
        let value = (pixel & mask) >> shift & (bits >= 32 ? .max : (1 << UInt32(bits)) - 1)
        if bits >= 8 { return value >> UInt32(bits - 8) }
        return value * 255 / ((1 << UInt32(bits)) - 1)
    }
}
