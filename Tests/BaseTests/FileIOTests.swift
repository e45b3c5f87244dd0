// Atomic writes leave the final file whole or absent, never partial; bounded reads.
import Foundation
import ShotguardBase
import XCTest

final class FileIOTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sg-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func testAtomicWriteReplacesAndLeavesNoTemporaryFile() throws {
        let path = folder.appendingPathComponent("out.png").path
        try FileIO.writeAtomically([1, 2, 3], to: path)
        try FileIO.writeAtomically([4, 5], to: path)
        XCTAssertEqual(try FileIO.read(path, limit: 100), [4, 5])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["out.png"])
    }

    /// A command's own output (`.whenReplacing`: no fsync for a new name) is written, replaced
    /// and, when its writer fails, neither left half-written nor put in place of the old file.
    func testAnOutputSyncedOnlyWhenReplacingIsWrittenReplacedAndNeverHalfWritten() throws {
        let path = folder.appendingPathComponent("capture.png").path
        try FileIO.writeAtomically([1, 2, 3], to: path, durability: .whenReplacing)
        XCTAssertEqual(try FileIO.read(path, limit: 100), [1, 2, 3])
        try FileIO.writeAtomically([4, 5], to: path, durability: .whenReplacing)
        XCTAssertEqual(try FileIO.read(path, limit: 100), [4, 5])
        struct Interrupted: Error {}
        for target in [path, folder.appendingPathComponent("new.png").path] {
            XCTAssertThrowsError(try FileIO.writeAtomically(to: target, durability: .whenReplacing, failure: { $0 as Error }) { fd in
                _ = write(fd, [9, 9, 9], 3)
                throw Interrupted()
            })
        }
        XCTAssertEqual(try FileIO.read(path, limit: 100), [4, 5])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["capture.png"])
    }

    /// Only a name that holds nothing is taken unsynced: not a file, not a link (even one whose
    /// target is gone); those are left as they were, for the caller to sync and replace.
    func testANameIsTakenUnsyncedOnlyWhenNothingHoldsIt() throws {
        let made = folder.appendingPathComponent(".made").path
        func temporary() throws { try Data([7]).write(to: URL(fileURLWithPath: made)) }
        let free = folder.appendingPathComponent("free.png").path
        try temporary()
        XCTAssertTrue(FileIO.placedUnsynced(made, at: free))
        XCTAssertEqual(try FileIO.read(free, limit: 10), [7])
        XCTAssertFalse(FileManager.default.fileExists(atPath: made))

        let held = folder.appendingPathComponent("held.png").path
        try Data([1, 2]).write(to: URL(fileURLWithPath: held))
        try temporary()
        XCTAssertFalse(FileIO.placedUnsynced(made, at: held))
        XCTAssertEqual(try FileIO.read(held, limit: 10), [1, 2])
        XCTAssertEqual(try FileIO.read(made, limit: 10), [7])

        let link = folder.appendingPathComponent("link.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.appendingPathComponent("gone").path)
        XCTAssertFalse(FileIO.placedUnsynced(made, at: link))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), folder.appendingPathComponent("gone").path)
    }

    func testWriteIntoAMissingFolderFailsAndNamesTheFile() {
        let path = folder.appendingPathComponent("missing/out.png").path
        XCTAssertThrowsError(try FileIO.writeAtomically([1], to: path)) { error in
            XCTAssertEqual((error as? FileError)?.description,
                           "\(path): cannot create a file in its folder: No such file or directory")
        }
    }

    func testReadRefusesInputOverTheLimit() throws {
        let path = folder.appendingPathComponent("big").path
        try FileIO.writeAtomically([UInt8](repeating: 7, count: 5000), to: path)
        XCTAssertThrowsError(try FileIO.read(path, limit: 4999)) { error in
            XCTAssertEqual((error as? FileError)?.kind, .tooLarge)
        }
        XCTAssertEqual(try FileIO.read(path, limit: 5000).count, 5000)
    }

    /// The mode comes from `mode` and the umask, and writing leaves the umask as it was
    /// (it was set to 0 and back around each write, a race with other threads).
    func testModeIsMaskedByTheUmaskWhichStaysUntouched() throws {
        let previous = umask(0o027)
        defer { umask(previous) }
        let path = folder.appendingPathComponent("shot.png").path
        try FileIO.writeAtomically([1], to: path, mode: 0o666)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o640)
        XCTAssertEqual(umask(0o027), 0o027)
    }
}
