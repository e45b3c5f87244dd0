// `regions add --pick` driven with xdotool (a click on a window, a drag inside one) and
// `regions add --preset`: the rules written, and the next screenshots covering exactly that.
import Foundation
import ShotguardImaging
import ShotguardScene
import ShotguardScreen
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class RegionsAddTests: WatchDesktopTestCase {
    /// Starts `regions add --pick --regions FILE`, waits until it grabbed the pointer (it says
    /// so), runs `gesture` (xdotool arguments), and returns what it printed once it exited.
    private func pick(_ file: String, _ gesture: [String], line: UInt = #line) throws -> (status: Int32, output: String) {
        var environment = testEnvironment(home: sandbox.home)
        environment["DISPLAY"] = desk.name
        let picker = try PipedProcess(try shotguardBinary().path, ["regions", "add", "--pick", "--regions", file],
                                      environment: environment)
        readOutput(of: [picker], line: line) { picker.stderrText.contains("click a window") || picker.isFinished }
        _ = try xdotool(gesture, display: desk.name)
        readOutput(of: [picker], line: line) { picker.isFinished }
        return (picker.wait(), picker.stdoutText + picker.stderrText)
    }

    private func screenshot(_ name: String, _ watch: WatchAgent) throws -> (image: PixelBuffer?, screen: PixelBuffer) {
        let screen = try desk.screen()
        try runTool("scrot -o '\(shots)/\(name)'", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), "no report of \(name): \(watch.log)")
        return (report.image, screen)
    }

    func testAClickProtectsTheWindowAndADragThePartOfOneInTheNextScreenshots() throws {
        let file = try sandbox.write("picked", text: "# rules picked on screen\n")
        let watch = try WatchAgent(["--regions", file, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name)
        let notes = try desk.display.windowInfo(desk.notes.id)
        let vault = try desk.display.windowInfo(desk.vault.id)

        // A click in the middle of Notes: the whole window, frame and title bar included.
        let click = try pick(file, ["mousemove", String(notes.frame.x + notes.frame.width / 2),
                                    String(notes.frame.y + notes.frame.height / 2), "click", "1"])
        XCTAssertEqual(click.status, 0, click.output)
        XCTAssertTrue(click.output.contains("  window class=Notes\n"), click.output)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# rules picked on screen\n# Notes's window, frame included, picked "), text)
        XCTAssertTrue(text.hasSuffix("\nwindow class=Notes\n"), text)
        XCTAssertTrue(watch.waitForEvent("rules"), watch.log)
        let first = try screenshot("first.png", watch)
        assertRedacted(first.image, origin: fullScreen, screen: first.screen, expected: [(notes.outerFrame, 0x000000)])

        // A drag inside the vault, from (20, 30) to (119, 59) of its client area: that 100x30.
        let from = (x: vault.frame.x + 20, y: vault.frame.y + 30)
        let drag = try pick(file, ["mousemove", String(from.x), String(from.y), "mousedown", "1",
                                   "mousemove", String(from.x + 50), String(from.y + 15),
                                   "mousemove", String(from.x + 99), String(from.y + 29), "mouseup", "1"])
        XCTAssertEqual(drag.status, 0, drag.output)
        XCTAssertTrue(drag.output.contains("  window class=Vault 100x30+20+30\n"), drag.output)
        XCTAssertTrue(watch.waitForEvent("rules", count: 2), watch.log)
        let second = try screenshot("second.png", watch)
        assertRedacted(second.image, origin: fullScreen, screen: second.screen,
                       expected: [(notes.outerFrame, 0x000000), (Rect(x: from.x, y: from.y, width: 100, height: 30), 0x000000)])
    }

    /// Escape cancels, and a file that does not parse gets nothing added.
    func testEscapeCancelsAndABrokenFileGetsNothing() throws {
        let file = try sandbox.write("picked", text: "window class=Notes\n")
        let cancelled = try pick(file, ["key", "Escape"])
        XCTAssertEqual(cancelled.status, 1, cancelled.output)
        XCTAssertTrue(cancelled.output.contains("cancelled; nothing was added"), cancelled.output)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "window class=Notes\n")

        let broken = try sandbox.write("broken", text: "window klass=Notes\n")
        let result = try sandbox.run(["regions", "add", "--pick", "--regions", broken], environment: ["DISPLAY": desk.name])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(broken):1:8: "), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: broken, encoding: .utf8), "window klass=Notes\n")
    }

    /// A preset is appended once, with a comment; the rules it adds parse, and a second time
    /// adds nothing. An unknown name lists the known ones.
    func testAPresetIsAddedOnceAndAnUnknownOneListsThem() throws {
        let file = sandbox.path("config/regions")
        let added = try sandbox.run(["regions", "add", "--preset", "keepassxc", "--regions", file])
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "# preset keepassxc (regions add --preset keepassxc)\n"
                       + "window class=KeePassXC\n")
        XCTAssertTrue(added.stdoutText.hasPrefix("added to \(file) at line 1:\n"), added.stdoutText)
        let again = try sandbox.run(["regions", "add", "--preset", "keepassxc", "--regions", file])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdoutText.contains("already has every rule of the preset keepassxc"), again.stdoutText)

        let unknown = try sandbox.run(["regions", "add", "--preset", "keepass", "--regions", file])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("no preset 'keepass' (expected one of: "), unknown.stderr)
        for name in ["keepassxc", "bitwarden", "1password", "seahorse", "kwalletmanager", "enpass", "authenticators",
                     "slack-sidebar"] {
            XCTAssertTrue(unknown.stderr.contains(name), "\(name): \(unknown.stderr)")
        }
        let list = try sandbox.run(["regions", "add", "--list-presets"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdoutText.contains("keepassxc\tKeePassXC, the password manager"), list.stdoutText)
    }
}
