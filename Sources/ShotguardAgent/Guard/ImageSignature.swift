// Whether a file's first bytes are an image's, in any format a screenshot may be written in: what a reader's open file must be to be guarded.
import ShotguardImaging

/// A program that holds protected pixels also writes files that are no image: its log, the
/// terminal's output it was started with, a cache. Only files whose bytes start as an image do
/// count: the formats guard reads, and the others a screenshot tool may write (which guard sets
/// aside, never leaves, when it cannot rewrite them).
enum ImageSignature {
    /// How many bytes the check needs.
    static let length = 16

    static func isImage(_ head: [UInt8]) -> Bool {
        if ImageFormat.sniff(head) != nil { return true }
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<(offset + magic.count)]) == magic
        }
        let ascii = { (text: String) in Array(text.utf8) }
        if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return true }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return true }  // TIFF
        if head.count >= 3, head[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(head[1]),
           [0x0A, 0x0D, 0x20, 0x09].contains(head[2]) { return true }  // PNM, PAM
        if starts([0x00, 0x00, 0x01, 0x00]) { return true }  // ICO
        if starts(ascii("ftyp"), at: 4), head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if ["avif", "avis", "heic", "heix", "mif1", "msf1"].contains(brand) { return true }
        }
        if starts([0xFF, 0x0A]) || starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return true }  // JPEG XL
        if starts(ascii("qoif")) { return true }
        return isXWD(head)
    }

    /// An X Window Dump has no magic: its header (big-endian 32-bit fields) gives its own size
    /// (at least 100 bytes) and version 7.
    private static func isXWD(_ head: [UInt8]) -> Bool {
        guard head.count >= 8 else { return false }
        func field(_ index: Int, swapped: Bool) -> UInt32 {
            let bytes = head[(index * 4)..<(index * 4 + 4)]
            return bytes.reduce(0) { swapped ? $0 >> 8 | UInt32($1) << 24 : $0 << 8 | UInt32($1) }
        }
        for swapped in [false, true] {
            let headerSize = field(0, swapped: swapped), version = field(1, swapped: swapped)
            if version == 7, (100...4096).contains(headerSize) { return true }
        }
        return false
    }
}
