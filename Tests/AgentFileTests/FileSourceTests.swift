// Watched folders: files reported by their real bytes, folders moved, deleted or replaced.
import Foundation
@testable import ShotguardAgent
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class FileSourceTests: XCTestCase {
    private let log = Log(verbose: false)

    /// A small complete PNG.
    private static let png: [UInt8] = {
        try! PNGEncoder.encode(PixelBuffer(width: 3, height: 2, fill: 0xFF12_3456), destination: "test.png")
    }()

    /// Reads the source's events as they come (poll on its descriptor) until `done` holds for
    /// everything read so far, or 5 s pass; returns what was read.
    private func paths(from source: FileSource, until done: ([BytePath]) -> Bool) -> [BytePath] {
        var paths: [BytePath] = []
        let deadline = Date().addingTimeInterval(5)
        while !done(paths), deadline.timeIntervalSinceNow > 0 {
            var descriptor = pollfd(fd: source.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32((deadline.timeIntervalSinceNow * 1000).rounded(.up)))
            paths += source.readEvents()
        }
        return paths
    }

    private func write(_ path: String, _ bytes: [UInt8] = FileSourceTests.png) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func testAFolderRenamedAwayAndMadeAgainIsWatchedAgain() throws {
        let root = try TemporaryFolder(self)
        let shots = try root.folder("Screenshots")
        let source = try FileSource(folders: [shots], log: log)
        XCTAssertEqual(rename(shots, root.at("old")), 0)
        XCTAssertEqual(mkdir(shots, 0o700), 0)
        try write(root.at("old/stale.png"))
        try write(shots + "/new.png")
        let seen = paths(from: source) { $0.contains(BytePath(shots + "/new.png")) }
        XCTAssertTrue(seen.contains(BytePath(shots + "/new.png")), "the new folder is watched: \(seen)")
        XCTAssertFalse(seen.contains(BytePath(shots + "/stale.png")), "a file of the moved folder named by the old path")
    }

    func testAFolderRenamedAwayIsNotWatchedByItsOldPath() throws {
        let root = try TemporaryFolder(self)
        let shots = try root.folder("Screenshots")
        let source = try FileSource(folders: [shots], log: log)
        XCTAssertEqual(rename(shots, root.at("old")), 0)
        XCTAssertTrue(paths(from: source) { _ in true }.isEmpty)
        try write(root.at("old/stale.png"))
        XCTAssertEqual(mkdir(shots, 0o700), 0)
        try write(shots + "/new.png")
        let seen = paths(from: source) { $0.contains(BytePath(shots + "/new.png")) }
        XCTAssertEqual(seen, [BytePath(shots + "/new.png")])
    }

    /// A folder removed while a process still holds it (its current folder, or here an open
    /// descriptor) gets no IN_DELETE_SELF until that process lets go.
    private func assertReplacedFolderIsWatched(targets: [String], shots: String, file: StaticString = #filePath,
                                               line: UInt = #line) throws {
        let source = try FileSource(folders: targets, log: log)
        let held = open(shots, O_RDONLY | O_DIRECTORY)
        XCTAssertGreaterThanOrEqual(held, 0, file: file, line: line)
        defer { close(held) }
        XCTAssertEqual(rmdir(shots), 0, file: file, line: line)
        XCTAssertEqual(mkdir(shots, 0o700), 0, file: file, line: line)
        try write(shots + "/after.png")
        let seen = paths(from: source) { $0.contains(BytePath(shots + "/after.png")) }
        XCTAssertTrue(seen.contains(BytePath(shots + "/after.png")), "the replacement is watched: \(seen)", file: file, line: line)
    }

    func testAScreenshotsFolderDeletedWhileInUseAndMadeAgainIsWatched() throws {
        let root = try TemporaryFolder(self)
        let pictures = try root.folder("Pictures")
        try assertReplacedFolderIsWatched(targets: [pictures, pictures + "/Screenshots"], shots: try root.folder("Pictures/Screenshots"))
    }

    func testAFolderWhoseParentIsNotWatchedDeletedWhileInUseAndMadeAgainIsWatched() throws {
        let root = try TemporaryFolder(self)
        let shots = try root.folder("elsewhere/shots")
        try assertReplacedFolderIsWatched(targets: [shots], shots: shots)
    }

    func testAFileNamedInInvalidUTF8IsReportedAndOpenedByItsBytes() throws {
        let root = try TemporaryFolder(self)
        let shots = try root.folder("shots")
        let source = try FileSource(folders: [shots], log: log)
        let path = Array((shots + "/Screenshot-").utf8) + [0xFF, 0xFE] + Array(".png".utf8)
        let name = BytePath(bytes: path)
        let fd = name.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(Self.png.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }, Self.png.count)
        close(fd)
        let seen = paths(from: source) { !$0.isEmpty }
        XCTAssertEqual(seen, [name])
        XCTAssertEqual(name.description, shots + "/Screenshot-\\xff\\xfe.png")
        switch ScreenshotFileClassifier.classify(name, now: Date().timeIntervalSince1970) {
        case .failure(let reason): XCTFail("not opened by its bytes: \(reason)")
        case .success(let file):
            XCTAssertEqual(file.png, Self.png)
            XCTAssertEqual(file.strength, .strong)
        }
        XCTAssertEqual(source.recentFiles(in: BytePath(shots)), [name], "a rescan keeps the bytes too")
    }
}
