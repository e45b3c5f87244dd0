// Evidence is what was read: a late save is redacted as the screen was at its read, a copy of an original is guarded, a harmless read touches nothing.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardScene
import ShotguardTestSupport
import XCTest

/// `shotguard watch` (guard on, RECORD) against programs that keep the pixels they read
/// (held-reader.py), copies of screenshots, and photos that are no screenshot.
final class HeldPixelsTests: WatchDesktopTestCase {
    private func agent() throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// A window over the whole screen, with pixels of its own: the screen no longer shows what
    /// was read (nor the vault), until the test ends.
    private func coverTheScreen() throws {
        let cover = try PaintedWindow(display: desk.display, frame: fullScreen,
                                      content: WatchDesktop.pattern(width: fullScreen.width, height: fullScreen.height, seed: 77),
                                      instance: "cover", className: "Cover", title: "Cover", popup: true)
        addTeardownBlock { cover.destroy() }
    }

    /// A photo: noise that is nowhere on the screen, as a PNG under the sandbox.
    private func photo(_ name: String) throws -> String {
        try sandbox.write("made/\(name)", png: WatchDesktop.pattern(width: 300, height: 200, seed: 4242))
    }

    private func examined(_ name: String, by watch: WatchAgent) -> [String: Any]? {
        guard watch.waitForEvent("examined", where: { ($0["name"] as? String)?.hasSuffix(name) ?? false }) else { return nil }
        return watch.events.last { $0["event"] as? String == "examined" && (($0["name"] as? String)?.hasSuffix(name) ?? false) }
    }

    private func assertRedactedFile(_ path: String, screen: PixelBuffer, expected: [(rect: Rect, fill: UInt32)],
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path), "\(path) is gone", file: file, line: line)
        let written = try ImageCodec.decode([UInt8](bytes), source: path).image
        assertRedacted(written, origin: fullScreen, screen: screen, expected: expected, file: file, line: line)
    }

    /// An editor saves its capture long after its read, the screen changed meanwhile (here a
    /// window now covers it all): the image is redacted where the vault was when it was read.
    func testALateSaveIsRedactedAsTheScreenWasWhenItWasRead() throws {
        let folder = try TemporaryFolder(self, label: "not-watched")
        let screen = try desk.screen()
        let expected = try desk.expectedRedactions()
        let watch = try agent()
        let reader = try HeldReader(self, area: fullScreen, display: desk.name)
        XCTAssertTrue(watch.waitForEvent("holding") { $0["pid"] as? Int == Int(reader.pid) && $0["screen"] as? Bool == true }, watch.log)
        try coverTheScreen()
        try reader.run("save \(folder.at("later.png"))")
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)\n\(watch.log)")
        try assertRedactedFile(folder.at("later.png"), screen: screen, expected: expected)
        // Saved again, annotated this time (a cross drawn far from the vault): redacted too.
        try reader.run("annotate \(folder.at("annotated.png")) 480 300")
        let annotated = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((annotated.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(annotated.json)\n\(watch.log)")
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: folder.at("annotated.png")))
        let image = try ImageCodec.decode([UInt8](bytes), source: "annotated.png").image
        for (rect, fill) in expected {
            let uncovered = (rect.y..<rect.maxY).flatMap { y in (rect.x..<rect.maxX).filter { x in image[x, y] & 0xFF_FFFF != fill } }
            XCTAssertEqual(uncovered.count, 0, "\(rect) is covered in the annotated save")
        }
        try reader.run("exit")
    }

    /// A magnifier reads 32x32 pixels far from every rule, then writes a photo into the
    /// screenshots folder: the photo keeps its bytes. A screenshot in the same run is guarded.
    func testAPhotoWrittenAfterAHarmlessReadKeepsItsBytes() throws {
        let watch = try agent()
        let original = try photo("holiday.png")
        let reader = try HeldReader(self, area: Rect(x: 560, y: 340, width: 32, height: 32), display: desk.name)
        try reader.run("copy \(original) \(shots)/IMG_0001.png")
        let outcome = try XCTUnwrap(examined("IMG_0001.png", by: watch), watch.log)
        XCTAssertEqual(outcome["outcome"] as? String, "left", "\(outcome)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: shots + "/IMG_0001.png")),
                       try Data(contentsOf: URL(fileURLWithPath: original)))
        try reader.run("exit")
        try assertAScreenshotIsStillGuarded(by: watch)
    }

    /// A screenshot, then a photo copied into a Screenshots folder: the photo keeps its bytes.
    func testAPhotoCopiedAfterAScreenshotKeepsItsBytes() throws {
        _ = try requireTool("scrot", package: "scrot")
        let screenshots = sandbox.path("Pictures/Screenshots")
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        let watch = try WatchAgent(["--regions", regions, "--dir", screenshots, "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name)
        let folder = try TemporaryFolder(self, label: "not-watched")
        let original = try photo("beach.png")
        try runTool("scrot -o '\(folder.at("a.png"))' && cp '\(original)' '\(screenshots)/beach.png'", display: desk.name)
        let outcome = try XCTUnwrap(examined("beach.png", by: watch), watch.log)
        XCTAssertEqual(outcome["outcome"] as? String, "left", "\(outcome)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: screenshots + "/beach.png")),
                       try Data(contentsOf: URL(fileURLWithPath: original)))
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "the screenshot itself: \(report.json)")
    }

    /// A copy of a screenshot made before guard rewrote it (here while the agent was stopped),
    /// brought into view once the screen changed: guarded as its original was, on the screen of
    /// the original.
    func testACopyOfAnOriginalMadeBeforeTheRewriteIsRedacted() throws {
        _ = try requireTool("scrot", package: "scrot")
        let stash = try TemporaryFolder(self, label: "not-watched")
        let screen = try desk.screen()
        let expected = try desk.expectedRedactions()
        let watch = try agent()
        watch.send(SIGSTOP)
        try runTool("scrot -o '\(shots)/Screenshot-copied.png' && cp '\(shots)/Screenshot-copied.png' '\(stash.at("copy.png"))'",
                    display: desk.name)
        watch.send(SIGCONT)
        let first = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((first.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(first.json)\n\(watch.log)")
        try coverTheScreen()
        try runTool("cp '\(stash.at("copy.png"))' '\(shots)/copy-of-it.png'", display: desk.name)
        let outcome = try XCTUnwrap(examined("copy-of-it.png", by: watch), watch.log)
        XCTAssertEqual(outcome["file"] as? String, "rewritten", "\(outcome)\n\(watch.log)")
        try assertRedactedFile(shots + "/copy-of-it.png", screen: screen, expected: expected)
        let copy = try XCTUnwrap(watch.nextReport(), watch.log)
        let evidence = (copy.json["evidence"] as? [String]) ?? []
        XCTAssertTrue(evidence.contains { $0.hasPrefix("a copy of the screenshot \(shots)/Screenshot-copied.png") }, "\(copy.json)")
    }

    /// Screenshots in formats guard rewrites, written where nobody watches, are redacted in
    /// their own format; one in a format it cannot write (ImageMagick's MIFF) is set aside and
    /// said as an error (where the X server could not name import's reading connection it is
    /// left as it was, as any image the agent cannot place on that evidence, and import is run
    /// again).
    func testOtherFormatsAnywhereAreRedactedOrSetAside() throws {
        for tool in [("import", "imagemagick"), ("xwd", "x11-apps"), ("scrot", "scrot")] { _ = try requireTool(tool.0, package: tool.1) }
        let folder = try TemporaryFolder(self, label: "not-watched")
        let screen = try desk.screen()
        let expected = try desk.expectedRedactions()
        let watch = try agent()
        for (name, command) in [("s.tiff", "import -window root '\(folder.at("s.tiff"))'"),
                                ("s.xwd", "xwd -root -silent -out '\(folder.at("s.xwd"))'"),
                                ("s.ppm", "scrot -o '\(folder.at("s.ppm"))'")] {
            try runTool(command, display: desk.name)
            let report = try XCTUnwrap(watch.nextReport(), "\(name): \(watch.log)")
            XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(name): \(report.json)\n\(watch.log)")
            let bytes = try XCTUnwrap(FileManager.default.contents(atPath: folder.at(name)))
            XCTAssertEqual(ImageFormat.sniff([UInt8](bytes))?.title, ImageFormat(path: name)?.title, "\(name) keeps its format")
            try assertRedactedFile(folder.at(name), screen: screen, expected: expected)
        }
        // import's reading connection may come and go before the agent's question about it
        // reaches the server (a loaded machine). The program then taken for the reader is only
        // a guess, and a file it writes that cannot be placed is left, never set aside (README,
        // "A reader the X server cannot name"); when import itself was gone by the time the
        // agent looked, nothing stood for it. Such a MIFF must keep its bytes, and import is run
        // again, up to three times: one of them must be set aside.
        for attempt in 1...3 {
            let name = "s\(attempt).miff", logged = watch.log.count
            try runTool("import -window root '\(folder.at(name))'", display: desk.name)
            let outcome = examined(name, by: watch)
            let file = outcome?["file"] as? String
            if file != "quarantined", [nil, "untouched"].contains(file),
               watch.log.dropFirst(logged).contains("could not tell its process") {
                let kept = try XCTUnwrap(FileManager.default.contents(atPath: folder.at(name)))
                XCTAssertEqual(Array(kept.prefix(14)), Array("id=ImageMagick".utf8), "\(outcome ?? [:])\n\(watch.log)")
                XCTAssertLessThan(attempt, 3, "import was never named: \(watch.log)")
                continue
            }
            let report = try XCTUnwrap(watch.nextReport(), watch.log)
            XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "quarantined", "\(report.json)\n\(watch.log)")
            let placeholder = try XCTUnwrap(FileManager.default.contents(atPath: folder.at(name)))
            XCTAssertNotEqual(Array(placeholder.prefix(14)), Array("id=ImageMagick".utf8), "the MIFF is no longer there")
            XCTAssertTrue(watch.log.contains("error: guard: \(folder.at(name)) could not be redacted"), watch.log)
            return
        }
    }

    /// A scrot screenshot after the case at hand: still rewritten with the rules applied.
    private func assertAScreenshotIsStillGuarded(by watch: WatchAgent, file: StaticString = #filePath, line: UInt = #line) throws {
        let screen = try desk.screen()
        try runTool("scrot -o '\(shots)/Screenshot-after.png'", display: desk.name, file: file, line: line)
        let report = try XCTUnwrap(watch.nextReport(), watch.log, file: file, line: line)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)", file: file, line: line)
        try assertRedactedFile(shots + "/Screenshot-after.png", screen: screen, expected: try desk.expectedRedactions(),
                               file: file, line: line)
    }
}
