// Rules for real desktops on the shared X11 scene: allow rules leave only what they name, a
// window given _SHOTGUARD_PROTECT is covered with no rule, a locked system policy keeps
// covering whatever the user's file says, and covers follow what is visible (not under ARGB).
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardX11
import ShotguardScene
import ShotguardTestSupport
import XCTest

final class X11AllowProtectPolicyTests: X11DesktopTestCase {
    nonisolated(unsafe) static let desktop = X11Scene.desktop()
    override class var sharedDesktop: X11Desktop { desktop }

    private var vault: String { hexID(desktop.ids[0]) }
    private let black: UInt32 = 0x000000

    /// What shows of the Vault (X11Scene.covers, line 2): Notes and Cover hide the rest.
    private var vaultPieces: [Rect] { X11Scene.covers.filter { $0.line == 2 }.map(\.rect) }

    override func tearDown() {
        if let name = try? desktop.name() {
            try? runTool("xprop", ["-id", vault, "-remove", "_SHOTGUARD_PROTECT"], display: name)
        }
        super.tearDown()
    }

    private func capture(_ extra: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (PixelBuffer, String) {
        let result = try desktop.run(["capture", "-o", "shot.png"] + extra, in: sandbox, file: file, line: line)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return (try sandbox.image("shot.png"), result.stderr)
    }

    /// The screen black everywhere but in `visible`.
    private func onlyVisible(_ visible: [Rect]) -> PixelBuffer {
        var black = PixelBuffer(width: desktop.width, height: desktop.height, fill: 0xFF00_0000)
        let screen = desktop.screen
        for rect in visible {
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX { black[x, y] = screen[x, y] }
            }
        }
        return black
    }

    // MARK: allow

    /// `screen` and an allowed window: only that window shows, the desktop background too is covered.
    func testScreenLessAnAllowedWindowLeavesOnlyThatWindow() throws {
        let rules = try sandbox.write("allow-chat", text: "screen\nallow window class=Chat\n")
        let (image, stderr) = try capture(["--regions", rules])
        XCTAssertEqual(stderr, "")
        assertSameColours(image, onlyVisible([Rect(x: 250, y: 150, width: 70, height: 90)]))
    }

    /// The allowed window's visible part only: Notes' corner and Cover over the Vault stay covered.
    func testWindowsOverTheAllowedOneStayCovered() throws {
        let rules = try sandbox.write("allow-vault", text: "screen\nallow window class=Vault\n")
        let (image, _) = try capture(["--regions", rules])
        assertSameColours(image, onlyVisible(vaultPieces))
        let check = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdoutText.contains("line 2: allow window class=Vault\n    allows window \(vault) Vault/vault "
            + "\"Vault – Personal\" at 100x80+40+30 -> 90x10+50+30, 100x20+40+40, 80x50+40+60 (partly under "), check.stdoutText)
        XCTAssertTrue(check.stdoutText.contains("    keeps visible 90x10+50+30 of line 1, 100x20+40+40 of line 1, 80x50+40+60 of line 1"),
                      check.stdoutText)
        XCTAssertTrue(check.stdoutText.contains("    screen -> "), check.stdoutText)
        XCTAssertTrue(check.stdoutText.contains(" black (partly kept visible by line 2) on screen"), check.stdoutText)
    }

    // MARK: protect

    func testAProtectedWindowIsCoveredWithNoRuleUntilItIsLetGo() throws {
        let set = try desktop.run(["protect", "--window", vault], in: sandbox)
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stdoutText, "window \(vault) Vault/vault \"Vault – Personal\": protected (_SHOTGUARD_PROTECT=1)\n")
        let listed = try desktop.run(["windows", "--json"], in: sandbox)
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.stdout)) as? [[String: Any]])
        XCTAssertEqual(items.filter { $0["protect"] as? Bool == true }.map { $0["id"] as? String }, [vault])

        // No regions file at all: the window that asks is covered all the same, and stderr says so.
        let (covered, stderr) = try capture([])
        assertSameColours(covered, Pixels.painted(desktop.screen, vaultPieces.map { ($0, black) }))
        XCTAssertEqual(stderr, "shotguard: warning: no regions file at \(sandbox.path(".config/shotguard/regions")), so no rule "
            + "protects this capture: only windows that ask for protection (_SHOTGUARD_PROTECT) were covered\n")
        let check = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertTrue(check.stdoutText.contains("\n_SHOTGUARD_PROTECT: windows that ask for protection\n    window \(vault) "),
                      check.stdoutText)

        let off = try desktop.run(["protect", "--window", vault, "--off"], in: sandbox)
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertEqual(off.stdoutText, "window \(vault) Vault/vault \"Vault – Personal\": no longer asks for protection\n")
        let (plain, plainError) = try capture([])
        assertSameColours(plain, desktop.screen)
        XCTAssertTrue(plainError.hasSuffix(": it was written unredacted\n"), plainError)
    }

    func testProtectNeedsOneWayToNameTheWindow() throws {
        for arguments in [["protect"], ["protect", "--window", vault, "--pick"]] {
            let result = try desktop.run(arguments, in: sandbox)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertEqual(result.stderr, "shotguard: protect: choose the window with either --window ID or --pick\n")
        }
        let gone = try desktop.run(["protect", "--window", "0x7ffffff"], in: sandbox)
        XCTAssertEqual(gone.status, 1)
        XCTAssertEqual(gone.stderr, "shotguard: window 0x7ffffff does not exist (it may have closed)\n")
    }

    /// `--pick` waits for a click (xdotool's, through XTEST) on the window to protect; Escape cancels.
    func testPickProtectsTheClickedWindowAndEscapeCancels() throws {
        let picked = try pick { try runTool("xdotool", ["mousemove", "300", "200", "click", "1"], display: try desktop.name()) }
        XCTAssertEqual(picked.status, 0, picked.stderr)
        let chat = hexID(desktop.ids[1])
        XCTAssertEqual(picked.stdout, "window \(chat) Chat/chat \"Team chat\": protected (_SHOTGUARD_PROTECT=1)\n")
        defer { try? runTool("xprop", ["-id", chat, "-remove", "_SHOTGUARD_PROTECT"], display: desktop.name()) }
        let regions = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertTrue(regions.stdoutText.contains("_SHOTGUARD_PROTECT: windows that ask for protection\n    window \(chat) Chat/chat"),
                      regions.stdoutText)

        let cancelled = try pick { try runTool("xdotool", ["key", "Escape"], display: try desktop.name()) }
        XCTAssertEqual(cancelled.status, 1)
        XCTAssertTrue(cancelled.stderr.hasSuffix("shotguard: protect --pick: cancelled; nothing was changed\n"), cancelled.stderr)
    }

    /// Runs `protect --pick`, waits until it has grabbed the pointer (its prompt on stderr),
    /// does `act`, and waits for it to end.
    private func pick(_ act: () throws -> Void) throws -> (status: Int32, stdout: String, stderr: String) {
        let output = sandbox.home.appendingPathComponent("pick.out"), errors = sandbox.home.appendingPathComponent("pick.err")
        for url in [output, errors] { try Data().write(to: url) }
        let changes = try FileChanges([errors.path])
        let process = Process()
        process.executableURL = try shotguardBinary()
        process.arguments = ["protect", "--pick"]
        process.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": sandbox.home.path,
                               "XDG_CONFIG_DIRS": sandbox.path("xdg"), "DISPLAY": try desktop.name()]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let text = { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }
        XCTAssertTrue(changes.wait(seconds: 10) { text().contains("click the window to protect (Escape cancels)") || !process.isRunning },
                      "the prompt: \(text())")
        try act()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "", text())
    }

    // MARK: system policy

    func testALockedSystemPolicyKeepsCoveringWhateverTheUserSays() throws {
        let policy = try sandbox.write("xdg/shotguard/regions", text: "lock\nwindow class=Vault\n")
        let user = try sandbox.write("mine", text: "allow screen\n")
        let (image, _) = try capture(["--regions", user])
        assertSameColours(image, Pixels.painted(desktop.screen, vaultPieces.map { ($0, black) }))

        let check = try desktop.run(["regions", "check", "--regions", user], in: sandbox)
        XCTAssertEqual(check.status, 0, check.stderr)
        let lines = check.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("system policy \(policy): 1 rule, locked at line 1: managed by the system"), check.stdoutText)
        XCTAssertTrue(lines.contains("line 2 of \(policy): window class=Vault (managed by the system)"), check.stdoutText)
        XCTAssertTrue(lines.contains("    cannot uncover line 2 of \(policy): managed by the system"), check.stdoutText)
        XCTAssertTrue(lines.contains("    keeps nothing visible (no cover it may lift is there)"), check.stdoutText)

        let watch = try desktop.run(["watch", "--no-guard", "--regions", user], in: sandbox)
        XCTAssertEqual(watch.status, 2)
        XCTAssertEqual(watch.stderr, "shotguard: watch --no-guard is refused: the system policy \(policy) is locked (line 1: lock), "
            + "so screenshots stay guarded\n")
    }

    func testAnUnlockedSystemPolicyYieldsToTheUsersAllow() throws {
        try sandbox.write("xdg/shotguard/regions", text: "window class=Vault\n")
        let (covered, coveredError) = try capture([])
        XCTAssertEqual(coveredError, "", "the system policy is a regions file: no warning")
        assertSameColours(covered, Pixels.painted(desktop.screen, vaultPieces.map { ($0, black) }))
        let user = try sandbox.write("mine", text: "allow window class=Vault\n")
        let (image, _) = try capture(["--regions", user])
        assertSameColours(image, desktop.screen)
    }

    func testAnErrorInASystemFileNamesIt() throws {
        let policy = try sandbox.write("xdg/shotguard/regions", text: "screen\nwindow klass=Vault\n")
        let result = try desktop.run(["capture", "-o", "shot.png", "--regions", rules], in: sandbox)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr, "shotguard: \(policy):2:8: unknown word 'klass=Vault' (expected class=, instance=, title=, "
            + "title~, type=, a geometry WxH+X+Y or fill=)\n")
        assertOnlyFiles(["rules", "xdg", "xdg/shotguard", "xdg/shotguard/regions"], in: sandbox)
    }

    // MARK: what is visible

    /// A translucent (ARGB) window over the Vault hides nothing: the Vault's cover goes under
    /// it whole, where an opaque window in its place is cut out.
    func testUnderAnARGBWindowTheCoverStaysWhole() throws {
        let frame = Rect(x: 60, y: 45, width: 30, height: 40)
        let rules = try sandbox.write("vault", text: "window class=Vault\n")
        for argb in [true, false] {
            let glass = try PaintedWindow(display: try desktop.display(), frame: frame, content: PixelBuffer(width: 30, height: 40, fill: 0xFFE0_E0E0),
                                          instance: "glass", className: "Glass", title: "glass", argb: argb)
            let (plain, _) = try capture(["--no-redact"])
            let (image, _) = try capture(["--regions", rules])
            let pieces = argb ? vaultPieces : vaultPieces.flatMap { $0.subtractingForTest(frame) }
            assertSameColours(image, Pixels.painted(plain, pieces.map { ($0, black) }))
            XCTAssertEqual(image[70, 60] & 0xFF_FFFF, argb ? black : 0xE0_E0E0, "argb: \(argb)")
            glass.destroy()
        }
    }
}

private extension Rect {
    /// This rectangle less `hole`, as pixels: the expected pieces' union is what matters.
    func subtractingForTest(_ hole: Rect) -> [Rect] {
        var rows: [Rect] = []
        for y in self.y..<maxY {
            var x = self.x
            while x < maxX {
                if hole.contains(x: x, y: y) { x += 1; continue }
                let start = x
                while x < maxX, !hole.contains(x: x, y: y) { x += 1 }
                rows.append(Rect(x: start, y: y, width: x - start, height: 1))
            }
        }
        return rows
    }
}
