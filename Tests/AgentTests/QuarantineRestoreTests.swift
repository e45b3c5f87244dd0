// Restoring a quarantined original: the exact path bytes, its mode, never over a newer file, and
// a record that keeps the agent off the restored file.
import Foundation
import Glibc
@testable import ShotguardAgent
import ShotguardBase
import ShotguardTestSupport
import XCTest

final class QuarantineRestoreTests: XCTestCase {
    private var temporary: TemporaryFolder!
    private var store: QuarantineStore!

    override func setUpWithError() throws {
        temporary = try TemporaryFolder(self, label: "restore")
        store = QuarantineStore(folder: temporary.at("state/quarantine"))
    }

    /// A path in the temporary folder whose name is not UTF-8 (as a camera or an old system
    /// may write it): `Screenshot \xff\xfe.png`.
    private var nonUTF8Path: BytePath { BytePath(bytes: Array((temporary.path + "/Screenshot ").utf8) + [0xFF, 0xFE] + Array(".png".utf8)) }

    private func write(_ bytes: [UInt8], to path: BytePath, mode: mode_t = 0o600) throws {
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw FixtureError("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try FileDescriptor(fd, name: path.description).writeAll(bytes)
        fchmod(fd, mode)
    }

    private func read(_ path: BytePath) throws -> [UInt8] {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw FixtureError("open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        return try FileDescriptor(fd, name: path.description).readAll(limit: 1 << 20)
    }

    /// Sets the modification time of `path` to `seconds` since the epoch.
    private func touch(_ path: BytePath, modified seconds: Double) {
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: 0), timespec(tv_sec: Int(seconds), tv_nsec: 0)]
        _ = path.withCString { utimensat(AT_FDCWD, $0, &times, AT_SYMLINK_NOFOLLOW) }
    }

    private func names(in folder: String) throws -> [[UInt8]] {
        guard let directory = opendir(folder) else { throw FixtureError("opendir \(folder)") }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let item = readdir(directory) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E], name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    /// Regression: restore decoded the path as UTF-8 and wrote `Screenshot \u{FFFD}\u{FFFD}.png`,
    /// a different file, leaving the fallback at the real path.
    func testTheOriginalGoesBackToTheExactBytesOfItsPathWithItsMode() throws {
        let path = nonUTF8Path
        let entry = try store.store([1, 2, 3, 4], id: "e1", originalPath: path.bytes, pathExtension: "png",
                                    reason: "was not found on the screen", time: now(), mode: 0o100640)
        try write([9, 9], to: path)  // the fallback guard left
        touch(path, modified: entry.time - 5)  // guard keeps the original's mtime
        let restored = try store.restore(entry)
        XCTAssertEqual(restored, path)
        XCTAssertEqual(try read(path), [1, 2, 3, 4])
        var status = stat()
        XCTAssertEqual(path.withCString { lstat($0, &status) }, 0)
        XCTAssertEqual(status.st_mode & 0o7777, 0o640, "the original's mode, not 0600")
        let files = try names(in: temporary.path).filter { $0 != Array("state".utf8) }
        XCTAssertEqual(files, [path.lastComponent.bytes], "one file, by its own name: no U+FFFD copy, no temporary left")
    }

    /// Regression: a restore over a file written after the quarantine replaced it silently.
    func testAFileNewerThanTheEntryIsKeptUnlessForced() throws {
        let path = BytePath(temporary.at("shot.png"))
        let entry = try store.store([1, 2, 3], id: "e2", originalPath: path.bytes, pathExtension: "png", reason: "r",
                                    time: now() - 60)
        try write(Array("the user's new work".utf8), to: path, mode: 0o644)
        XCTAssertThrowsError(try store.restore(entry)) { error in
            XCTAssertEqual((error as? QuarantineError)?.kind, .wouldOverwrite)
            XCTAssertTrue("\(error)".contains("--force"), "\(error)")
        }
        XCTAssertEqual(try read(path), Array("the user's new work".utf8), "kept")
        _ = try store.restore(entry, force: true)
        XCTAssertEqual(try read(path), [1, 2, 3])
    }

    /// With what guard left recorded, only that file is replaced without --force, whatever its time.
    func testOnlyTheFileGuardLeftIsReplacedWithoutForce() throws {
        let path = BytePath(temporary.at("shot.png"))
        let entry = try store.store([1, 2, 3], id: "e3", originalPath: path.bytes, pathExtension: "png", reason: "r",
                                    time: now() - 60)
        try write([7, 7, 7, 7], to: path)  // modified now, after the entry: still guard's own
        try store.recordReplacement(of: entry, by: try XCTUnwrap(FileStamp.of(path: path)))
        let recorded = try store.entry("e3")
        XCTAssertNotNil(recorded.leftBehind)
        _ = try store.restore(recorded)
        XCTAssertEqual(try read(path), [1, 2, 3])

        try write([8, 8], to: BytePath(temporary.at("other")))
        XCTAssertEqual(rename(temporary.at("other"), path.description), 0)  // another file took the path
        XCTAssertThrowsError(try store.restore(recorded)) { error in
            XCTAssertEqual((error as? QuarantineError)?.kind, .wouldOverwrite)
        }
        XCTAssertEqual(try read(path), [8, 8])
    }

    func testAPathThatIsNotARegularFileIsRefusedEvenWithForce() throws {
        let fifo = temporary.at("fifo.png")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let entry = try store.store([1], id: "e4", originalPath: Array(fifo.utf8), pathExtension: "png", reason: "r", time: now())
        for force in [false, true] {
            XCTAssertThrowsError(try store.restore(entry, force: force)) { error in
                XCTAssertEqual((error as? QuarantineError)?.kind, .notARegularFile)
                XCTAssertTrue("\(error)".contains("a FIFO"), "\(error)")
            }
        }
    }

    /// Regression: a restore while the agent ran was quarantined again at once. The restored
    /// file is in the list the agent checks; once changed, it is an ordinary file again.
    func testARestoredFileIsRecordedUntilItChanges() throws {
        let path = BytePath(temporary.at("shot.png"))
        let entry = try store.store([1, 2, 3], id: "e5", originalPath: path.bytes, pathExtension: "png", reason: "r", time: now())
        _ = try store.restore(entry)
        let stamp = try XCTUnwrap(FileStamp.of(path: path))
        XCTAssertTrue(try store.isRestored(stamp))
        let watch = RestoredFilesWatch(store: store)
        XCTAssertTrue(watch.contains(stamp))
        try write([1, 2, 3, 4], to: path)
        XCTAssertFalse(try store.isRestored(try XCTUnwrap(FileStamp.of(path: path))), "written since: guarded as any file")
        XCTAssertFalse(watch.contains(try XCTUnwrap(FileStamp.of(path: path))))
    }

    func testTheRestoredListIsBoundedAndPruned() throws {
        _ = try UserFolders.preparePrivateFolder(store.folder)
        let list = RestoredFiles(store: store)
        let start = now()
        let stamps = (0..<(RestoredFiles.limit + 5)).map {
            FileStamp(device: 1, inode: UInt64($0), size: 10, modifiedSeconds: 100, modifiedNanoseconds: 5)
        }
        try list.add(stamps[0], now: start - RestoredFiles.maximumAge - 1)
        try list.add(stamps[1], now: start - 10)
        try list.add(Array(stamps.dropFirst(2)), now: start)
        let kept = try list.load()
        XCTAssertEqual(kept.count, RestoredFiles.limit)
        XCTAssertFalse(kept.contains(stamps[0]), "too old")
        XCTAssertFalse(kept.contains(stamps[1]), "the oldest of the rest went past the limit")
        XCTAssertTrue(kept.contains(stamps.last!))
    }

    /// Regression: an unreadable list of restored files was read as an empty one, and the next
    /// restore rewrote it, forgetting every earlier restore (those files were guarded again).
    func testAnUnreadableRestoredListIsNeverRewrittenAsEmpty() throws {
        let first = BytePath(temporary.at("first.png"))
        let entry = try store.store([1, 2, 3], id: "e6", originalPath: first.bytes, pathExtension: "png", reason: "r", time: now())
        _ = try store.restore(entry)
        let firstStamp = try XCTUnwrap(FileStamp.of(path: first))
        let list = RestoredFiles(store: store)
        let saved = try Data(contentsOf: URL(fileURLWithPath: list.path))
        // Unreadable: a folder where the list should be a file (root reads any file, so no chmod).
        try FileManager.default.moveItem(atPath: list.path, toPath: list.path + ".saved")
        try FileManager.default.createDirectory(atPath: list.path, withIntermediateDirectories: false)

        XCTAssertThrowsError(try list.load(), "an unreadable list is an error, not an empty list")
        let second = BytePath(temporary.at("second.png"))
        let other = try store.store([4, 5], id: "e7", originalPath: second.bytes, pathExtension: "png", reason: "r", time: now())
        XCTAssertThrowsError(try store.restore(other), "a restore that cannot record itself is refused")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporary.at("second.png")), "and writes nothing")

        let watch = RestoredFilesWatch(store: store)
        XCTAssertFalse(watch.contains(firstStamp))
        XCTAssertNotNil(watch.takeProblem(), "the agent is told the list cannot be read")
        XCTAssertNil(watch.takeProblem(), "once")

        try FileManager.default.removeItem(atPath: list.path)
        try saved.write(to: URL(fileURLWithPath: list.path))
        XCTAssertTrue(try store.isRestored(firstStamp), "the earlier restore is still known once the list reads again")
    }

    /// Regression: an entry whose entry.json cannot be read was skipped by `try?`, hiding its original.
    func testAnEntryWhoseEntryJSONCannotBeReadIsListedWithTheReason() throws {
        _ = try store.store([1], id: "good", originalPath: Array("/x.png".utf8), pathExtension: "png", reason: "r", time: now())
        let bad = try store.store([2], id: "bad", originalPath: Array("/y.png".utf8), pathExtension: "png", reason: "r", time: now())
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: bad.folder + "/entry.json"))
        let (entries, unreadable) = store.scan()
        XCTAssertEqual(entries.map(\.id), ["good"])
        XCTAssertEqual(unreadable.map(\.id), ["bad"])
        XCTAssertEqual(unreadable.first?.reason, "its entry.json is not a JSON object")
        XCTAssertThrowsError(try store.entry("bad")) { error in
            XCTAssertTrue("\(error)".contains("not a JSON object"), "\(error)")
        }
    }

    /// Times are ISO 8601 in entry.json and in `quarantine list --json`; entries written with
    /// epoch seconds before still load.
    func testTimesAreISO8601AndOldEpochTimesStillLoad() throws {
        let entry = try store.store([1], id: "iso", originalPath: Array("/x.png".utf8), pathExtension: "png", reason: "r",
                                    time: 1_764_425_223.125)
        XCTAssertTrue(QuarantineStore.json(entry).text.contains("\"time\":\"2025-11-29T14:07:03.125Z\""),
                      QuarantineStore.json(entry).text)
        XCTAssertEqual(try store.entry("iso").time, 1_764_425_223.125)
        try Data(#"{"id":"iso","time":1764425223,"path":"/x.png","reason":"r","size":1,"file":"original.png"}"#.utf8)
            .write(to: URL(fileURLWithPath: entry.folder + "/entry.json"))
        XCTAssertEqual(try store.entry("iso").time, 1_764_425_223)
    }
}
