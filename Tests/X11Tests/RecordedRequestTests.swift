// Decoding recorded requests without X: both byte orders, short and lying requests, random bytes.
import ShotguardImaging
@testable import ShotguardX11
import CX11
import ShotguardTestSupport
import XCTest

final class RecordedRequestTests: XCTestCase {
    private let opcodes = RecordedOpcodes(sharedMemory: 130, composite: 142, damage: 143, render: 139)

    /// A request's bytes as a client of either byte order sends them.
    private struct Request {
        var bytes: [UInt8] = []
        let bigEndian: Bool

        mutating func byte(_ value: UInt8) { bytes.append(value) }

        mutating func card16(_ value: UInt16) {
            withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { bytes += $0 }
        }

        mutating func card32(_ value: UInt32) {
            withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { bytes += $0 }
        }
    }

    private func getImage(drawable: UInt32, x: Int16, y: Int16, width: UInt16, height: UInt16, bigEndian: Bool = false) -> [UInt8] {
        var request = Request(bigEndian: bigEndian)
        request.byte(73)
        request.byte(2)  // ZPixmap
        request.card16(5)
        request.card32(drawable)
        request.card16(UInt16(bitPattern: x))
        request.card16(UInt16(bitPattern: y))
        request.card16(width)
        request.card16(height)
        request.card32(0xFFFF_FFFF)
        return request.bytes
    }

    private func shmGetImage(drawable: UInt32, x: Int16, y: Int16, width: UInt16, height: UInt16, bigEndian: Bool = false) -> [UInt8] {
        var request = Request(bigEndian: bigEndian)
        request.byte(130)
        request.byte(4)
        request.card16(8)
        request.card32(drawable)
        request.card16(UInt16(bitPattern: x))
        request.card16(UInt16(bitPattern: y))
        request.card16(width)
        request.card16(height)
        request.card32(0xFFFF_FFFF)
        request.bytes += [2, 0, 0, 0]  // format, pad
        request.card32(0x60_0003)  // segment
        request.card32(0)  // offset
        return request.bytes
    }

    private func nameWindowPixmap(window: UInt32, pixmap: UInt32, bigEndian: Bool = false) -> [UInt8] {
        var request = Request(bigEndian: bigEndian)
        request.byte(142)
        request.byte(6)
        request.card16(3)
        request.card32(window)
        request.card32(pixmap)
        return request.bytes
    }

    private func decode(_ bytes: [UInt8], swapped: Bool = false, opcodes: RecordedOpcodes? = nil) -> RecordedRequest? {
        bytes.withUnsafeBytes { RecordedRequest.decode($0, swapped: swapped, opcodes: opcodes ?? self.opcodes) }
    }

    func testDecodesEachKindInEitherByteOrder() {
        for bigEndian in [false, true] {
            // This machine is little-endian: a big-endian client's bytes come swapped.
            let swapped = bigEndian
            XCTAssertEqual(decode(getImage(drawable: 0x50D, x: -3, y: 20, width: 640, height: 480, bigEndian: bigEndian), swapped: swapped),
                           .read(.getImage, drawable: 0x50D, area: Rect(x: -3, y: 20, width: 640, height: 480)))
            XCTAssertEqual(decode(shmGetImage(drawable: 0x1FFF_FFFF, x: 10, y: -32768, width: 65535, height: 1, bigEndian: bigEndian),
                                  swapped: swapped),
                           .read(.shmGetImage, drawable: 0x1FFF_FFFF, area: Rect(x: 10, y: -32768, width: 65535, height: 1)))
            XCTAssertEqual(decode(nameWindowPixmap(window: 0x80_0000, pixmap: 0x80_0001, bigEndian: bigEndian), swapped: swapped),
                           .nameWindowPixmap(window: 0x80_0000, pixmap: 0x80_0001))
        }
        // Read in the wrong order, the length is wrong too: nothing, rather than a wrong rectangle.
        XCTAssertNil(decode(getImage(drawable: 1, x: 0, y: 0, width: 1, height: 1, bigEndian: true), swapped: false))
    }

    /// The sharing paths' requests: `major`, `minor`, 32-bit fields, then 16-bit ones.
    private func sharing(_ major: UInt8, _ minor: UInt8, _ words: [UInt32], _ halves: [Int16] = [], bigEndian: Bool) -> [UInt8] {
        var request = Request(bigEndian: bigEndian)
        request.byte(major)
        request.byte(minor)
        request.card16(UInt16(1 + words.count + (halves.count + 1) / 2))
        words.forEach { request.card32($0) }
        halves.forEach { request.card16(UInt16(bitPattern: $0)) }
        if halves.count % 2 == 1 { request.card16(0) }
        return request.bytes
    }

    /// Copies, RENDER's pictures and Composite, shared pixmaps, redirections, DAMAGE and the
    /// selection's owner decode in either byte order, and none from a prefix of itself.
    func testDecodesTheSharingPathsInEitherByteOrder() {
        for bigEndian in [false, true] {
            let cases: [([UInt8], RecordedRequest)] = [
                (sharing(62, 0, [0x50D, 0xA0_0001, 0xA0_0002], [-5, 6, 7, 8, 640, 400], bigEndian: bigEndian),
                 .copy(.copyArea, source: 0x50D, destination: 0xA0_0001, area: Rect(x: -5, y: 6, width: 640, height: 400), x: 7, y: 8)),
                (sharing(63, 0, [0x50D, 0xA0_0001, 0xA0_0002], [1, 2, 3, 4, 5, 6, 1, 0], bigEndian: bigEndian),
                 .copy(.copyPlane, source: 0x50D, destination: 0xA0_0001, area: Rect(x: 1, y: 2, width: 5, height: 6), x: 3, y: 4)),
                (sharing(54, 0, [0xA0_0003], bigEndian: bigEndian), .freePixmap(0xA0_0003)),
                (sharing(22, 0, [0xC0_0001, 0x1AB, 0], bigEndian: bigEndian), .setSelectionOwner(owner: 0xC0_0001, selection: 0x1AB)),
                (sharing(130, 5, [0xA0_0004, 0x50D, 0x0190_0280, 24, 0x60_0001, 0], bigEndian: bigEndian), .sharedPixmap(0xA0_0004)),
                (sharing(142, 1, [0x80_0001, 1], bigEndian: bigEndian), .redirect(window: 0x80_0001, subwindows: false, on: true)),
                (sharing(142, 4, [0x50D, 1], bigEndian: bigEndian), .redirect(window: 0x50D, subwindows: true, on: false)),
                (sharing(143, 1, [0xA0_0005, 0x50D, 3], bigEndian: bigEndian), .damageCreate(damage: 0xA0_0005, drawable: 0x50D)),
                (sharing(143, 2, [0xA0_0005], bigEndian: bigEndian), .damageDestroy(0xA0_0005)),
                (sharing(139, 4, [0xA0_0006, 0x50D, 0x20, 1, 1], bigEndian: bigEndian), .createPicture(picture: 0xA0_0006, drawable: 0x50D)),
                (sharing(139, 7, [0xA0_0006], bigEndian: bigEndian), .freePicture(0xA0_0006)),
                (sharing(139, 8, [3, 0xA0_0006, 0, 0xA0_0007], [10, -20, 0, 0, 30, 40, 300, 200], bigEndian: bigEndian),
                 .composite(source: 0xA0_0006, destination: 0xA0_0007, area: Rect(x: 10, y: -20, width: 300, height: 200), x: 30, y: 40)),
            ]
            for (bytes, expected) in cases {
                XCTAssertEqual(decode(bytes, swapped: bigEndian), expected)
                for count in 0..<bytes.count { XCTAssertNil(decode(Array(bytes.prefix(count)), swapped: bigEndian), "\(expected) cut at \(count)") }
            }
        }
        XCTAssertNil(decode(sharing(143, 1, [1, 2], bigEndian: false)), "DamageCreate has a level byte")
        XCTAssertNil(decode(sharing(139, 4, [1, 2, 3], bigEndian: false)), "CreatePicture needs its value mask")
        XCTAssertNil(decode(sharing(142, 5, [1, 2], bigEndian: false)), "CreateRegionFromBorderClip reads nothing")
    }

    /// Extension requests count only under the opcodes this server gave them.
    func testExtensionRequestsNeedTheirOpcodeAndMinor() {
        let shm = shmGetImage(drawable: 1, x: 0, y: 0, width: 1, height: 1)
        XCTAssertNil(decode(shm, opcodes: RecordedOpcodes(sharedMemory: nil, composite: 142)))
        XCTAssertNil(decode(shm, opcodes: RecordedOpcodes(sharedMemory: 131, composite: 142)))
        var otherMinor = shm
        otherMinor[1] = 3  // ShmPutImage's neighbour, not a read
        XCTAssertNil(decode(otherMinor))
        let name = nameWindowPixmap(window: 1, pixmap: 2)
        XCTAssertNil(decode(name, opcodes: RecordedOpcodes(sharedMemory: 130, composite: nil)))
        var otherCore = getImage(drawable: 1, x: 0, y: 0, width: 1, height: 1)
        otherCore[0] = 72  // PutImage
        XCTAssertNil(decode(otherCore))
    }

    /// Every prefix of a request is refused, as is a length other than the kind's (the server
    /// refuses those with BadLength) and the BIG-REQUESTS form, whose real size libXtst loses.
    func testShortWrongLengthAndBigRequestsAreRefused() {
        for request in [getImage(drawable: 1, x: 0, y: 0, width: 9, height: 9), shmGetImage(drawable: 1, x: 0, y: 0, width: 9, height: 9),
                        nameWindowPixmap(window: 1, pixmap: 2)] {
            XCTAssertNotNil(decode(request))
            for count in 0..<request.count {
                XCTAssertNil(decode(Array(request.prefix(count))), "\(count) of \(request.count) bytes")
            }
            // More bytes after the request (libXtst's buffer goes on) change nothing.
            XCTAssertEqual(decode(request + [0xAA, 0xBB, 0xCC, 0xDD]), decode(request))
            for units: UInt16 in [0, 1, 2, 4, 6, 7, 9, 0xFFFF] where Int(units) * 4 != request.count {
                var lying = request + [UInt8](repeating: 0, count: 64)
                lying[2] = UInt8(units & 0xFF)
                lying[3] = UInt8(units >> 8)
                XCTAssertNil(decode(lying), "length \(units) for a request of \(request.count) bytes")
            }
        }
        var big = Request(bigEndian: false)
        big.byte(73)
        big.byte(2)
        big.card16(0)
        big.card32(6)
        big.bytes += getImage(drawable: 1, x: 0, y: 0, width: 9, height: 9).dropFirst(4)
        XCTAssertNil(decode(big.bytes))
    }

    /// Random bytes of random lengths, with the real opcodes and a fitting length at the front
    /// half the time: nothing traps. In a debug build every load from the buffer checks its
    /// bounds, so a read past the end would stop the test here.
    func testRandomBytesNeverTrap() {
        var generator = SplitMix64(seed: 23)
        var decoded = 0
        for _ in 0..<20_000 {
            var bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if bytes.count >= 4, Bool.random(using: &generator) {
                bytes[0] = [22, 54, 62, 63, 73, 130, 139, 142, 143].randomElement(using: &generator)!
                bytes[1] = [1, 2, 4, 5, 6, 7, 8].randomElement(using: &generator)!
                bytes[2] = UInt8(bytes.count / 4)
                bytes[3] = 0
            }
            if decode(bytes) != nil { decoded += 1 }
            _ = decode(bytes, swapped: true)
        }
        XCTAssertGreaterThan(decoded, 0, "the generator made some valid requests")
    }
}
