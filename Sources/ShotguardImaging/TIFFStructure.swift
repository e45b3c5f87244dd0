// The framing of a TIFF, walked without libtiff: whether every byte its first directory points at is there.

/// A TIFF's header and first directory, read from untrusted bytes (classic TIFF and BigTIFF,
/// either byte order).
enum TIFFStructure {
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4 else { return false }
        let little = bytes[0] == 0x49 && bytes[1] == 0x49 && bytes[3] == 0
        let big = bytes[0] == 0x4D && bytes[1] == 0x4D && bytes[2] == 0
        return (little && (bytes[2] == 42 || bytes[2] == 43)) || (big && (bytes[3] == 42 || bytes[3] == 43))
    }

    /// Whether the first directory and everything it points at (its values, strips or tiles)
    /// lie inside the bytes. Writers put the directory last, so a file still being written
    /// fails this.
    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard hasSignature(bytes) else { return false }
        let fields = ByteFields(bytes, bigEndian: bytes[0] == 0x4D)
        let big = fields.u16(2) == 43
        guard let directory = big ? fields.u64(8).flatMap({ Int(exactly: $0) }) : fields.u32(4), directory >= 8,
              let count = big ? fields.u64(directory).flatMap({ Int(exactly: $0) }) : fields.u16(directory), count > 0, count <= 4096 else {
            return false
        }
        let (entrySize, valueSize, first) = big ? (20, 8, directory + 8) : (12, 4, directory + 2)
        guard fields.contains(first, length: count * entrySize + valueSize) else { return false }
        var offsets: [Int] = [], lengths: [Int] = []
        for index in 0..<count {
            let at = first + index * entrySize
            guard let tag = fields.u16(at), let type = fields.u16(at + 2),
                  let number = big ? fields.u64(at + 4).flatMap({ Int(exactly: $0) }) : fields.u32(at + 4) else { return false }
            let unit = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8][type] ?? 1
            guard let size = checkedProduct(number, unit) else { return false }
            let valueAt = at + (big ? 12 : 8)
            var start = valueAt
            if size > valueSize {
                guard let pointer = big ? fields.u64(valueAt).flatMap({ Int(exactly: $0) }) : fields.u32(valueAt),
                      fields.contains(pointer, length: size) else { return false }
                start = pointer
            }
            // StripOffsets/TileOffsets and StripByteCounts/TileByteCounts: the image data itself.
            if tag == 273 || tag == 324 || tag == 279 || tag == 325, number <= 1 << 20 {
                let values = (0..<number).map { value(fields, type: type, at: start + $0 * unit) }
                if tag == 273 || tag == 324 { offsets = values } else { lengths = values }
            }
        }
        guard !offsets.isEmpty, offsets.count == lengths.count else { return false }
        return zip(offsets, lengths).allSatisfy { fields.contains($0, length: $1) }
    }

    private static func value(_ fields: ByteFields, type: Int, at: Int) -> Int {
        switch type {
        case 3: return fields.u16(at) ?? -1
        case 16, 17: return fields.u64(at).flatMap { Int(exactly: $0) } ?? -1
        default: return fields.u32(at) ?? -1
        }
    }
}
