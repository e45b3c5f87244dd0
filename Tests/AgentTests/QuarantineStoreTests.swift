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

    /// Regression: two files set aside in one event got the same ID; the second entry could not
    /// be completed ("Directory not empty") and its file vanished from every list.
    func testFilesSetAsideUnderOneIDGetIDsOfTheirOwnAndAreAllListedAndRestorable() throws {
        let folder = try TemporaryFolder(self, label: "quarantine").path
        let store = QuarantineStore(folder: folder + "/quarantine")
        var paths: [BytePath] = []
        for (index, name) in ["a.png", "b.png", "c.png"].enumerated() {
            let path = BytePath(folder + "/" + name)
            try Data([UInt8(index), 1, 2]).write(to: URL(fileURLWithPath: path.description))
            let identity = try XCTUnwrap(FileIdentity.of(path: path))
            _ = try store.move(path, expected: identity, id: "20261206-013328-377", reason: "r", time: 1_764_985_000)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path.description), "\(name) was moved")
            paths.append(path)
        }
        let entries = store.list()
        XCTAssertEqual(entries.map(\.id), ["20261206-013328-377", "20261206-013328-377-2", "20261206-013328-377-3"])
        for (index, entry) in entries.enumerated() {
            XCTAssertEqual(entry.originalPathBytes, paths[index].bytes)
            XCTAssertEqual(try store.originalBytes(of: entry), [UInt8(index), 1, 2])
            XCTAssertEqual(try store.restore(entry), paths[index])
        }
        XCTAssertEqual(store.scan().unreadable.count, 0)
        // A store under an ID already taken gets the next one too.
        let stored = try store.store([9], id: "20261206-013328-377", originalPath: Array("/x.png".utf8), pathExtension: "png",
                                     reason: "r", time: 1_764_985_001)
        XCTAssertEqual(stored.id, "20261206-013328-377-4")
    }

    /// A move that cannot complete leaves the file where it was: here the quarantine folder is
    /// on no file system the entry can be made in (a file stands where it should be).
    func testAMoveThatCannotCompleteLeavesTheFileWhereItWas() throws {
        let folder = try TemporaryFolder(self, label: "quarantine").path
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder + "/quarantine"))
        let store = QuarantineStore(folder: folder + "/quarantine")
        let path = BytePath(folder + "/shot.png")
        try Data([7, 7, 7]).write(to: URL(fileURLWithPath: path.description))
        let identity = try XCTUnwrap(FileIdentity.of(path: path))
        XCTAssertThrowsError(try store.move(path, expected: identity, id: "x", reason: "r", time: 1))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path.description)), Data([7, 7, 7]))
    }

    /// An entry folder left incomplete by a crash (the old order moved the file in first) is
    /// listed with where its original is, never hidden.
    func testAnIncompleteEntryHoldingAnOriginalIsListed() throws {
        let folder = try TemporaryFolder(self, label: "quarantine").path
        let store = QuarantineStore(folder: folder + "/quarantine")
        _ = try store.store([1], id: "done", originalPath: Array("/x.png".utf8), pathExtension: "png", reason: "r", time: 1)
        let partial = store.folder + "/.crashed.partial"
        try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: false)
        try Data([1, 2]).write(to: URL(fileURLWithPath: partial + "/original.png"))
        let (entries, unreadable) = store.scan()
        XCTAssertEqual(entries.map(\.id), ["done"])
        XCTAssertEqual(unreadable.map(\.folder), [partial])
        XCTAssertTrue(unreadable.first?.reason.contains(partial + "/original.png") ?? false, unreadable.first?.reason ?? "")
    }
}
