// `field` rules against a real GTK3 window on Xvfb, through its AT-SPI2 bus: capture, regions check, watch.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

final class FieldRuleTests: XCTestCase {
    nonisolated(unsafe) private static var desktop: AccessibleDesktop?
    nonisolated(unsafe) private static var failure = ""

    override class func setUp() {
        do {
            desktop = try AccessibleDesktop()
        } catch {
            failure = "cannot set up the GTK desktop: \(error)"
        }
    }

    override class func tearDown() {
        desktop?.stop()
        desktop = nil
    }

    private var desk: AccessibleDesktop!
    private var sandbox: Sandbox!
    static let magenta: UInt32 = 0xFF00FF
    static let rules = "field role=password fill=#ff00ff\n"

    override func setUpWithError() throws {
        guard let desktop = Self.desktop else { throw FixtureError(Self.failure) }
        desk = desktop
        sandbox = try Sandbox(self)
    }

    private func run(_ arguments: [String], bus: String? = nil, display: String? = nil) throws -> RunResult {
        try sandbox.run(arguments, environment: ["DISPLAY": display ?? desk.name, "DBUS_SESSION_BUS_ADDRESS": bus ?? desk.busAddress])
    }

    func testCaptureFillsThePasswordFieldExactlyAndLeavesTheNormalEntry() throws {
        let regions = try sandbox.write("regions", text: Self.rules)
        let plain = try run(["capture", "--no-redact", "-o", sandbox.path("plain.png")])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let redacted = try run(["capture", "--regions", regions, "-o", sandbox.path("redacted.png")])
        XCTAssertEqual(redacted.status, 0, redacted.stderr)
        XCTAssertEqual(redacted.stderr, "")
        let original = try sandbox.image("plain.png")
        assertSameColours(try sandbox.image("redacted.png"), Pixels.painted(original, [(desk.passwordRect, Self.magenta)]))
        // The password entry showed something else before: the fill is the redaction's doing.
        XCTAssertNotEqual(original[desk.passwordRect.x + 5, desk.passwordRect.y + 5] & 0xFFFFFF, Self.magenta)
    }

    func testRegionsCheckListsThePasswordFieldWithItsApplication() throws {
        let regions = try sandbox.write("regions", text: Self.rules + "field role=text name~nothing-is-called-this\n")
        let result = try run(["regions", "check", "--regions", regions])
        XCTAssertEqual(result.status, 0, result.stderr)
        // The monitors listed under the heading are another test's subject.
        let lines = result.stdoutText.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("monitor ") }
        XCTAssertEqual(lines.count, 6, result.stdoutText)
        XCTAssertEqual(lines[1], "line 1: field role=password fill=#ff00ff")
        XCTAssertTrue(lines[2].hasPrefix("    field password \"\" of application "), lines[2])
        XCTAssertTrue(lines[2].hasSuffix(" at \(desk.passwordRect) -> \(desk.passwordRect) #ff00ff"), lines[2])
        XCTAssertEqual(lines[3], "line 2: field role=text name~nothing-is-called-this")
        XCTAssertEqual(lines[4], "    hits nothing")
        XCTAssertEqual(lines[5], "shield: watch --shield covers this rectangle on its key")
    }

    func testRegionsShowOutlinesThePasswordField() throws {
        let regions = try sandbox.write("regions", text: Self.rules)
        let result = try run(["regions", "show", "--regions", regions, "-o", sandbox.path("show.png")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let image = try sandbox.image("show.png")
        let rect = desk.passwordRect
        // The outline's bottom-right corner (the label tab covers the top-left).
        XCTAssertEqual(image[rect.maxX - 1, rect.maxY - 1] & 0xFFFFFF, 0xFF2020)
    }

    func testAScrotScreenshotIsReportedWithThePasswordFieldFilled() throws {
        guard programExists("scrot") else { throw FixtureError("scrot is not installed (Debian package 'scrot')") }
        let regions = try sandbox.write("regions", text: Self.rules)
        let shots = sandbox.path("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let plain = try run(["capture", "--no-redact", "-o", sandbox.path("plain.png")])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name, environment: ["DBUS_SESSION_BUS_ADDRESS": desk.busAddress])
        XCTAssertEqual(watch.events("fields").first?["showing"] as? Int, 1,
                       "the password field, through the accessibility bus: \(watch.log)")
        try runTool("scrot -o '\(shots)/login.png'", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        let redactions = report.json["redactions"] as? [[String: Any]] ?? []
        XCTAssertEqual(redactions.compactMap { $0["geometry"] as? String }, ["\(desk.passwordRect)"])
        let image = try XCTUnwrap(report.image, watch.log)
        let expected = Pixels.painted(try sandbox.image("plain.png"), [(desk.passwordRect, Self.magenta)])
        assertSameColours(image, expected)
        // Guard rewrote the screenshot itself: the file holds the fill too.
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", watch.log)
        assertSameColours(try sandbox.image("shots/login.png"), expected)
    }

    /// The shield covers fields too: on the key, the password entry is under its cover (in the
    /// rule's colour) before any tool could read the screen; the normal entry is not.
    func testTheShieldCoversThePasswordFieldOnTheKey() throws {
        let regions = try sandbox.write("regions", text: Self.rules)
        let plain = try run(["capture", "--no-redact", "-o", sandbox.path("plain.png")])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let watch = try WatchAgent(["--regions", regions, "--shield", "--no-files", "--no-clipboard", "--no-tools"],
                                   sandbox: sandbox, display: desk.name,
                                   environment: ["DBUS_SESSION_BUS_ADDRESS": desk.busAddress])
        try runTool("xdotool key Print", display: desk.name)
        XCTAssertTrue(watch.waitForEvent("shield-key") { $0["covers"] as? Int == 1 }, watch.log)
        let shielded = try run(["capture", "--no-redact", "-o", sandbox.path("shielded.png")])
        XCTAssertEqual(shielded.status, 0, shielded.stderr)
        assertSameColours(try sandbox.image("shielded.png"),
                          Pixels.painted(try sandbox.image("plain.png"), [(desk.passwordRect, Self.magenta)]))
        XCTAssertTrue(watch.waitForCoversDown(), watch.log)
    }

    /// The shield's cover over the field is no window of the user's: a field rule that names
    /// the field's window still hits while the cover is up, so a screenshot that missed the
    /// cover (a tool that read the screen before it was mapped) is still redacted by guard.
    func testAFieldRuleNamingItsWindowStillHitsWhileTheShieldCoversIt() throws {
        let listing = try run(["windows", "--json"])
        let windows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listing.stdout)) as? [[String: Any]])
        let login = try XCTUnwrap(windows.first { $0["title"] as? String == "Login" }, listing.stdoutText)
        let windowClass = try XCTUnwrap(login["class"] as? String)
        let regions = try sandbox.write("regions", text: "field role=password class=\(windowClass) fill=#ff00ff\n")
        let shots = sandbox.path("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let plain = try run(["capture", "--no-redact", "-o", sandbox.path("plain.png")])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let watch = try WatchAgent(["--regions", regions, "--shield", "--dir", shots, "--no-clipboard", "--no-tools"],
                                   sandbox: sandbox, display: desk.name,
                                   environment: ["DBUS_SESSION_BUS_ADDRESS": desk.busAddress])
        try runTool("xdotool key Print", display: desk.name)
        XCTAssertTrue(watch.waitForEvent("shield-key") { $0["covers"] as? Int == 1 }, watch.log)
        // What a tool that read the screen before the cover was up saved: no cover in it.
        try runTool("cp '\(sandbox.path("plain.png"))' '\(shots)/Screenshot from 2026-12-02 11-00-00.png'", display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        XCTAssertEqual((report.json["guard"] as? [String: Any])?["file"] as? String, "rewritten", watch.log)
        assertSameColours(try sandbox.image("shots/Screenshot from 2026-12-02 11-00-00.png"),
                          Pixels.painted(try sandbox.image("plain.png"), [(desk.passwordRect, Self.magenta)]))
    }

    func testWithoutAnAccessibilityBusAFieldRuleHitsNothingAndSaysHowToEnableIt() throws {
        let server = try VirtualDisplay(width: 64, height: 48)
        defer { server.stop() }
        let regions = try sandbox.write("regions", text: Self.rules)
        let missing = "unix:path=" + sandbox.path("no-bus")
        let check = try run(["regions", "check", "--regions", regions], bus: missing, display: server.name)
        XCTAssertEqual(check.status, 0, check.stderr)
        let lines = check.stdoutText.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("monitor ") }
        XCTAssertEqual(lines.count, 5, check.stdoutText)
        XCTAssertTrue(lines[1].hasPrefix("no accessibility bus (AT-SPI2) in this session: field rules hit nothing"), lines[1])
        for advice in ["QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1", "--force-renderer-accessibility", "toolkit-accessibility"] {
            XCTAssertTrue(lines[1].contains(advice), lines[1])
        }
        XCTAssertEqual(Array(lines[2...]), ["line 1: field role=password fill=#ff00ff", "    hits nothing",
                                            "shield: watch --shield covers nothing on its key"])
        let capture = try run(["capture", "--regions", regions, "-o", sandbox.path("out.png")], bus: missing, display: server.name)
        XCTAssertEqual(capture.status, 0, capture.stderr)
        XCTAssertEqual(capture.stderr.split(separator: "\n").count, 1, capture.stderr)
        XCTAssertTrue(capture.stderr.hasPrefix("shotguard: no accessibility bus"), capture.stderr)
        let watch = try WatchAgent(["--regions", regions, "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: server.name, environment: ["DBUS_SESSION_BUS_ADDRESS": missing])
        XCTAssertEqual(watch.events("fields").map { $0["state"] as? String }, ["unavailable"], watch.log)
        watch.send(SIGTERM)
        XCTAssertEqual(watch.waitForExit(seconds: 10), 0, watch.log)
    }
}
