// PNG files made byte by byte in the tests: chunks with their CRCs, and zlib streams of stored blocks.
import ShotguardImaging

enum PNGBytes {
    static func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be(UInt32(data.count)) + body + be(crc32(body))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// `data` as a zlib stream of stored (uncompressed) blocks: the filtered rows reach the
    /// decoder exactly as the test wrote them.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final: UInt8 = offset + length == data.count ? 1 : 0
            stream += [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            stream += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return stream + be(b << 16 | a)
    }

    /// An 8-bit RGB (or RGBA) PNG of `width` x `height` whose rows, each `filter` then its
    /// filtered bytes, are given whole.
    static func png(width: Int, height: Int, hasAlpha: Bool, filteredRows: [UInt8]) -> [UInt8] {
        let header = be(UInt32(width)) + be(UInt32(height)) + [8, hasAlpha ? 6 : 2, 0, 0, 0]
        return PNGChunks.signature + chunk("IHDR", header) + chunk("IDAT", storedZlib(filteredRows)) + chunk("IEND", [])
    }
}
