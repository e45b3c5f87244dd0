// A walk over a PNG's chunks, without decompressing: completeness checks and colour-chunk removal.

/// One chunk of a PNG held in memory.
public struct PNGChunk: Sendable {
    /// The four letters of its type, e.g. `IHDR`.
    public var type: String
    /// Its bytes in the file: length, type, data and CRC.
    public var range: Range<Int>
}

/// What a walk over a PNG's chunks found. The walk keeps a fixed amount of state whatever the
/// number of chunks: a valid file of millions of empty chunks costs no memory beyond its bytes.
public struct PNGChunks: Sendable {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// How many whole chunks the walk met, up to and including `IEND`.
    public private(set) var count = 0
    /// Whether the walk reached `IEND`.
    public private(set) var isComplete = false
    /// Whether any chunk in `colourSpaceChunks` is present.
    public private(set) var hasColourSpaceChunks = false

    /// Walks the chunks of `bytes`. Throws when the data is not a PNG at all.
    public init(_ bytes: UnsafeRawBufferPointer, source: String) throws(ImagingError) {
        var summary = PNGChunks()
        isComplete = try Self.forEach(in: bytes, source: source) { chunk in
            summary.count += 1
            if Self.colourSpaceChunks.contains(chunk.type) { summary.hasColourSpaceChunks = true }
        }
        count = summary.count
        hasColourSpaceChunks = summary.hasColourSpaceChunks
    }

    private init() {}

    /// Calls `body` with each whole chunk of `bytes` in file order, up to and including `IEND`;
    /// returns whether `IEND` was reached. Throws when the data has no PNG signature.
    @discardableResult
    public static func forEach(in bytes: UnsafeRawBufferPointer, source: String,
                               _ body: (PNGChunk) -> Void) throws(ImagingError) -> Bool {
        guard bytes.count >= 8, zip(bytes.prefix(8), signature).allSatisfy({ $0 == $1 }) else {
            throw ImagingError(.notPNG, source: source, "not a PNG file (no PNG signature)")
        }
        var offset = 8
        while offset + 12 <= bytes.count {
            // A 32-bit length always fits in Int on 64-bit systems; the sum is checked below.
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16
                | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let end = offset + 12 + length
            guard end <= bytes.count else { return false }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            body(PNGChunk(type: type, range: offset..<end))
            offset = end
            if type == "IEND" { return true }
        }
        return false
    }

    /// Chunks that make libpng's simplified reader change pixel values (gamma and colour
    /// space). Screenshots are compared and redacted pixel for pixel, so they are dropped and
    /// the samples are taken as they are stored, as image viewers and ImageMagick do.
    static let colourSpaceChunks: Set<String> = ["gAMA", "cHRM", "sRGB", "iCCP"]

    /// The file without its colour-space chunks (a second walk, still without a chunk list).
    static func withoutColourSpaceChunks(_ bytes: UnsafeRawBufferPointer, source: String) throws(ImagingError) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        out.append(contentsOf: bytes[0..<8])
        try forEach(in: bytes, source: source) { chunk in
            if !colourSpaceChunks.contains(chunk.type) { out.append(contentsOf: bytes[chunk.range]) }
        }
        return out
    }
}
