// Whether a file's first bytes are an image's, in any format a screenshot may be written in: what a reader's open file must be to be guarded.
import ShotguardImaging

/// A program that holds protected pixels also writes files that are no image: its log, the
/// terminal's output it was started with, a cache. Only files whose bytes start as an image do
/// count: the formats guard reads, and the others a screenshot tool may write (which guard sets
/// aside, never leaves, when it cannot rewrite them).
enum ImageSignature {
    /// How many bytes the check needs: a BMP's signature reaches its info header's size (18
    /// bytes), an ICO's its first image's entry (22). At 16, a BMP was no image, and
    /// `import -window root f.bmp` kept the protected pixels it wrote.
    static let length = 32

    static func isImage(_ head: [UInt8]) -> Bool {
        if ImageFormat.sniff(head) != nil { return true }
        func starts(_ magic: [UInt8]) -> Bool { head.starts(with: magic) }
        let ascii = { (text: String) in Array(text.utf8) }
        if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return true }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return true }  // TIFF
        if head.count >= 3, head[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(head[1]),
           [0x0A, 0x0D, 0x20, 0x09].contains(head[2]) { return true }  // PNM, PAM
        if starts([0x00, 0x00, 0x01, 0x00]) { return true }  // ICO
        if head.count >= 12, Array(head[4..<8]) == ascii("ftyp"), ["avif", "avis"].contains(String(decoding: head[8..<12], as: UTF8.self)) {
            return true
        }
        return foreignFormat(head) != nil || isXWD(head)
    }

    /// The name of an image format guard cannot read, whose file starts with `head`: HEIF, JPEG
    /// XL and QOI, and what ImageMagick (import, convert) and editors write a screenshot in as
    /// readily — MIFF, PDF and PostScript, Photoshop, JPEG 2000, OpenEXR, SGI, Sun raster,
    /// farbfeld, DDS, Radiance, XPM. Such a file is complete when its writer is done: it is
    /// judged at once (set aside when it holds protected pixels), never looked at again.
    static func foreignFormat(_ head: [UInt8]) -> String? {
        let ascii = { (text: String) in Array(text.utf8) }
        if head.count >= 12, Array(head[4..<8]) == ascii("ftyp"),
           ["heic", "heix", "mif1", "msf1"].contains(String(decoding: head[8..<12], as: UTF8.self)) {
            return "HEIF"
        }
        let magics: [(String, [UInt8])] = [
            ("JPEG XL", [0xFF, 0x0A]), ("JPEG XL", [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]), ("QOI", ascii("qoif")),
            ("MIFF", ascii("id=ImageMagick")), ("PDF", ascii("%PDF-")), ("PostScript", ascii("%!PS")), ("Photoshop", ascii("8BPS")),
            ("farbfeld", ascii("farbfeld")), ("DDS", ascii("DDS ")), ("Radiance", ascii("#?RADIANCE")), ("Radiance", ascii("#?RGBE")),
            ("XPM", ascii("/* XPM */")), ("JPEG 2000", [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]),
            ("JPEG 2000", [0xFF, 0x4F, 0xFF, 0x51]), ("OpenEXR", [0x76, 0x2F, 0x31, 0x01]), ("SGI", [0x01, 0xDA]),
            ("Sun raster", [0x59, 0xA6, 0x6A, 0x95]),
        ]
        return magics.first { head.starts(with: $0.1) }?.0
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
