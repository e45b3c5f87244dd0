// Windows whose properties another program set to nonsense: no command may crash or trust them.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

final class X11HostileWindowTests: X11DesktopTestCase {
    nonisolated(unsafe) static let desktop = X11Scene.desktop()
    override class var sharedDesktop: X11Desktop { desktop }

    private var vault: String { hexID(desktop.ids[0]) }

    override func tearDown() {
        if let name = try? desktop.name() {
            try? runTool("xprop", ["-id", vault, "-remove", "_NET_FRAME_EXTENTS"], display: name)
        }
        super.tearDown()
    }

    private func setFrameExtents(_ values: String) throws {
        try runTool("xprop", ["-id", vault, "-f", "_NET_FRAME_EXTENTS", "32c", "-set", "_NET_FRAME_EXTENTS", values],
                     display: try desktop.name())
    }

    /// 0xffffffff comes back from Xlib as the C long -1: converted to Int it trapped (SIGILL).
    func testNegativeFrameExtentsCrashNoCommand() throws {
        try setFrameExtents("0xffffffff,0,0,0")
        for arguments in [["windows"], ["windows", "--json"], ["capture", "-o", "shot.png", "--regions", rules],
                          ["regions", "check", "--regions", rules], ["regions", "show", "--regions", rules, "-o", "p.png"]] {
            let result = try desktop.run(arguments, in: sandbox)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
    }

    /// Extents that would carry the frame past X's coordinates are treated as absent: the
    /// rule for the whole vault covers its client area, as with no decorations (less what
    /// Notes and Cover hide of it, see X11Scene.covers).
    func testAbsurdFrameExtentsAreIgnored() throws {
        try setFrameExtents("2147483647,2147483647,2147483647,2147483647")
        let result = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("at 100x80+40+30 -> 90x10+50+30, 100x20+40+40, 80x50+40+60 black"),
                      result.stdoutText)
        let capture = try desktop.run(["capture", "-o", "shot.png", "--regions", rules], in: sandbox)
        XCTAssertEqual(capture.status, 0, capture.stderr)
    }

    /// Sensible extents still count: the frame grows by them (clipped to the screen) to
    /// 105x104+38+10, of which Notes hides 12x30+38+10 and Cover 23x50+120+60 (cut first, being
    /// larger): what is left is the band above Cover less Notes' corner, the strip left of
    /// Cover and the band below it.
    func testSensibleFrameExtentsStillWidenTheFrame() throws {
        try setFrameExtents("2,3,20,4")
        let result = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("at 100x80+40+30 -> 93x30+50+10, 105x20+38+40, 82x50+38+60, 105x4+38+110 black"),
                      result.stdoutText)
    }

    /// Titles and names are printed escaped: a title could retitle (ESC ]0;… BEL) or clear
    /// (ESC [2J) the terminal of whoever runs `windows` or `regions check`.
    func testTitlesWithTerminalControlsArePrintedEscaped() throws {
        let title = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31mVault"
        let window = try PaintedWindow(display: try desktop.display(), frame: Rect(x: 200, y: 20, width: 30, height: 20),
                                       content: PixelBuffer(width: 30, height: 20), instance: "ev\u{1B}[1mil",
                                       className: "Vault", title: title)
        defer { withExtendedLifetime(window) {} }
        let escaped = "\\x1B]0;owned\\x07\\x1B[2J\\u{9B}31mVault"
        let table = try desktop.run(["windows"], in: sandbox)
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdoutText.contains(escaped), table.stdoutText)
        XCTAssertTrue(table.stdoutText.contains("ev\\x1B[1mil"), table.stdoutText)
        let check = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdoutText.contains("Vault/ev\\x1B[1mil"), check.stdoutText)
        XCTAssertTrue(check.stdoutText.contains("\\u{9B}31mVault"), check.stdoutText)
        for output in [table.stdoutText, check.stdoutText] {
            XCTAssertFalse(output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, output)
        }
        // JSON keeps the title exact, escaped by JSON's rules.
        let json = try desktop.run(["windows", "--json"], in: sandbox)
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [[String: Any]])
        XCTAssertTrue(items.contains { $0["title"] as? String == title }, json.stdoutText)
        XCTAssertFalse(json.stdout.contains(0x1B), json.stdoutText)
    }

    /// A title too long for a `title~` to examine within its budget is undecided: the window
    /// is redacted (fail closed) and `regions check` says why.
    func testATitleTooLongToExamineIsRedactedAndNamed() throws {
        let window = try PaintedWindow(display: try desktop.display(), frame: Rect(x: 200, y: 20, width: 30, height: 20),
                                       content: PixelBuffer(width: 30, height: 20), instance: "long", className: "Long",
                                       title: String(repeating: "x", count: 20_000) + " bank")
        defer { withExtendedLifetime(window) {} }
        let id = hexID(UInt(window.id))
        let rules = try sandbox.write("long-rules", text: "window title~\"(a+)+$|bank\"\n")
        let check = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdoutText.contains("    window \(id) Long/long "), check.stdoutText)
        XCTAssertTrue(check.stdoutText.contains("    window \(id): its title~ could not be decided within the match budget"),
                      check.stdoutText)
    }
}
