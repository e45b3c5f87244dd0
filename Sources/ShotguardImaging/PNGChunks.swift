// A walk over a PNG's chunks, without decompressing: completeness checks and colour-chunk removal.

/// The chunk layout of a PNG held in memory.
public struct PNGChunks {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Byte ranges of each chunk (length, type, data and CRC), in file order.
    public private(set) var chunks: [(type: String, range: Range<Int>)] = []
    /// Whether the walk reached `IEND`.
    public private(set) var isComplete = false

    /// Walks the chunks of `bytes`. Throws when the data is not a PNG at all.
    public init(_ bytes: UnsafeRawBufferPointer, source: String) throws(ImagingError) {
        guard bytes.count >= 8, zip(bytes.prefix(8), Self.signature).allSatisfy({ $0 == $1 }) else {
            throw ImagingError(.notPNG, source: source, "not a PNG file (no PNG signature)")
        }
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16
                | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let end = offset + 12 + length
            guard end <= bytes.count else { break }
            chunks.append((type, offset..<end))
            offset = end
            if type == "IEND" {
                isComplete = true
                break
            }
        }
    }

    /// Chunks that make libpng's simplified reader change pixel values (gamma and colour
    /// space). Screenshots are compared and redacted pixel for pixel, so they are dropped and
    /// the samples are taken as they are stored, as image viewers and ImageMagick do.
    static let colourSpaceChunks: Set<String> = ["gAMA", "cHRM", "sRGB", "iCCP"]

    /// Whether any chunk in `colourSpaceChunks` is present.
    var hasColourSpaceChunks: Bool { chunks.contains { Self.colourSpaceChunks.contains($0.type) } }

    /// The file without its colour-space chunks.
    func withoutColourSpaceChunks(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        out.append(contentsOf: bytes[0..<8])
        for chunk in chunks where !Self.colourSpaceChunks.contains(chunk.type) {
            out.append(contentsOf: bytes[chunk.range])
        }
        return out
    }
}
