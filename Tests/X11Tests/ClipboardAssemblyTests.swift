// The byte-level steps of a clipboard transfer, without X: TARGETS lists and INCR chunks.
import ShotguardX11
import XCTest

final class ClipboardAssemblyTests: XCTestCase {
    func testTargetsAreLittleEndianFormat32Items() {
        let bytes: [UInt8] = [0x01, 0x02, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF]
        XCTAssertEqual(ClipboardAssembly.targets(in: bytes, format: 32), [0x0201, 0xFFFF_FFFF])
    }

    func testTargetsIgnoreATrailingPartialItem() {
        XCTAssertEqual(ClipboardAssembly.targets(in: [7, 0, 0, 0, 9, 9, 9], format: 32), [7])
        XCTAssertEqual(ClipboardAssembly.targets(in: [7, 0, 0], format: 32), [])
        XCTAssertEqual(ClipboardAssembly.targets(in: [], format: 32), [])
    }

    func testTargetsInAnotherFormatAreNotAtoms() {
        XCTAssertNil(ClipboardAssembly.targets(in: [7, 0, 0, 0], format: 8))
        XCTAssertNil(ClipboardAssembly.targets(in: [7, 0, 0, 0], format: 16))
    }

    func testChunksAreJoinedInOrderUntilTheEmptyOne() {
        var transfer = IncrementalData(limit: 10)
        XCTAssertEqual(transfer.add([1, 2, 3]), .needsMore)
        XCTAssertEqual(transfer.add([4]), .needsMore)
        XCTAssertEqual(transfer.add([]), .complete)
        XCTAssertEqual(transfer.data, [1, 2, 3, 4])
    }

    func testDataExactlyAtTheLimitIsKept() {
        var transfer = IncrementalData(limit: 4)
        XCTAssertEqual(transfer.add([1, 2]), .needsMore)
        XCTAssertEqual(transfer.add([3, 4]), .needsMore)
        XCTAssertEqual(transfer.add([]), .complete)
        XCTAssertEqual(transfer.data, [1, 2, 3, 4])
    }

    func testAChunkPastTheLimitIsRefusedBeforeItIsKept() {
        var transfer = IncrementalData(limit: 4)
        XCTAssertEqual(transfer.add([1, 2, 3]), .needsMore)
        XCTAssertEqual(transfer.add([4, 5]), .tooLarge)
        // The refused chunk was never copied: memory stays within the limit.
        XCTAssertEqual(transfer.data, [1, 2, 3])
    }
}
