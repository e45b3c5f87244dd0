// MD5 (RFC 1321), only to name freedesktop thumbnails, whose file names are MD5 digests.
import Glibc

/// The MD5 digest of `bytes` as 32 lowercase hex digits. Not for security: the thumbnail
/// specification names files by it, so it must be exactly MD5.
func md5Hex(_ bytes: [UInt8]) -> String {
    var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
    var message = bytes
    let bitLength = UInt64(bytes.count) &* 8
    message.append(0x80)
    while message.count % 64 != 56 { message.append(0) }
    for shift in stride(from: 0, to: 64, by: 8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

    for chunk in stride(from: 0, to: message.count, by: 64) {
        var words = [UInt32](repeating: 0, count: 16)
        for index in 0..<16 {
            let base = chunk + index * 4
            words[index] = UInt32(message[base]) | UInt32(message[base + 1]) << 8
                | UInt32(message[base + 2]) << 16 | UInt32(message[base + 3]) << 24
        }
        var (a, b, c, d) = state
        for round in 0..<64 {
            var f: UInt32
            var index: Int
            switch round {
            case 0..<16: f = (b & c) | (~b & d); index = round
            case 16..<32: f = (d & b) | (~d & c); index = (5 * round + 1) % 16
            case 32..<48: f = b ^ c ^ d; index = (3 * round + 5) % 16
            default: f = c ^ (b | ~d); index = (7 * round) % 16
            }
            f = f &+ a &+ md5Constants[round] &+ words[index]
            a = d
            d = c
            c = b
            b = b &+ ((f << md5Shifts[round]) | (f >> (32 - md5Shifts[round])))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    for word in [state.0, state.1, state.2, state.3] {
        for shift in stride(from: 0, to: 32, by: 8) {
            let byte = UInt8(truncatingIfNeeded: word >> UInt32(shift))
            hex += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
        }
    }
    return String(decoding: hex, as: UTF8.self)
}

private let md5Shifts: [UInt32] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
]

/// floor(abs(sin(i + 1)) × 2^32), as RFC 1321 lists them.
private let md5Constants: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64((abs(sin(Double($0 + 1))) * 4_294_967_296).rounded(.down))) }
