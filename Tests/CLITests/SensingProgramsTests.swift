// Capture sensing end to end: scrot, maim, ImageMagick's import and xwd, each named in its report's screen-read signal.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// Each program reads the screen of a server with RECORD while `shotguard watch --no-guard` runs;
/// its report's `signals` hold a `screen-read` naming the program, its pid, its request and the
/// rectangle of the root it read.
final class SensingProgramsTests: WatchDesktopTestCase {
    private func agent(_ extra: [String] = []) throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools", "--no-guard"] + extra,
                       sandbox: sandbox, display: desk.name)
    }

    /// Runs `program` to its end with DISPLAY set, and returns its pid.
    private func run(_ program: String, _ arguments: [String]) throws -> Int32 {
        let child = try ChildProcess(program, arguments, environment: ["DISPLAY": desk.name], output: .standardError)
        XCTAssertEqual(child.waitForExit(), 0, "\(program) \(arguments.joined(separator: " ")) failed")
        return child.pid
    }

    private func screenReads(_ report: [String: Any]) -> [[String: Any]] {
        (report["signals"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "screen-read" }
    }

    private func image(_ report: [String: Any]) -> [String: Any] { report["image"] as? [String: Any] ?? [:] }

    func testScrotIsNamedWithTheWholeScreenItRead() throws {
        _ = try requireTool("scrot", package: "scrot")
        let screen = try desk.screen()
        let watch = try agent()
        let pid = try run("scrot", ["-o", shots + "/scrot-1.png"])
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        let read = try XCTUnwrap(screenReads(report.json).first, "no screen-read signal: \(report.json)")
        XCTAssertEqual(read["program"] as? String, "scrot")
        XCTAssertEqual(read["pid"] as? Int, Int(pid))
        XCTAssertEqual(read["request"] as? String, "ShmGetImage")
        XCTAssertEqual(read["geometry"] as? String, "640x400+0+0")
        XCTAssertEqual(image(report.json)["source"] as? String, "file")
        assertRedacted(report.image, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
    }

    /// maim draws the root into a pixmap of its own (RENDER's Composite) and reads the pixmap:
    /// its copy of the root is its first read, so its screen-read names what it copied.
    func testMaimIsNamedWithTheRootItCopied() throws {
        _ = try requireTool("maim", package: "maim")
        let screen = try desk.screen()
        let watch = try agent()
        let pid = try run("maim", ["-u", shots + "/maim-1.png"])
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        let read = try XCTUnwrap(screenReads(report.json).first, "no screen-read signal: \(report.json)")
        XCTAssertEqual(read["program"] as? String, "maim")
        XCTAssertEqual(read["pid"] as? Int, Int(pid))
        XCTAssertEqual(read["request"] as? String, "RenderComposite")
        XCTAssertEqual(read["geometry"] as? String, "640x400+0+0", "maim copies the whole root: \(read)")
        XCTAssertEqual((report.json["alignment"] as? [String: Any])?["geometry"] as? String, "640x400+0+0")
        assertRedacted(report.image, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
    }

    /// ImageMagick 6 sets its process name to `import-im6.q16`: the report names what /proc says.
    func testImportIsNamedWithTheWholeScreenItRead() throws {
        _ = try requireTool("import", package: "imagemagick")
        let screen = try desk.screen()
        let watch = try agent()
        let pid = try run("/usr/bin/import", ["-window", "root", shots + "/import-1.png"])
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        let read = try XCTUnwrap(screenReads(report.json).first, "no screen-read signal: \(report.json)")
        let program = try XCTUnwrap(read["program"] as? String)
        XCTAssertTrue(program.hasPrefix("import"), "program \(program)")
        XCTAssertEqual(read["pid"] as? Int, Int(pid))
        XCTAssertEqual(read["request"] as? String, "GetImage")
        XCTAssertEqual(read["geometry"] as? String, "640x400+0+0")
        assertRedacted(report.image, origin: fullScreen, screen: screen, expected: try desk.expectedRedactions())
    }

    /// xwd writes an X window dump, which the agent reads like any other screenshot (it used to
    /// leave it, reporting its own fallback): the report's image is the dump, placed on the
    /// whole screen and redacted where rules hit it, and it still names xwd and what it read.
    func testXwdIsNamedAndItsDumpIsTheReportsImage() throws {
        _ = try requireTool("xwd", package: "x11-apps")
        let screen = try desk.screen()
        let watch = try agent(["--keep-unredacted"])
        let pid = try run("xwd", ["-root", "-silent", "-out", shots + "/xwd-1.xwd"])
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        let read = try XCTUnwrap(screenReads(report.json).first, "no screen-read signal: \(report.json)")
        XCTAssertEqual(read["program"] as? String, "xwd")
        XCTAssertEqual(read["pid"] as? Int, Int(pid))
        XCTAssertEqual(read["request"] as? String, "GetImage")
        XCTAssertEqual(read["geometry"] as? String, "640x400+0+0")
        XCTAssertEqual(image(report.json)["source"] as? String, "file", "\(report.json)")
        XCTAssertEqual(image(report.json)["original"] as? String, shots + "/xwd-1.xwd", "\(report.json)")
        let geometry = try XCTUnwrap((report.json["alignment"] as? [String: Any])?["geometry"] as? String, "\(report.json)")
        XCTAssertEqual(geometry, "640x400+0+0")
        let origin = try Geometry.parse(geometry).resolve(in: fullScreen)
        assertRedacted(report.image, origin: origin, screen: screen, expected: try desk.expectedRedactions())
    }
}
