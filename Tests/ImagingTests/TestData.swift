// Locates the PNG test files in the repository and reads fixtures for the imaging tests.
import Foundation
import ShotguardImaging

enum TestData {
    /// The project's root folder (two levels above this file's folder).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The test data kept in the repository (see its README for where each file came from).
    static let data = root.appendingPathComponent("Tests/ImagingTests/Fixtures")

    static func files(in folder: String) throws -> [URL] {
        let url = data.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "png" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("Tests/ImagingTests/Fixtures/\(name)"), encoding: .utf8)
    }

    /// A screenshot-like image: bands of text-like marks on flat backgrounds, some gradients.
    static func screenshotLike(width: Int, height: Int) -> PixelBuffer {
        var image = PixelBuffer(width: width, height: height)
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                let band = (y / 40) % 4
                var value: UInt32
                switch band {
                case 0: value = 0xFF20_2428
                case 1: value = 0xFFF0_F0F0
                case 2: value = 0xFF00_0000 | UInt32(x & 0xFF) << 16 | UInt32(y & 0xFF) << 8 | 0x80
                default: value = 0xFF33_66AA
                }
                seed = seed &* 1_103_515_245 &+ 12345
                if (x / 7 + y / 11) % 3 == 0, (seed >> 16) & 3 == 0 { value ^= 0x00FF_FFFF }
                image[x, y] = value
            }
        }
        return image
    }
}

/// FNV-1a 64 over the pixels in R, G, B, A byte order, fully transparent pixels as zero, as
/// the reference script hashes them.
func rgbaHash(_ image: PixelBuffer) -> String {
    var value: UInt64 = 0xCBF2_9CE4_8422_2325
    for pixel in image.pixels.map({ $0 >> 24 == 0 ? 0 : $0 }) {
        for shift in [16, 8, 0, 24] as [UInt32] {
            value ^= UInt64((pixel >> shift) & 0xFF)
            value = value &* 0x100_0000_01B3
        }
    }
    let text = String(value, radix: 16)
    return String(repeating: "0", count: 16 - text.count) + text
}

extension TestData {
    /// `value` as PNG writes it: four bytes, most significant first.
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// One PNG chunk: its length (`length`, or the data's when nil), type, data and a CRC that
    /// is right for the type and data, so that a chunk may lie about its length alone.
    static func pngChunk(_ type: String, _ data: [UInt8], length: UInt32? = nil) -> [UInt8] {
        let typed = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return bigEndian(length ?? UInt32(data.count)) + typed + bigEndian(~crc)
    }

    /// The chunks of a PNG, in order, as (type, data); nil when they do not walk to its end.
    static func pngChunks(_ png: [UInt8]) -> [(type: String, data: [UInt8])]? {
        var chunks: [(type: String, data: [UInt8])] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard length <= png.count - offset - 12 else { return nil }
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            chunks.append((type, Array(png[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return offset == png.count ? chunks : nil
    }
}

extension TestData {
    /// An 8-bit RGB (or RGBA) PNG whose zlib stream holds `rows` (filter bytes included) in
    /// stored blocks: the filtered rows reach the decoder exactly as the test wrote them.
    static func storedPNG(width: Int, height: Int, hasAlpha: Bool = false, rows: [UInt8]) -> [UInt8] {
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, rows.count - offset)
            let last: UInt8 = offset + count == rows.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += rows[offset..<(offset + count)]
            offset += count
        } while offset < rows.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in rows {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        zlib += bigEndian(b << 16 | a)
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, hasAlpha ? 6 : 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", header) + pngChunk("IDAT", zlib)
            + pngChunk("IEND", [])
    }
}
