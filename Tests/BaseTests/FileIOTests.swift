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

    /// A command's own output (`.whenReplacing`: no fsync for a new file) is written, replaced
    /// and, when its writer fails, neither left half-written nor put in place of the old file.
    func testAnOutputWrittenOnlyDurablyWhenReplacingIsWholeOrAbsent() throws {
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
