// `shotguard watch` and files: folders replaced, names not UTF-8, a relative spool, retention, --exec's session.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class WatchFilesTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    private func agent(_ extra: [String], spoolArgument: String? = nil) throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"] + extra, sandbox: sandbox,
                       display: desk.name, spoolArgument: spoolArgument)
    }

    private func image(_ report: [String: Any]) -> [String: Any] { report["image"] as? [String: Any] ?? [:] }

    func testAScreenshotNamedInInvalidUTF8IsReadByItsRealName() throws {
        let screen = try desk.screen()
        let watch = try agent([])
        // printf turns \377 into the byte 0xFF, which is not UTF-8.
        try runTool("scrot -o \"$(printf '%s/screenshot-\\377.png' '\(shots)')\"", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual(image(report.json)["source"] as? String, "file", watch.log)
        XCTAssertEqual(image(report.json)["original"] as? String, shots + "/screenshot-\\xff.png")
        XCTAssertEqual((report.json["signals"] as? [[String: Any]])?.first?["detail"] as? String, shots + "/screenshot-\\xff.png")
        XCTAssertTrue(watch.events("ignored") { $0["why"] as? String == "unreadable" }.isEmpty, "read by its real name: \(watch.log)")
        XCTAssertTrue(watch.events("examined") { $0["why"] as? String == "gone" }.isEmpty, "read by its real name: \(watch.log)")
        assertRedacted(report.image, origin: Rect(x: 0, y: 0, width: 640, height: 400), screen: screen,
                       expected: try desk.expectedRedactions())
    }

    func testAWatchedFolderRenamedAwayAndMadeAgainIsStillWatched() throws {
        let screen = try desk.screen()
        let watch = try agent([])
        try runTool("mv '\(shots)' '\(sandbox.path("old-shots"))' && mkdir '\(shots)' && scrot -o '\(shots)/scrot-d.png'",
                    display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual(image(report.json)["original"] as? String, shots + "/scrot-d.png")
        assertRedacted(report.image, origin: Rect(x: 0, y: 0, width: 640, height: 400), screen: screen,
                       expected: try desk.expectedRedactions())
    }

    func testARelativeSpoolIsTakenFromTheStartFolderAndKeepsTheNewestReports() throws {
        let watch = try agent(["--keep", "1"], spoolArgument: "spool")
        try runTool("scrot -o '\(shots)/scrot-a.png'", display: desk.name)
        let first = try XCTUnwrap(watch.nextReport(), watch.log)
        try runTool("scrot -o '\(shots)/scrot-b.png'", display: desk.name)
        let second = try XCTUnwrap(watch.nextReport(), watch.log)
        let secondID = try XCTUnwrap(second.json["id"] as? String)
        XCTAssertNotEqual(first.json["id"] as? String, secondID)
        XCTAssertEqual(image(second.json)["path"] as? String, sandbox.path("spool/\(secondID)/image.png"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("spool"))
        XCTAssertEqual(kept, [secondID], "--keep 1 leaves only the newest report")
    }

    func testTheExecCommandRunsInASessionOfItsOwn() throws {
        let status = sandbox.path("exec.stat")
        let watch = try agent(["--once", "--exec", "cat /proc/$$/stat > '\(status)'"])
        try runTool("scrot -o '\(shots)/scrot-c.png'", display: desk.name)
        XCTAssertNotNil(watch.nextReport(), watch.log)
        XCTAssertEqual(watch.waitForExit(seconds: 10), 0, "--once waits for the command: \(watch.log)")
        // pid (comm) state ppid pgrp session ...
        let text = try String(contentsOfFile: status, encoding: .utf8)
        let pid = try XCTUnwrap(text.split(separator: " ").first.flatMap { Int32($0) })
        let fields = try XCTUnwrap(text.range(of: ") ").map { text[$0.upperBound...].split(separator: " ") })
        XCTAssertEqual(fields.count > 3 ? Int32(fields[2]) : nil, pid, "the command leads its own process group")
        XCTAssertEqual(fields.count > 3 ? Int32(fields[3]) : nil, pid, "the command leads its own session")
        XCTAssertNotEqual(fields.count > 3 ? Int32(fields[3]) : nil, getsid(0))
    }

    func testKeepMustBeAPositiveNumber() throws {
        let result = try sandbox.run(["watch", "--keep", "0"])
        assertFailure(result, status: 2, prefix: "shotguard: watch: --keep: '0' is not a number of reports",
                      mentions: ["--keep 500"])
    }
}
