// The crash points of guard's rewrite: before, during and after the swap, a file is never lost.
import Foundation
@testable import ShotguardAgent
import ShotguardTestSupport
import XCTest

final class FileRewriteTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = try TemporaryFolder(self, label: "rewrite").path
    }

    private func write(_ name: String, _ bytes: [UInt8], mode: Int = 0o640) throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        chmod(path, mode_t(mode))
        return path
    }

    private func read(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func entries() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    func testACrashBeforeTheSwapLeavesTheOriginalAndALeftoverThatStartUpRemoves() throws {
        let path = try write("shot.png", [1, 2, 3])
        var rewrite = FileRewrite(path: BytePath(path), original: try XCTUnwrap(FileIdentity.of(path: BytePath(path))))
        try rewrite.prepare([9, 9, 9, 9])
        // The process dies here: nothing else runs.
        XCTAssertEqual(try read(path), [1, 2, 3], "the original is untouched")
        let temporary = try XCTUnwrap(rewrite.temporary).lossyText
        XCTAssertEqual(try read(temporary), [9, 9, 9, 9], "the new file is complete before any swap")
        XCTAssertEqual(FileRewrite.removeLeftovers(in: folder), [temporary])
        XCTAssertEqual(try entries(), ["shot.png"])
    }

    func testAfterTheSwapThePathHoldsTheCompleteNewFileWithTheOriginalsModeAndTimes() throws {
        let path = try write("shot.png", [1, 2, 3], mode: 0o604)
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 123_456_789), timespec(tv_sec: 1_700_000_100, tv_nsec: 987_654_321)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        let original = try XCTUnwrap(FileIdentity.of(path: BytePath(path)))
        var rewrite = FileRewrite(path: BytePath(path), original: original)
        try rewrite.prepare([7, 7])
        try rewrite.commit()
        XCTAssertEqual(try read(path), [7, 7])
        let after = try XCTUnwrap(FileIdentity.of(path: BytePath(path)))
        XCTAssertNotEqual(after.inode, original.inode, "a new file took the name")
        XCTAssertEqual(after.mode & 0o7777, 0o604)
        XCTAssertEqual(after.modified.tv_sec, 1_700_000_100)
        XCTAssertEqual(after.modified.tv_nsec, 987_654_321)
        XCTAssertEqual(try entries(), ["shot.png"], "no temporary file is left")
        XCTAssertNil(rewrite.temporary)
    }

    func testAFileWrittenAgainAfterItWasReadIsNotReplaced() throws {
        let path = try write("shot.png", [1, 2, 3])
        var rewrite = FileRewrite(path: BytePath(path), original: try XCTUnwrap(FileIdentity.of(path: BytePath(path))))
        try rewrite.prepare([9])
        // The tool saves again (a new file renamed over the old one) before the swap.
        let newer = try write("incoming.png", [4, 5, 6, 7])
        XCTAssertEqual(rename(newer, path), 0)
        XCTAssertThrowsError(try rewrite.commit()) { error in
            XCTAssertEqual((error as? RewriteError)?.kind, .changed)
        }
        XCTAssertEqual(try read(path), [4, 5, 6, 7], "what was not read is never touched")
        XCTAssertEqual(try entries(), ["shot.png"], "the temporary file is removed")
    }

    func testASymlinkPutInPlaceOfTheFileIsNotFollowedOrReplaced() throws {
        let path = try write("shot.png", [1, 2, 3])
        let elsewhere = try write("elsewhere.txt", [0])
        var rewrite = FileRewrite(path: BytePath(path), original: try XCTUnwrap(FileIdentity.of(path: BytePath(path))))
        try rewrite.prepare([9])
        XCTAssertEqual(unlink(path), 0)
        XCTAssertEqual(symlink(elsewhere, path), 0)
        XCTAssertThrowsError(try rewrite.commit())
        XCTAssertEqual(try read(elsewhere), [0])
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFLNK, "the link is left as it is")
    }

    func testOnlyGuardsOwnPatternCountsAsALeftover() {
        XCTAssertTrue(FileRewrite.isTemporaryName(".shotguard-rewrite-0123456789abcdef.tmp"))
        XCTAssertFalse(FileRewrite.isTemporaryName(".shotguard-rewrite-0123.tmp"))
        XCTAssertFalse(FileRewrite.isTemporaryName(".shotguard-rewrite-0123456789abcdeg.tmp"))
        XCTAssertFalse(FileRewrite.isTemporaryName("shotguard-rewrite-0123456789abcdef.tmp"))
    }
}
