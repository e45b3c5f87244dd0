// A walk over a JPEG's markers, without decoding: completeness and quantisation tables.

/// What shotguard reads from a JPEG's marker segments.
enum JPEGMarkers {
    /// Calls `visit(marker, segment)` for each marker segment before and between scans, and
    /// returns true when the walk reaches `EOI`. Entropy-coded data after `SOS` is skipped up to
    /// the next marker that is neither a stuffed byte (FF00), a restart marker nor fill (FFFF).
    static func walk(_ bytes: UnsafeRawBufferPointer, visit: (UInt8, UnsafeRawBufferPointer) -> Void = { _, _ in }) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return false }
        var offset = 2
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else { return false }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xD9 { return true }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            guard offset + 3 < bytes.count else { return false }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return false }
            visit(marker, UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 2 + length)]))
            offset += 2 + length
            if marker == 0xDA {
                // Entropy-coded data: find the next real marker.
                while offset + 1 < bytes.count {
                    if bytes[offset] == 0xFF {
                        let next = bytes[offset + 1]
                        if next != 0x00, next != 0xFF, !(0xD0...0xD7).contains(next) { break }
                    }
                    offset += 1
                }
            }
        }
        return false
    }

    /// Whether the JPEG runs up to its `EOI` marker.
    static func endsWithEOI(_ bytes: UnsafeRawBufferPointer) -> Bool { walk(bytes) }

    /// The quantisation tables (DQT segments) in natural zig-zag order, by table id 0-3.
    static func quantisationTables(_ bytes: UnsafeRawBufferPointer) -> [Int: [Int]] {
        var tables: [Int: [Int]] = [:]
        _ = walk(bytes) { marker, segment in
            guard marker == 0xDB else { return }
            var offset = 0
            while offset < segment.count {
                let precision = Int(segment[offset] >> 4)
                let id = Int(segment[offset] & 0x0F)
                let size = precision == 0 ? 64 : 128
                guard offset + 1 + size <= segment.count, id < 4 else { return }
                tables[id] = (0..<64).map { index in
                    precision == 0 ? Int(segment[offset + 1 + index])
                        : Int(segment[offset + 1 + 2 * index]) << 8 | Int(segment[offset + 2 + 2 * index])
                }
                offset += 1 + size
            }
        }
        return tables
    }
}
