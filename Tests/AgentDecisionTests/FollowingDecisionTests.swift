// Following the pixels without X: copies of originals, the paths a command line names, foreign formats, the screen an image is placed on.
import Foundation
@testable import ShotguardAgent
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class FollowingDecisionTests: XCTestCase {
    /// A copy is known by its original's bytes first, else its pixels; only within the
    /// lifetime, and the pixels are asked only when some original is known.
    func testACopyIsKnownByItsOriginalsBytesOrPixels() {
        var originals = RecentOriginals()
        var asked = 0
        XCTAssertNil(originals.original(bytes: "bytes:a", pixels: { asked += 1; return "pixels:a" }, at: 0))
        XCTAssertEqual(asked, 0, "no original known: the pixels are not fingerprinted")
        originals.note(keys: ["bytes:a", "pixels:a"], RecentOriginal(name: "/shots/a.png", screen: Fixture.snapshot(at: 0), at: 0))
        XCTAssertEqual(originals.original(bytes: "bytes:a", pixels: { nil }, at: 1)?.name, "/shots/a.png")
        XCTAssertEqual(originals.original(bytes: "bytes:b", pixels: { "pixels:a" }, at: 1)?.name, "/shots/a.png",
                       "the same pixels in another lossless format")
        XCTAssertNil(originals.original(bytes: "bytes:b", pixels: { "pixels:b" }, at: 1), "a photo is no copy")
        XCTAssertNil(originals.original(bytes: "bytes:a", pixels: { nil }, at: RecentOriginals.lifetime + 1), "too old")
    }

    /// Bounded: the newest `capacity` originals, and screens for the newest few only.
    func testOnlyTheNewestOriginalsKeepTheirScreens() {
        var originals = RecentOriginals()
        for index in 0..<(RecentOriginals.capacity + 2) {
            originals.note(keys: ["bytes:\(index)"], RecentOriginal(name: "\(index)", screen: Fixture.snapshot(at: Double(index)),
                                                                     at: Double(index)))
        }
        XCTAssertNil(originals.original(bytes: "bytes:0", pixels: { nil }, at: 20), "the oldest went")
        let newest = RecentOriginals.capacity + 1
        XCTAssertNotNil(originals.original(bytes: "bytes:\(newest)", pixels: { nil }, at: 20)?.screen)
        XCTAssertNil(originals.original(bytes: "bytes:\(newest - RecentOriginals.screensKept)", pixels: { nil }, at: 20)?.screen)
    }

    /// A copy of an original is strong evidence: an image that cannot be placed is set aside.
    func testACopyOfAnOriginalIsStrongEvidence() {
        var evidence = Evidence()
        evidence.copyOf = "/shots/a.png"
        XCTAssertTrue(GuardPolicy.hasStrongEvidence(evidence))
        XCTAssertTrue(evidence.phrases.contains("a copy of the screenshot /shots/a.png as it was before guard rewrote it"))
    }

    /// The paths a command line names: files in folders that exist, folders; ImageMagick's
    /// format prefix off; options and bare words name nothing; relative to the working folder.
    func testTheCommandLineNamesFilesAndFolders() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-named-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/out", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        let folder = (path: root, at: { (name: String) in root + "/" + name })
        let details = ProcessDetails(pid: 1, program: "import", executable: nil, workingFolder: Array(folder.path.utf8),
                                     arguments: ["import", "-window", "root", "png:x.bin", "./out", "-quality", "90", "/nowhere/a.png",
                                                 "sh -c 'convert \(folder.at("a.png")) out/b.miff'"],
                                     parentPID: 1, processGroup: 1)
        let named = PixelFollower.namedPaths(details, folder: BytePath(folder.path))
        XCTAssertEqual(named.files, Set([folder.at("x.bin"), folder.at("a.png"), folder.at("out/b.miff")].map { BytePath($0) }))
        XCTAssertEqual(named.folders, [BytePath(folder.at("out"))])
    }

    /// Formats guard cannot read are named by their first bytes, and count as images.
    func testForeignFormatsAreNamed() {
        XCTAssertEqual(ImageSignature.foreignFormat(Array("id=ImageMagick  version=1.0\n".utf8)), "MIFF")
        XCTAssertEqual(ImageSignature.foreignFormat(Array("%PDF-1.7\n".utf8)), "PDF")
        XCTAssertEqual(ImageSignature.foreignFormat([0, 0, 0, 0x18] + Array("ftypheic".utf8)), "HEIF")
        XCTAssertTrue(ImageSignature.isImage(Array("id=ImageMagick".utf8)))
        XCTAssertNil(ImageSignature.foreignFormat([0x89] + Array("PNG\r\n".utf8)), "PNG is read")
        XCTAssertNil(ImageSignature.foreignFormat(Array("2026-12-06 log line".utf8)))
        XCTAssertFalse(ImageSignature.isImage(Array("2026-12-06 log line".utf8)))
    }

    /// The first `ImageSignature.length` bytes of a file in each format guard reads and writes,
    /// as its encoder writes it, are an image's.
    func testTheSignatureLengthHoldsEveryWrittenFormatsSignature() throws {
        let image = Pixels.noise(width: 48, height: 32, seed: 7)
        for format in ImageFormat.allCases where format.isWritable {
            let name = "k." + format.names[0]
            let bytes = try ImageCodec.encode(image, as: .standard(format), destination: name)
            XCTAssertEqual(ImageFormat.sniff(bytes), format, name)
            XCTAssertTrue(ImageSignature.isImage(Array(bytes.prefix(ImageSignature.length))), name)
        }
    }

    /// An annotated late save: it differs from both screens, least from the one of its read.
    func testAnImageIsPlacedOnTheScreenItDiffersFromLeast() {
        let read = Pixels.noise(width: 512, height: 256, seed: 1)
        let now = Pixels.noise(width: 512, height: 256, seed: 2)
        var annotated = read
        for x in 400..<440 { annotated[x, 200] = 0xFFFF_0000 }
        let context = Fixture.snapshot(at: 0, width: 512, height: 256).context
        let chosen = Aligner.alignOnBest(annotated, screens: [(now, context), (read, context)], verify: false)
        XCTAssertEqual(chosen?.screen, 1, "the screen of the read, not today's")
        XCTAssertEqual(Aligner.alignOnBest(read, screens: [(now, context), (read, context)], verify: false)?.alignment.verified, true)
    }

    /// A program that reads again and again (a recorder before it counts as one, a tool reading
    /// each monitor) is one holder: its earlier reads are not lost while it lives, and when it
    /// goes without an image guarded only its last read is said lost; one image guarded answers
    /// for all of its reads.
    func testAHoldersEarlierReadsGoWithIt() {
        func holder(_ read: ScreenReadRecord) -> PixelHolder {
            PixelHolder(pid: 300, startTime: 7, session: 1, program: "reader", origin: .read, read: read, watchedUntil: 10)
        }
        var holders = PixelHolders()
        let first = Fixture.read(by: "reader", at: 0), second = Fixture.read(by: "reader", at: 0.5)
        XCTAssertTrue(holders.add(holder(first)))
        XCTAssertFalse(holders.add(holder(second)))
        XCTAssertEqual(holders.prune(at: 5), [], "alive: nothing lost")
        holders.exited(300, at: 5)
        XCTAssertEqual(holders.prune(at: 8).map(\.time.monotonic), [second.time.monotonic], "one read said lost, the last")

        var guarded = PixelHolders()
        guarded.add(holder(first))
        guarded.add(holder(second))
        guarded.guarded(first)
        guarded.exited(300, at: 5)
        XCTAssertEqual(guarded.prune(at: 8), [], "its image guarded: none lost")
    }

    /// A program only taken for a reader the server could not name holds weak evidence (its
    /// image counts only placed), and so does every program it hands the pixels to. When a
    /// read that names it comes, it holds that one's from then on, as its reader; a later
    /// unnamed read never takes a named one's place.
    func testAProgramTakenForAnUnnamedReaderTakesANamedReadsPlace() {
        let unnamed = Fixture.read(by: "client 0x1000000", pid: nil, at: 0), named = Fixture.read(by: "maim", pid: 300, at: 1)
        func holder(_ read: ScreenReadRecord, origin: PixelHolder.Origin) -> PixelHolder {
            PixelHolder(pid: 300, startTime: 7, session: 1, program: "maim", origin: origin, read: read, watchedUntil: 10)
        }
        var holders = PixelHolders()
        XCTAssertTrue(holders.add(holder(unnamed, origin: .child(of: 200))))
        XCTAssertEqual(holders.holder(300)?.link, .inferred, "its parent was only taken for the reader")
        XCTAssertTrue(holders.add(holder(named, origin: .read)), "followed anew, as its own read's")
        XCTAssertEqual(holders.holder(300)?.link, .writer)
        XCTAssertEqual(holders.holder(300)?.origin, .read)
        XCTAssertFalse(holders.add(holder(Fixture.read(by: "client 0x1200000", pid: nil, at: 2), origin: .read)))
        XCTAssertEqual(holders.holder(300)?.link, .writer, "never traded back")
        XCTAssertEqual(holders.holder(300)?.read, named)
    }

    /// What guard did is never replaced in the report by a later look that left the file as it
    /// was (the same file examined twice, set aside by the first look).
    func testWhatGuardDidIsNotUndoneByALaterLook() {
        var outcome = GuardOutcome()
        outcome.merge(file: "quarantined", clipboard: nil, quarantine: "20261206-1")
        outcome.merge(file: "untouched", clipboard: nil, quarantine: nil)
        XCTAssertEqual(outcome, GuardOutcome(file: "quarantined", quarantine: "20261206-1", clipboard: nil))
        outcome.merge(file: "rewritten", clipboard: "unchanged", quarantine: nil)
        outcome.merge(file: nil, clipboard: "replaced", quarantine: nil)
        XCTAssertEqual(outcome.file, "rewritten")
        XCTAssertEqual(outcome.clipboard, "replaced")
    }
}
