// Rewrites the CRC of every whole chunk of a PNG, so mutated inputs get past libpng's CRC checks.

/// `bytes` with each complete chunk's CRC set to match its type and data. libpng refuses a
/// chunk whose CRC is wrong, so without this nearly every mutation stops there and the
/// decoding code behind it is never reached.
public func withCorrectChecksums(_ bytes: [UInt8]) -> [UInt8] {
    var out = bytes
    var offset = 8
    while offset + 12 <= out.count {
        let length = Int(out[offset]) << 24 | Int(out[offset + 1]) << 16 | Int(out[offset + 2]) << 8 | Int(out[offset + 3])
        let end = offset + 12 + length
        guard end <= out.count else { break }
        let crc = crc32(out[(offset + 4)..<(end - 4)])
        for index in 0..<4 { out[end - 4 + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        offset = end
    }
    return out
}

private let crcTable: [UInt32] = (0..<256).map { (index: UInt32) -> UInt32 in
    (0..<8).reduce(index) { value, _ in value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
}

/// The CRC-32 of PNG and zlib (ISO 3309), as the PNG specification's sample code computes it.
func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    ~bytes.reduce(~UInt32(0)) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
}
