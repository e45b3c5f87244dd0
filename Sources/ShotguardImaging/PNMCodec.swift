// Netpbm images (PBM, PGM, PPM, plain and raw, and PAM), read and written in Swift: no library needed.

/// How a Netpbm file is written: its variant (`P1`-`P7`), its maximum sample and, for PAM, its
/// tuple type. A redacted copy keeps all three; a new file is a raw colour PPM (`P6`, 8-bit).
public struct PNMOptions: FormatSettings, Equatable {
    /// 1-7, as in the file's `P1`-`P7`.
    public var kind: Int
    /// The largest sample: 255 for 8 bits, up to 65535 (two bytes a sample); 1 for bitmaps.
    public var maxval: Int
    /// PAM's tuple type (`RGB`, `RGB_ALPHA`, `GRAYSCALE`, `GRAYSCALE_ALPHA`, `BLACKANDWHITE`),
    /// or empty to pick `RGB` or `RGB_ALPHA` by the image's alpha.
    public var tupleType: String

    public init(kind: Int, maxval: Int = 255, tupleType: String = "") {
        self.kind = kind
        self.maxval = kind == 1 || kind == 4 ? 1 : maxval
        self.tupleType = tupleType
    }

    public var format: ImageFormat { .pnm }

    public func encode(_ image: PixelBuffer, destination: String) throws(ImagingError) -> [UInt8] {
        try PNMCodec.encode(image, options: self, destination: destination)
    }
}

public enum PNMCodec: ImageFileCodec {
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool { PNMHeader.hasSignature(bytes) }

    /// Raw data: every row the header promises. Plain (text) data: every sample, the last
    /// one ended by whitespace (a number cut at the end of the bytes may still be growing).
    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        do {
            let header = try PNMHeader.parse(bytes, source: "", limits: .standard)
            if header.isPlain {
                _ = try decodePlain(bytes, header: header, source: "")
                return true
            }
            guard let rowBytes = header.rowBytes, let size = checkedProduct(rowBytes, header.height) else { return false }
            return ByteFields(bytes).contains(header.dataStart, length: size)
        } catch {
            return false  // not a whole Netpbm image: not complete
        }
    }

    static func read(_ data: [UInt8], source: String, limits: DecodeLimits) throws(ImagingError) -> DecodedImage {
        DecodedImage(image: try decode(data, source: source, limits: limits), format: .pnm)
    }

    /// Decodes the first image of a Netpbm file into B,G,R,A pixels; samples of more than 8
    /// bits are scaled to 8 with rounding, a sample above the maximum counts as the maximum.
    public static func decode(_ data: [UInt8], source: String, limits: DecodeLimits = .standard) throws(ImagingError) -> PixelBuffer {
        try limits.checkInput(data, source: source)
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(ImagingError) in
                let header = try PNMHeader.parse(bytes, source: source, limits: limits)
                let samples = header.isPlain ? try decodePlain(bytes, header: header, source: source)
                    : try decodeRaw(bytes, header: header, source: source)
                return pixels(samples, header: header)
            }
        }
        return try result.get()
    }

    /// The samples of raw data, widened to 16 bits.
    private static func decodeRaw(_ bytes: UnsafeRawBufferPointer, header: PNMHeader, source: String) throws(ImagingError) -> [UInt16] {
        guard let rowBytes = header.rowBytes, let size = checkedProduct(rowBytes, header.height),
              let count = checkedProduct(header.width, header.height, header.depth) else {
            throw ImagingError(.tooLarge, source: source, "P\(header.kind) image of \(header.width)x\(header.height) is too large")
        }
        guard ByteFields(bytes).contains(header.dataStart, length: size) else {
            throw ImagingError(.truncated, source: source,
                               "P\(header.kind) image is cut short: \(bytes.count) bytes, its rows end at byte \(header.dataStart + size)")
        }
        var samples = [UInt16](repeating: 0, count: count)
        let start = header.dataStart
        if header.kind == 4 {
            for row in 0..<header.height {
                let base = start + row * rowBytes
                for column in 0..<header.width {
                    samples[row * header.width + column] = UInt16(bytes[base + column / 8] >> (7 - UInt8(column % 8)) & 1)
                }
            }
        } else if header.bytesPerSample == 1 {
            for index in 0..<count { samples[index] = UInt16(bytes[start + index]) }
        } else {
            for index in 0..<count { samples[index] = UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1]) }
        }
        return samples
    }

    /// The samples of plain (text) data.
    private static func decodePlain(_ bytes: UnsafeRawBufferPointer, header: PNMHeader, source: String) throws(ImagingError) -> [UInt16] {
        guard let count = checkedProduct(header.width, header.height, header.depth) else {
            throw ImagingError(.tooLarge, source: source, "P\(header.kind) image of \(header.width)x\(header.height) is too large")
        }
        // Each sample takes at least one byte: a count beyond the bytes is cut short, found before allocating.
        guard count <= bytes.count - header.dataStart else {
            throw ImagingError(.truncated, source: source, "P\(header.kind) image is cut short: fewer bytes than its \(count) samples")
        }
        var samples = [UInt16](repeating: 0, count: count)
        var tokens = PNMTokens(bytes, at: header.dataStart)
        for index in 0..<count {
            guard let value = header.kind == 1 ? tokens.bit() : tokens.number() else {
                throw ImagingError(tokens.atEnd ? .truncated : .corrupt, source: source,
                                   "P\(header.kind) image is \(tokens.atEnd ? "cut short" : "not numbers") at sample \(index) of \(count)")
            }
            samples[index] = UInt16(min(value, header.maxval))
        }
        return samples
    }

    /// Samples to pixels: scaled to 8 bits; bitmaps black where PBM says 1.
    private static func pixels(_ samples: [UInt16], header: PNMHeader) -> PixelBuffer {
        let count = header.width * header.height
        var pixels = [UInt32](repeating: 0, count: count)
        let maxval = UInt32(header.maxval)
        // PBM's 1 is black; PAM's BLACKANDWHITE (like every other PAM tuple) counts up to white.
        let inverted = header.isBitmap
        func scaled(_ sample: UInt16) -> UInt32 {
            let value = (min(UInt32(sample), maxval) * 255 + maxval / 2) / maxval
            return inverted ? 255 - value : value
        }
        var anyTranslucent = false
        for index in 0..<count {
            let at = index * header.depth
            let grey = scaled(samples[at])
            let (red, green, blue) = header.isColour ? (grey, scaled(samples[at + 1]), scaled(samples[at + 2])) : (grey, grey, grey)
            let alpha = header.hasAlpha ? scaled(samples[at + header.depth - 1]) : 255
            if alpha != 255 { anyTranslucent = true }
            pixels[index] = alpha << 24 | red << 16 | green << 8 | blue
        }
        return PixelBuffer(width: header.width, height: header.height, pixels: pixels, hasAlpha: anyTranslucent)
    }

    static func encoding(named name: String, quality: Int?) -> ImageEncoding? {
        switch name {
        case "pbm": return .settings(PNMOptions(kind: 4))
        case "pgm": return .settings(PNMOptions(kind: 5))
        case "pam": return .settings(PNMOptions(kind: 7))
        default: return .settings(PNMOptions(kind: 6))
        }
    }

    static func encoding(matching original: [UInt8]) -> ImageEncoding? {
        let header = original.withUnsafeBytes { bytes in
            Result { () throws(ImagingError) in try PNMHeader.parse(bytes, source: "", limits: .standard) }
        }
        guard case .success(let header) = header else { return .settings(PNMOptions(kind: 6)) }
        // The pixels were read by the depth; a tuple type that disagrees with it (or repeats) gives way.
        let depths = ["BLACKANDWHITE": 1, "GRAYSCALE": 1, "BLACKANDWHITE_ALPHA": 2, "GRAYSCALE_ALPHA": 2, "RGB": 3, "RGB_ALPHA": 4]
        let tuple = depths[header.tupleType] == header.depth ? header.tupleType
            : ["GRAYSCALE", "GRAYSCALE_ALPHA", "RGB", "RGB_ALPHA"][header.depth - 1]
        return .settings(PNMOptions(kind: header.kind, maxval: header.maxval, tupleType: header.kind == 7 ? tuple : ""))
    }

    /// `image` as the Netpbm variant `options` names, with no comment. Grey variants take the
    /// pixels' luma, bitmaps black below half; alpha is written only where the variant has it.
    public static func encode(_ image: PixelBuffer, options: PNMOptions, destination: String) throws(ImagingError) -> [UInt8] {
        guard (1...7).contains(options.kind), (1...65535).contains(options.maxval), image.width > 0, image.height > 0 else {
            throw ImagingError(.encode, source: destination, "cannot write a \(image.width)x\(image.height) image as P\(options.kind) "
                + "with maximum \(options.maxval)")
        }
        let (channels, tuple) = layout(options, alpha: image.hasAlpha)
        var header = "P\(options.kind)\n"
        if options.kind == 7 {
            header += "WIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH \(channels.count)\nMAXVAL \(options.maxval)\n"
                + "TUPLTYPE \(tuple)\nENDHDR\n"
        } else {
            header += "\(image.width) \(image.height)\n" + (options.kind == 1 || options.kind == 4 ? "" : "\(options.maxval)\n")
        }
        var out = ByteWriter(bigEndian: true, capacity: header.utf8.count + image.pixels.count * channels.count)
        out.append(header.utf8)
        let maxval = options.maxval
        let bitmap = options.kind == 1 || options.kind == 4
        var line = 0
        for row in 0..<image.height {
            var bits = 0, bitCount = 0
            for column in 0..<image.width {
                let pixel = image.pixels[row * image.width + column]
                for channel in channels {
                    let value = channel.value(of: pixel, hasAlpha: image.hasAlpha)
                    if bitmap {
                        let black = value < 128 ? 1 : 0
                        if options.kind == 1 {
                            out.u8(black == 1 ? 0x31 : 0x30)
                            line += 1
                            if line == 70 { out.u8(0x0A); line = 0 }
                        } else {
                            bits = bits << 1 | black
                            bitCount += 1
                            if bitCount == 8 { out.u8(bits); bits = 0; bitCount = 0 }
                        }
                        continue
                    }
                    let sample = (value * maxval + 127) / 255
                    if options.kind <= 3 {
                        let text = String(sample)
                        if line + text.count + 1 > 70 { out.u8(0x0A); line = 0 } else if line > 0 { out.u8(0x20); line += 1 }
                        out.append(text.utf8)
                        line += text.count
                    } else if maxval > 255 {
                        out.u16(sample)
                    } else {
                        out.u8(sample)
                    }
                }
            }
            if bitCount > 0 { out.u8(bits << (8 - bitCount)) }
            if options.kind <= 3, line > 0 { out.u8(0x0A); line = 0 }
        }
        return out.bytes
    }

    /// The channels each pixel is written as, and PAM's tuple type for them.
    private static func layout(_ options: PNMOptions, alpha: Bool) -> ([PNMChannel], String) {
        switch options.kind {
        case 1, 2, 4, 5: return ([.grey], "")
        case 3, 6: return ([.red, .green, .blue], "")
        default:
            let tuple = options.tupleType.isEmpty ? (alpha ? "RGB_ALPHA" : "RGB") : options.tupleType
            let withAlpha = tuple.hasSuffix("_ALPHA")
            let colour: [PNMChannel] = tuple.hasPrefix("GRAYSCALE") || tuple.hasPrefix("BLACKANDWHITE") ? [.grey] : [.red, .green, .blue]
            return (colour + (withAlpha ? [.alpha] : []), tuple)
        }
    }
}

/// One sample of a pixel as Netpbm stores it, 0-255.
private enum PNMChannel {
    case red, green, blue, grey, alpha

    func value(of pixel: UInt32, hasAlpha: Bool) -> Int {
        let (r, g, b) = (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
        switch self {
        case .red: return r
        case .green: return g
        case .blue: return b
        case .grey: return (299 * r + 587 * g + 114 * b + 500) / 1000
        case .alpha: return hasAlpha ? Int(pixel >> 24) : 255
        }
    }
}
