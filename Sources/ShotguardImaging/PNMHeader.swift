// The headers of the Netpbm formats (PBM, PGM, PPM: P1-P6; PAM: P7), read from untrusted bytes.

/// A Netpbm header: which variant, the size, the samples per pixel and their range, and where
/// the pixel data starts.
struct PNMHeader: Equatable {
    /// The digit after `P`: 1-3 plain (text) bitmap, grey, colour; 4-6 the same raw; 7 PAM.
    let kind: Int
    let width: Int
    let height: Int
    /// Samples per pixel: 1 (bitmap, grey), 2 (grey and alpha), 3 (RGB), 4 (RGB and alpha).
    let depth: Int
    /// The largest sample value (1 for bitmaps), at most 65535.
    let maxval: Int
    /// PAM's TUPLTYPE (empty for P1-P6); `BLACKANDWHITE` counts 1 as white, where PBM counts it as black.
    let tupleType: String
    let dataStart: Int

    var isPlain: Bool { kind <= 3 }
    var isBitmap: Bool { kind == 1 || kind == 4 }
    var hasAlpha: Bool { depth == 2 || depth == 4 }
    var isColour: Bool { depth >= 3 }
    var bytesPerSample: Int { maxval > 255 ? 2 : 1 }

    /// The bytes of one row of raw data.
    var rowBytes: Int? { kind == 4 ? (width + 7) / 8 : checkedProduct(width, depth, bytesPerSample) }

    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 3 && bytes[0] == UInt8(ascii: "P") && (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(bytes[1])
            && isSpace(bytes[2])
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The header, or why it is not one this reads (every refusal names the field).
    static func parse(_ bytes: UnsafeRawBufferPointer, source: String, limits: DecodeLimits) throws(ImagingError) -> PNMHeader {
        guard hasSignature(bytes) else {
            throw ImagingError(.unknownFormat, source: source, "not a Netpbm image (expected P1 to P7)")
        }
        let kind = Int(bytes[1] - UInt8(ascii: "0"))
        let header = kind == 7 ? try parsePAM(bytes, source: source) : try parseClassic(bytes, kind: kind, source: source)
        guard header.width > 0, header.height > 0 else {
            throw ImagingError(.corrupt, source: source, "P\(kind) image says it is \(header.width)x\(header.height) pixels")
        }
        if let reason = limits.exceeded(width: header.width, height: header.height) {
            throw ImagingError(.tooLarge, source: source, reason)
        }
        guard (1...65535).contains(header.maxval) else {
            throw ImagingError(.corrupt, source: source, "P\(kind) maximum sample \(header.maxval) is not in 1-65535")
        }
        guard (1...4).contains(header.depth) else {
            throw ImagingError(.unknownFormat, source: source, "PAM depth \(header.depth) is not read (expected 1 to 4 samples)")
        }
        return header
    }

    /// P1-P6: width, height and (but for bitmaps) the maximum, as decimal numbers between
    /// whitespace and `#` comments; one whitespace byte ends the header.
    private static func parseClassic(_ bytes: UnsafeRawBufferPointer, kind: Int, source: String) throws(ImagingError) -> PNMHeader {
        var reader = PNMTokens(bytes, at: 2)
        var numbers: [Int] = []
        let needed = kind == 1 || kind == 4 ? 2 : 3
        while numbers.count < needed {
            guard let number = reader.number() else {
                throw ImagingError(reader.atEnd ? .truncated : .corrupt, source: source,
                                   "P\(kind) header is \(reader.atEnd ? "cut short" : "not numbers") before its "
                                       + ["width", "height", "maximum sample"][numbers.count])
            }
            numbers.append(number)
        }
        // Raw data starts after the single whitespace byte that ends the last number.
        let dataStart = kind <= 3 ? reader.position : reader.position + 1
        return PNMHeader(kind: kind, width: numbers[0], height: numbers[1], depth: kind == 3 || kind == 6 ? 3 : 1,
                         maxval: needed == 3 ? numbers[2] : 1, tupleType: "", dataStart: dataStart)
    }

    /// P7: lines of `WIDTH`, `HEIGHT`, `DEPTH`, `MAXVAL`, `TUPLTYPE`, ending with `ENDHDR`.
    private static func parsePAM(_ bytes: UnsafeRawBufferPointer, source: String) throws(ImagingError) -> PNMHeader {
        var fields: [String: Int] = [:]
        var tuple: [String] = []
        var position = 3
        // A PAM header is a few lines; a "header" of megabytes is not one.
        while position < min(bytes.count, 4096) {
            guard let end = bytes[position...].firstIndex(of: 0x0A) else { break }
            let line = String(decoding: bytes[position..<end], as: UTF8.self).trimmingSpaces()
            position = end + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            switch words[0] {
            case "ENDHDR":
                for key in ["WIDTH", "HEIGHT", "DEPTH", "MAXVAL"] where fields[key] == nil {
                    throw ImagingError(.corrupt, source: source, "PAM header has no \(key)")
                }
                return PNMHeader(kind: 7, width: fields["WIDTH"]!, height: fields["HEIGHT"]!, depth: fields["DEPTH"]!,
                                 maxval: fields["MAXVAL"]!, tupleType: tuple.joined(separator: " "), dataStart: position)
            case "TUPLTYPE":
                tuple.append(words.count > 1 ? words[1] : "")
            case "WIDTH", "HEIGHT", "DEPTH", "MAXVAL":
                guard words.count == 2, words[1].count <= 9, let value = Int(words[1]), value >= 0 else {
                    throw ImagingError(.corrupt, source: source, "PAM \(words[0]) is not a number")
                }
                fields[words[0]] = value
            default:
                let word = String(words[0].prefix(32)).escapingControlCharacters()
                throw ImagingError(.corrupt, source: source, "PAM header has an unknown line '\(word)'")
            }
        }
        throw ImagingError(position >= bytes.count ? .truncated : .corrupt, source: source, "PAM header has no ENDHDR line")
    }
}

/// Decimal numbers between whitespace and comments, as the plain formats and headers hold them.
struct PNMTokens {
    let bytes: UnsafeRawBufferPointer
    private(set) var position: Int

    init(_ bytes: UnsafeRawBufferPointer, at position: Int) {
        self.bytes = bytes
        self.position = position
    }

    var atEnd: Bool { position >= bytes.count }

    /// Skips whitespace and comments (`#` to the end of the line).
    mutating func skipSpace() {
        while position < bytes.count {
            if PNMHeader.isSpace(bytes[position]) {
                position += 1
            } else if bytes[position] == UInt8(ascii: "#") {
                while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
            } else {
                return
            }
        }
    }

    /// The next number, ended by whitespace or a comment (not by the end of the bytes, which
    /// may be a writer still at work); nil for anything else. At most 9 digits.
    mutating func number() -> Int? {
        skipSpace()
        var value = 0, digits = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            guard digits < 9 else { return nil }
            value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            digits += 1
            position += 1
        }
        guard digits > 0, position < bytes.count, PNMHeader.isSpace(bytes[position]) || bytes[position] == UInt8(ascii: "#") else {
            return nil
        }
        return value
    }

    /// The next bit of a plain bitmap: one `0` or `1`, with or without space around it.
    mutating func bit() -> Int? {
        skipSpace()
        guard position < bytes.count else { return nil }
        let byte = bytes[position]
        guard byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") else { return nil }
        position += 1
        return Int(byte - UInt8(ascii: "0"))
    }
}

extension String {
    /// Without spaces, tabs and carriage returns at either end.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
