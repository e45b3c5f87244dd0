// The hold helper (shotguard-hold, root): a copy made the moment a screenshot is written waits, and reads the redacted file.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// `shotguard watch` with a hold helper of the test's own: `cp`, `tar` and `gzip` run the moment
/// scrot exits, in folders nobody watches, read the screenshot after guard redacted it. Needs
/// root (fanotify permission events), as CI runs the tests.
final class HoldHelperTests: WatchDesktopTestCase {
    /// Starts shotguard-hold on a socket of the sandbox; returns the socket's path.
    private func startHelper() throws -> String {
        let binary = try shotguardBinary().deletingLastPathComponent().appendingPathComponent("shotguard-hold").path
        let socket = sandbox.path("hold.sock")
        let helper = try PipedProcess(binary, ["--socket", socket, "--verbose"], environment: ProcessInfo.processInfo.environment)
        addTeardownBlock {
            kill(helper.pid, SIGTERM)
            _ = helper.wait()
        }
        readOutput(of: [helper]) { helper.stderrText.contains("holding screenshots") || helper.isFinished }
        guard helper.stderrText.contains("holding screenshots") else {
            throw FixtureError("shotguard-hold did not start (it needs root): \(helper.stderrText)")
        }
        return socket
    }

    private func decoded(_ path: String) throws -> PixelBuffer {
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path), "\(path) is missing")
        return try ImageCodec.decode([UInt8](bytes), source: path).image
    }

    func testCopiesMadeTheMomentAScreenshotIsWrittenReadItRedacted() throws {
        _ = try requireTool("scrot", package: "scrot")
        let socket = try startHelper()
        let written = try TemporaryFolder(self, label: "not-watched"), copies = try TemporaryFolder(self, label: "not-watched")
        let screen = try desk.screen()
        let expected = try desk.expectedRedactions()
        let watch = try WatchAgent(["--regions", regions, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name,
                                   environment: ["SHOTGUARD_HOLD_SOCKET": socket])
        let commands = [
            "scrot -o '\(written.at("a.png"))' && cp '\(written.at("a.png"))' '\(copies.at("a.png"))'",
            "scrot -o '\(written.at("b.png"))' && tar -C '\(written.path)' -cf '\(copies.at("b.tar"))' b.png",
            "scrot -o '\(written.at("c.png"))' && gzip -c '\(written.at("c.png"))' > '\(copies.at("c.png.gz"))'",
        ]
        for command in commands {
            try runTool(command, display: desk.name)
            let report = try XCTUnwrap(watch.nextReport(), watch.log)
            XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", "\(report.json)\n\(watch.log)")
        }
        try runTool("cd '\(copies.path)' && mkdir unpacked && tar -C unpacked -xf b.tar && gunzip c.png.gz", display: desk.name)
        for copy in [copies.at("a.png"), copies.at("unpacked/b.png"), copies.at("c.png")] {
            assertRedacted(try decoded(copy), origin: fullScreen, screen: screen, expected: expected)
        }
        for original in ["a.png", "b.png", "c.png"] {
            assertRedacted(try decoded(written.at(original)), origin: fullScreen, screen: screen, expected: expected)
        }
    }
}
