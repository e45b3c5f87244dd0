// The block structure of a GIF, walked without decoding: its size, palettes, frames and end.

/// What a GIF's blocks say, read from untrusted bytes: the screen size, the palettes, the first
/// frame's place and transparency, how many frames there are and whether the trailer is there.
struct GIFStructure {
    let width: Int
    let height: Int
    /// The global colour table as 0xRRGGBB values, if there is one.
    let globalPalette: [UInt32]?
    /// The first frame's local colour table, if it has one.
    private(set) var localPalette: [UInt32]?
    private(set) var transparentIndex: Int?
    private(set) var interlaced = false
    private(set) var frames = 0
    /// Whether the walk reached the trailer (0x3B) with every block whole.
    private(set) var isComplete = false

    /// The first frame's palette: its own, else the global one.
    var palette: [UInt32]? { localPalette ?? globalPalette }

    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 6 && (bytes[0..<6].elementsEqual("GIF87a".utf8) || bytes[0..<6].elementsEqual("GIF89a".utf8))
    }

    /// Nil when the bytes do not start with a GIF signature and a whole screen descriptor.
    init?(_ bytes: UnsafeRawBufferPointer) {
        let fields = ByteFields(bytes)
        guard GIFStructure.hasSignature(bytes), let width = fields.u16(6), let height = fields.u16(8), let flags = fields.u8(10) else {
            return nil
        }
        self.width = width
        self.height = height
        var position = 13
        if flags & 0x80 != 0 {
            let count = 2 << (flags & 7)
            guard fields.contains(position, length: count * 3) else { return nil }
            globalPalette = GIFStructure.palette(bytes, at: position, count: count)
            position += count * 3
        } else {
            globalPalette = nil
        }
        var pendingTransparency: Int?
        while let kind = fields.u8(position) {
            switch kind {
            case 0x3B:
                isComplete = true
                return
            case 0x21:
                guard let label = fields.u8(position + 1) else { return }
                if label == 0xF9, fields.u8(position + 2) == 4, let packed = fields.u8(position + 3), let index = fields.u8(position + 6) {
                    pendingTransparency = packed & 1 != 0 ? index : nil
                }
                guard let end = GIFStructure.skipSubBlocks(fields, from: position + 2) else { return }
                position = end
            case 0x2C:
                guard let packed = fields.u8(position + 9) else { return }
                position += 10
                var local: [UInt32]?
                if packed & 0x80 != 0 {
                    let count = 2 << (packed & 7)
                    guard fields.contains(position, length: count * 3) else { return }
                    local = GIFStructure.palette(bytes, at: position, count: count)
                    position += count * 3
                }
                if frames == 0 {
                    localPalette = local
                    transparentIndex = pendingTransparency
                    interlaced = packed & 0x40 != 0
                }
                frames += 1
                pendingTransparency = nil
                // The LZW minimum code size, then the data's sub-blocks.
                guard let end = GIFStructure.skipSubBlocks(fields, from: position + 1) else { return }
                position = end
            default:
                return  // not a block a GIF has: never complete
            }
        }
    }

    private static func palette(_ bytes: UnsafeRawBufferPointer, at start: Int, count: Int) -> [UInt32] {
        (0..<count).map { index in
            let at = start + index * 3
            return UInt32(bytes[at]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2])
        }
    }

    /// Where the sub-blocks starting at `position` end (after their zero-length terminator),
    /// or nil when the bytes end first.
    private static func skipSubBlocks(_ fields: ByteFields, from start: Int) -> Int? {
        var position = start
        while let size = fields.u8(position) {
            position += 1 + size
            if size == 0 { return position }
        }
        return nil
    }
}
