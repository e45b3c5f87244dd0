// The agent's spool is no hidden archive: reports go after --keep-for, an unredacted screen's image is not kept.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class WatchRetentionTests: WatchDesktopTestCase {
    private func agent(_ extra: [String], regions: String? = nil) throws -> WatchAgent {
        try WatchAgent(["--regions", regions ?? self.regions, "--dir", shots, "--no-clipboard", "--no-tools"] + extra,
                       sandbox: sandbox, display: desk.name)
    }

    private func screenshot(_ name: String, _ watch: WatchAgent, file: StaticString = #filePath,
                            line: UInt = #line) throws -> (json: [String: Any], image: PixelBuffer?) {
        try runTool("scrot -o '\(shots)/\(name)'", display: desk.name, file: file, line: line)
        return try XCTUnwrap(watch.nextReport(), "no report of \(name): \(watch.log)", file: file, line: line)
    }

    private func names(in folder: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    }

    /// Sets a report folder's modification time `seconds` back: its age, as retention reads it.
    private func backdate(_ folder: URL, by seconds: Double) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -seconds)], ofItemAtPath: folder.path)
    }

    private func imagePath(_ report: [String: Any]) -> Any? { (report["image"] as? [String: Any])?["path"] }

    /// Every screenshot was kept, 500 of them, whatever their age: with `--keep-for 2s` a
    /// report older than that is gone once the agent writes the next one. The first report is
    /// made older by its folder's time instead of by waiting.
    func testAReportOlderThanKeepForIsGoneAfterTheNextReport() throws {
        let watch = try agent(["--keep-for", "2s"])
        let first = try XCTUnwrap(try screenshot("scrot-old.png", watch).json["id"] as? String)
        XCTAssertEqual(try names(in: watch.spool), [first])
        try backdate(watch.spool.appendingPathComponent(first), by: 60)

        let second = try XCTUnwrap(try screenshot("scrot-new.png", watch).json["id"] as? String)
        XCTAssertEqual(try names(in: watch.spool), [second], "the report older than 2 s went when the next was written")

        // The listing of that spool: one JSON array, the report that stayed, its image kept.
        let listed = try sandbox.run(["reports", "list", "--json", "--spool", watch.spool.path])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.stdout)) as? [[String: Any]], listed.stdoutText)
        XCTAssertEqual(items.map { $0["id"] as? String }, [second])
        XCTAssertEqual(items.first?["rectangles"] as? Int, 2)
        XCTAssertEqual(items.first?["source"] as? String, "file")
        XCTAssertEqual(items.first?["image"] as? String, watch.spool.appendingPathComponent(second + "/image.png").path)
        XCTAssertEqual((items.first?["guard"] as? [String: String])?["file"], "rewritten")
    }

    /// By default reports are kept a day: at start the agent removes those older, and keeps the rest.
    func testReportsOlderThanADayAreGoneWhenTheAgentStarts() throws {
        let spool = sandbox.home.appendingPathComponent("spool")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for (id, age) in [("20261101-101010-001", 25 * 3600.0), ("20261102-101010-001", 23 * 3600.0)] {
            try sandbox.write("spool/\(id)/report.json", text: "{}\n")
            try backdate(spool.appendingPathComponent(id), by: age)
        }
        let watch = try agent([])
        XCTAssertEqual(try names(in: spool), ["20261102-101010-001"], watch.log)
    }

    /// A screenshot no rule touched is the unredacted screen: its report keeps only report.json,
    /// unless the agent runs with --keep-unredacted.
    func testTheImageOfAScreenshotNoRuleTouchedIsKeptOnlyWhenAsked() throws {
        let quiet = try sandbox.write("quiet-regions", text: "window class=Nobody   # hits nothing\n")
        let watch = try agent([], regions: quiet)
        let plain = try screenshot("scrot-plain.png", watch)
        let id = try XCTUnwrap(plain.json["id"] as? String)
        XCTAssertEqual((plain.json["redactions"] as? [Any])?.count, 0)
        XCTAssertTrue(imagePath(plain.json) is NSNull, "no image path: \(plain.json)")
        XCTAssertEqual(try names(in: watch.spool.appendingPathComponent(id)), ["report.json"])
        let listed = try sandbox.run(["reports", "list", "--spool", watch.spool.path])
        XCTAssertTrue(listed.stdoutText.hasPrefix("\(id)  "), listed.stdoutText)
        XCTAssertTrue(listed.stdoutText.contains("  0 rectangles  file unchanged  no image  \(shots)/scrot-plain.png\n"),
                      listed.stdoutText)
        watch.send(SIGTERM)
        XCTAssertEqual(watch.waitForExit(seconds: 10), 0, watch.log)

        let keeping = try agent(["--keep-unredacted"], regions: quiet)
        let kept = try screenshot("scrot-kept.png", keeping)
        let keptID = try XCTUnwrap(kept.json["id"] as? String)
        XCTAssertEqual(imagePath(kept.json) as? String, keeping.spool.appendingPathComponent(keptID + "/image.png").path)
        XCTAssertEqual(try names(in: keeping.spool.appendingPathComponent(keptID)), ["image.png", "report.json"])
        XCTAssertNotNil(kept.image, "the kept image decodes")
    }
}
