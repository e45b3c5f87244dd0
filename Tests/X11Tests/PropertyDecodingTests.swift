// The pure decoders of window properties, on the values hostile or broken clients set.
import ShotguardImaging
import ShotguardX11
import XCTest

final class PropertyDecodingTests: XCTestCase {
    func testLongsKeepOnlyTheThirtyTwoBitsTheServerSent() {
        XCTAssertEqual(PropertyDecoding.cardinals(fromLongs: [-1, 0, Int.min, 0x1_0000_0005]), [0xFFFF_FFFF, 0, 0, 5])
    }

    func testBytesAreLittleEndianWordsWithAPartialTailDropped() {
        XCTAssertEqual(PropertyDecoding.cardinals(fromBytes: [1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 7]), [1, 0xFFFF_FFFF])
        XCTAssertEqual(PropertyDecoding.cardinals(fromBytes: [1, 2]), [])
    }

    func testFrameExtentsOutOfRangeOrMiscountedAreAbsent() {
        XCTAssertNil(PropertyDecoding.frameExtents([0xFFFF_FFFF, 0, 0, 0]))
        XCTAssertNil(PropertyDecoding.frameExtents([0, 0, 0, 5000]))
        XCTAssertNil(PropertyDecoding.frameExtents([1, 2, 3]))
        XCTAssertNil(PropertyDecoding.frameExtents([1, 2, 3, 4, 5]))
        XCTAssertEqual(PropertyDecoding.frameExtents([1, 2, 30, 4]), .init(left: 1, right: 2, top: 30, bottom: 4))
    }

    func testWindowListsDropNoneRepeatsAndIdsOutsideTwentyNineBits() {
        XCTAssertEqual(PropertyDecoding.windowList([0, 0x20_0001, 0xFFFF_FFFF, 0x20_0001, 0x40_0002]), [0x20_0001, 0x40_0002])
        XCTAssertEqual(PropertyDecoding.windowList(Array(1...10_000)).count, PropertyDecoding.maximumWindows)
        XCTAssertNil(PropertyDecoding.window([0xE000_0001]))
        XCTAssertNil(PropertyDecoding.window([]))
        XCTAssertEqual(PropertyDecoding.window([0x1A0_0007, 3]), 0x1A0_0007)
    }

    func testRectanglesOutsideSixteenBitCoordinatesAreAbsent() {
        XCTAssertNil(PropertyDecoding.rect(x: 40_000, y: 0, width: 1, height: 1))
        XCTAssertNil(PropertyDecoding.rect(x: 0, y: -40_000, width: 1, height: 1))
        XCTAssertNil(PropertyDecoding.rect(x: 0, y: 0, width: -1, height: 1))
        XCTAssertNil(PropertyDecoding.rect(x: 0, y: 0, width: 1, height: 70_000))
        XCTAssertEqual(PropertyDecoding.rect(x: -20, y: 32767, width: 32767, height: 0), Rect(x: -20, y: 32767, width: 32767, height: 0))
        let frame = Rect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertEqual(PropertyDecoding.outerFrame(frame, extents: .init(left: 1, right: 2, top: 3, bottom: 4)),
                       Rect(x: 9, y: 17, width: 33, height: 47))
        XCTAssertNil(PropertyDecoding.outerFrame(Rect(x: 0, y: 0, width: 32767, height: 1),
                                                 extents: .init(left: 0, right: 4096, top: 0, bottom: 0)))
    }

    func testTextStopsAtNulAndAtTheCapAndReplacesInvalidUTF8() {
        XCTAssertEqual(PropertyDecoding.utf8Text([0x61, 0xFF, 0x62, 0, 0x63]), "a\u{FFFD}b")
        XCTAssertEqual(PropertyDecoding.latin1Text([0x63, 0x61, 0x66, 0xE9]), "café")
        XCTAssertEqual(PropertyDecoding.utf8Text([UInt8](repeating: 0x41, count: 100_000)).utf8.count,
                       PropertyDecoding.maximumTextBytes)
        let cut = PropertyDecoding.utf8Text([UInt8](repeating: 0x41, count: PropertyDecoding.maximumTextBytes - 1) + Array("é".utf8))
        XCTAssertEqual(cut.utf8.count, PropertyDecoding.maximumTextBytes - 1, "a cut character is dropped, not replaced")
    }

    func testWMClassHalves() {
        XCTAssertTrue(PropertyDecoding.wmClass(Array("navigator\0Firefox\0".utf8)) == ("navigator", "Firefox"))
        XCTAssertTrue(PropertyDecoding.wmClass(Array("only".utf8)) == ("only", ""))
        XCTAssertTrue(PropertyDecoding.wmClass([]) == ("", ""))
    }
}

/// Xlib's buffer for a property reply, as `Display` reads it.
final class XlibPropertyBufferTests: XCTestCase {
    func testBufferSizeFollowsTheFormatAndRefusesMoreThanWasAskedFor() {
        XCTAssertEqual(PropertyDecoding.xlibBufferSize(format: 32, count: 4, requestedUnits: 4), 32)
        XCTAssertEqual(PropertyDecoding.xlibBufferSize(format: 16, count: 8, requestedUnits: 4), 16)
        XCTAssertEqual(PropertyDecoding.xlibBufferSize(format: 8, count: 16, requestedUnits: 4), 16)
        XCTAssertNil(PropertyDecoding.xlibBufferSize(format: 32, count: 5, requestedUnits: 4))
        XCTAssertNil(PropertyDecoding.xlibBufferSize(format: 8, count: 17, requestedUnits: 4))
        XCTAssertNil(PropertyDecoding.xlibBufferSize(format: 8, count: 1, requestedUnits: -1))
        XCTAssertNil(PropertyDecoding.xlibBufferSize(format: 24, count: 1, requestedUnits: 4))
        XCTAssertNil(PropertyDecoding.xlibBufferSize(format: 32, count: UInt.max, requestedUnits: Int.max))
    }

    func testSignExtendedFrameExtentsFromXlibAreAbsent() {
        // A window set _NET_FRAME_EXTENTS to [0xffffffff, 0, 0, 0]; Xlib hands back -1 as a long.
        let longs: [Int] = [-1, 0, 0, 0]
        let value = longs.withUnsafeBytes { PropertyDecoding.xlibValue(format: 32, buffer: $0) }
        XCTAssertEqual(value?.items, [0xFFFF_FFFF, 0, 0, 0])
        XCTAssertEqual(value?.bytes, [0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 12))
        XCTAssertNil(value.flatMap { PropertyDecoding.frameExtents($0.items) })
    }

    func testTextFormatsKeepTheirBytesAndOtherFormatsAreRefused() {
        let bytes: [UInt8] = [0x61, 0, 0xFF]
        XCTAssertEqual(bytes.withUnsafeBytes { PropertyDecoding.xlibValue(format: 8, buffer: $0) }?.bytes, bytes)
        XCTAssertEqual(bytes.withUnsafeBytes { PropertyDecoding.xlibValue(format: 8, buffer: $0) }?.items, [])
        XCTAssertNil(bytes.withUnsafeBytes { PropertyDecoding.xlibValue(format: 0, buffer: $0) })
    }
}
