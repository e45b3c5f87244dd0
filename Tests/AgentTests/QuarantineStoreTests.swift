// The quarantine store: private, listable, and it gives back the exact bytes and path.
import Foundation
@testable import ShotguardAgent
import ShotguardTestSupport
import XCTest

final class QuarantineStoreTests: XCTestCase {
    func testAnEntryKeepsTheOriginalBytesAndItsPathEvenWhenTheNameIsNotUTF8() throws {
        let folder = try TemporaryFolder(self, label: "quarantine").path
        let store = QuarantineStore(folder: folder + "/quarantine")
        let path: [UInt8] = Array("/home/u/Screenshot ".utf8) + [0xFF, 0xFE] + Array(".png".utf8)
        let entry = try store.store([1, 2, 3, 4], id: "20261201-101010-001-1", originalPath: path, pathExtension: "png",
                                    reason: "was not found on the screen", time: 1_764_583_810)
        XCTAssertEqual(entry.originalPath, "/home/u/Screenshot \\xff\\xfe.png")
        let listed = try XCTUnwrap(store.list().first)
        XCTAssertEqual(listed.id, entry.id)
        XCTAssertEqual(listed.originalPathBytes, path)
        XCTAssertEqual(listed.reason, "was not found on the screen")
        XCTAssertEqual(try store.originalBytes(of: listed), [1, 2, 3, 4])
        var status = stat()
        XCTAssertEqual(lstat(listed.folder, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o700)
        XCTAssertEqual(lstat(listed.file, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
        XCTAssertThrowsError(try store.entry("../etc"))
        store.remove(listed)
        XCTAssertTrue(store.list().isEmpty)
    }
}
