// Guard's rewrite killed at each crash point: the screenshot's path holds the original or the
// complete redacted file, never a part of one, and the next start removes what was left.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class GuardCrashTests: WatchDesktopTestCase {
    override class var serverHasRecord: Bool { false }

    private func agent(crashAt point: String?) throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox,
                       display: desk.name, environment: point.map { ["SHOTGUARD_CRASH_AT": $0] } ?? [:])
    }

    private struct Shot {
        let path: String
        let bytes: [UInt8]
        let status: stat
    }

    /// A scrot screenshot made outside the watched folder, then moved in: its bytes are known.
    private func screenshot() throws -> Shot {
        let made = sandbox.path("made/shot.png")
        try runTool("scrot -o '\(made)'", display: desk.name)
        var status = stat()
        XCTAssertEqual(lstat(made, &status), 0)
        let bytes = try sandbox.bytes("made/shot.png")
        let path = shots + "/Screenshot from 2026-12-02 10-00-00.png"
        XCTAssertEqual(rename(made, path), 0)
        return Shot(path: path, bytes: bytes, status: status)
    }

    private func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: shots).filter { $0.hasPrefix(".shotguard-rewrite-") }.sorted()
    }

    /// Kills the agent at `point` during the rewrite of a screenshot; returns the shot and the
    /// temporary file the crash left, after checking that the agent died by SIGKILL.
    private func crash(at point: String) throws -> (shot: Shot, leftover: String) {
        let watch = try agent(crashAt: point)
        let shot = try screenshot()
        guard watch.waitForExit(seconds: 10) != nil else { throw FixtureError("the agent was not killed at \(point): \(watch.log)") }
        XCTAssertEqual(watch.process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(watch.process.terminationStatus, SIGKILL)
        let left = try leftovers()
        XCTAssertEqual(left.count, 1, "the crash left one temporary file: \(left)")
        return (shot, shots + "/" + (left.first ?? ""))
    }

    /// The next agent removes the temporary file, and leaves the screenshot as the crash left it
    /// (a file written before an agent started is never rewritten by it).
    private func restartCleansUp(_ leftover: String, path: String, holding expected: [UInt8]) throws {
        let watch = try agent(crashAt: nil)
        XCTAssertEqual(watch.events("leftover-removed").map { $0["path"] as? String }, [leftover], watch.log)
        XCTAssertEqual(try leftovers(), [], "no temporary file remains")
        XCTAssertTrue(try bytes(path) == expected, "the screenshot is as the crash left it")
    }

    func testACrashHalfwayThroughWritingLeavesTheOriginal() throws {
        let (shot, leftover) = try crash(at: "write")
        XCTAssertTrue(try bytes(shot.path) == shot.bytes, "the original, untouched")
        XCTAssertThrowsError(try PNGDecoder.decode(try bytes(leftover), source: leftover), "the temporary file is partial")
        try restartCleansUp(leftover, path: shot.path, holding: shot.bytes)
    }

    func testACrashBeforeTheRenameLeavesTheOriginal() throws {
        let screen = try desk.screen()
        let (shot, leftover) = try crash(at: "rename")
        XCTAssertTrue(try bytes(shot.path) == shot.bytes, "the original, untouched")
        // The temporary file was complete: the redacted image, never put in place.
        let prepared = try PNGDecoder.decode(try bytes(leftover), source: leftover)
        assertRedacted(prepared, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
        try restartCleansUp(leftover, path: shot.path, holding: shot.bytes)
    }

    func testACrashAfterTheRenameLeavesTheCompleteRedactedFile() throws {
        let screen = try desk.screen()
        let (shot, leftover) = try crash(at: "renamed")
        let redacted = try bytes(shot.path)
        assertRedacted(try PNGDecoder.decode(redacted, source: shot.path), origin: fullScreen, screen: screen,
                       expected: try desk.expectedRedactions())
        var after = stat()
        XCTAssertEqual(lstat(shot.path, &after), 0)
        XCTAssertEqual(after.st_mtim.tv_nsec, shot.status.st_mtim.tv_nsec, "mtime kept")
        // What the swap moved out is the original; the next start deletes it.
        XCTAssertTrue(try bytes(leftover) == shot.bytes, "the swapped-out file is the original")
        try restartCleansUp(leftover, path: shot.path, holding: redacted)
    }
}
