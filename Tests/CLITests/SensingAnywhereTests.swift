// Screenshots saved in folders the agent does not watch, found through the program that read the screen.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// `shotguard watch` (guard on) with RECORD: scrot into a folder under /tmp, maim into
/// ~/Desktop and ImageMagick's import into its working folder — none of them watched — are
/// rewritten in place, every protected pixel covered and every other pixel the screen's.
final class SensingAnywhereTests: WatchDesktopTestCase {
    private func agent() throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// Waits for the report of the screenshot at `path`, then checks the file itself.
    private func assertRewritten(_ path: String, by watch: WatchAgent, screen: PixelBuffer,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let report = try XCTUnwrap(watch.nextReport(), watch.log, file: file, line: line)
        let image = report.json["image"] as? [String: Any] ?? [:]
        XCTAssertEqual(image["source"] as? String, "file", "\(report.json)", file: file, line: line)
        XCTAssertEqual(image["original"] as? String, path, "\(report.json)", file: file, line: line)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)\n\(watch.log)", file: file, line: line)
        let reads = (report.json["signals"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "screen-read" }
        XCTAssertFalse(reads.isEmpty, "the report names the read that led to the file: \(report.json)", file: file, line: line)
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path), "\(path) is gone", file: file, line: line)
        let written = try PNGDecoder.decode([UInt8](bytes), source: path)
        assertRedacted(written, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions(), file: file, line: line)
    }

    func testScrotIntoAFolderUnderTmpIsRewrittenRedacted() throws {
        _ = try requireTool("scrot", package: "scrot")
        let elsewhere = try TemporaryFolder(self, label: "not-watched")
        let path = elsewhere.at("x.png")
        let screen = try desk.screen()
        let watch = try agent()
        try runTool("scrot", ["-o", path], display: desk.name)
        try assertRewritten(path, by: watch, screen: screen)
    }

    func testMaimIntoTheDesktopFolderIsRewrittenRedacted() throws {
        _ = try requireTool("maim", package: "maim")
        let desktop = sandbox.path("Desktop")
        try FileManager.default.createDirectory(atPath: desktop, withIntermediateDirectories: true)
        let screen = try desk.screen()
        let watch = try agent()
        try runTool("maim", ["-u", desktop + "/a.png"], display: desk.name)
        try assertRewritten(desktop + "/a.png", by: watch, screen: screen)
    }

    /// A relative path: the file is found in the program's working folder.
    func testImportIntoItsWorkingFolderIsRewrittenRedacted() throws {
        _ = try requireTool("import", package: "imagemagick")
        let work = sandbox.path("project")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let screen = try desk.screen()
        let watch = try agent()
        try runTool("cd '\(work)' && /usr/bin/import -window root ./shot.png", display: desk.name)
        try assertRewritten(work + "/shot.png", by: watch, screen: screen)
    }
}
