// Monitor rules, `capture --monitor`, `monitors`, and monitors in `windows` and `regions check`,
// on an Xvfb with two RandR monitors.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class X11MonitorCommandTests: X11DesktopTestCase {
    nonisolated(unsafe) static let desktop = X11Desktop(width: 640, height: 240, windows: [
        DesktopWindow(frame: Rect(x: 40, y: 40, width: 100, height: 60), colours: [0xE01010, 0x10E010, 0x1010E0, 0xE0E010],
                      className: "Mail", instance: "mail", title: "Mail"),
        // 40 pixels on LEFT, 60 on RIGHT: RIGHT holds most of it.
        DesktopWindow(frame: Rect(x: 280, y: 120, width: 100, height: 60), colours: [0xF01818, 0x18F018, 0x1818F0, 0xF0F018],
                      className: "Chat", instance: "chat", title: "Chat"),
    ])
    override class var sharedDesktop: X11Desktop { desktop }
    nonisolated(unsafe) private static var monitorFailure: String?

    override class func setUp() {
        super.setUp()
        do {
            try TwoMonitors.make(on: try desktop.name())
        } catch {
            monitorFailure = "cannot make two monitors: \(error)"
        }
    }

    override class var rulesText: String {
        """
        monitor name=RIGHT 40x20-0+0 fill=#ff0000     # the clock of the right monitor
        monitor primary 25%x50%+0-0 fill=#00ff00      # bottom-left of the primary (LEFT)
        monitor 10x10+0+0 fill=#0000ff                # top-left of every monitor
        monitor name=GONE fill=#ffffff                # not connected: hits nothing
        screen 20x20-0-0 fill=#ffff00

        """
    }

    /// What the rules cover on the 640x240 screen, worked out by hand.
    private let covers: [(Rect, UInt32)] = [
        (Rect(x: 600, y: 0, width: 40, height: 20), 0xFF0000),
        (Rect(x: 0, y: 120, width: 80, height: 120), 0x00FF00),
        (Rect(x: 0, y: 0, width: 10, height: 10), 0x0000FF),
        (Rect(x: 320, y: 0, width: 10, height: 10), 0x0000FF),
        (Rect(x: 620, y: 220, width: 20, height: 20), 0xFFFF00),
    ]

    override func setUpWithError() throws {
        try super.setUpWithError()
        if let failure = Self.monitorFailure { throw FixtureError(failure) }
    }

    private func expected(_ area: Rect) -> PixelBuffer {
        Pixels.painted(desktop.screen.cropped(to: area), Pixels.covers(covers, inImageAt: area))
    }

    func testMonitorRulesApplyToAScreenCapture() throws {
        let result = try desktop.run(["capture", "--screen", "--regions", rules, "-o", "shot.png"], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        assertSameColours(try sandbox.image("shot.png"), expected(desktop.screen.bounds))
    }

    func testCaptureOneMonitorByName() throws {
        let result = try desktop.run(["capture", "--monitor", "RIGHT", "--regions", rules, "-o", "right.png"], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        assertSameColours(try sandbox.image("right.png"), expected(TwoMonitors.right))
    }

    func testCaptureThePrimaryMonitor() throws {
        let result = try desktop.run(["capture", "--monitor", "primary", "--regions", rules, "-o", "primary.png"], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        assertSameColours(try sandbox.image("primary.png"), expected(TwoMonitors.left))
    }

    func testAnUnknownMonitorFailsListingTheMonitors() throws {
        let result = try desktop.run(["capture", "--monitor", "DP-9", "--regions", rules, "-o", "none.png"], in: sandbox)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "shotguard: capture --monitor: no monitor named 'DP-9' (monitors: LEFT (primary), RIGHT)\n")
        XCTAssertFalse(sandbox.contents().contains("none.png"))
    }

    func testMonitorsListsNameGeometryAndPrimary() throws {
        let table = try desktop.run(["monitors"], in: sandbox)
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertEqual(table.stdoutText, """
              NAME                  GEOMETRY
            * LEFT                  320x240+0+0
              RIGHT                 320x240+320+0

            """)
        XCTAssertEqual(try desktop.run(["monitors", "--names"], in: sandbox).stdoutText, "LEFT\nRIGHT\n")
        let json = try desktop.run(["monitors", "--json"], in: sandbox)
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdoutText.utf8)) as? [[String: Any]])
        XCTAssertEqual(items.map { $0["name"] as? String }, ["LEFT", "RIGHT"])
        XCTAssertEqual(items.map { $0["geometry"] as? String }, ["320x240+0+0", "320x240+320+0"])
        XCTAssertEqual(items.map { $0["primary"] as? Bool }, [true, false])
        XCTAssertEqual(items.map { $0["x"] as? Int }, [0, 320])
    }

    func testWindowsNameTheMonitorThatHoldsMostOfEach() throws {
        let json = try desktop.run(["windows", "--json"], in: sandbox)
        XCTAssertEqual(json.status, 0, json.stderr)
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdoutText.utf8)) as? [[String: Any]])
        let monitors = Dictionary(uniqueKeysWithValues: items.map { ($0["class"] as? String ?? "", $0["monitor"] as? String) })
        XCTAssertEqual(monitors, ["Mail": "LEFT", "Chat": "RIGHT"])
        let table = try desktop.run(["windows"], in: sandbox).stdoutText.split(separator: "\n").map(String.init)
        XCTAssertTrue(table.contains { $0.contains(" LEFT ") && $0.hasSuffix("Mail") }, table.joined(separator: "\n"))
        XCTAssertTrue(table.contains { $0.contains(" RIGHT ") && $0.hasSuffix("Chat") }, table.joined(separator: "\n"))
    }

    func testRegionsCheckPrintsAbsoluteRectanglesAndMonitors() throws {
        let result = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        let expected = [
            "\(rules): 5 rules; screen 640x240, 2 viewable windows, 2 monitors",
            "monitor LEFT 320x240+0+0 primary",
            "monitor RIGHT 320x240+320+0",
            "line 1: monitor name=RIGHT 40x20-0+0 fill=#ff0000",
            "    monitor RIGHT at 320x240+320+0 -> 40x20+600+0 #ff0000",
            "line 2: monitor primary 25%x50%+0-0 fill=#00ff00",
            "    monitor LEFT at 320x240+0+0 -> 80x120+0+120 #00ff00",
            "line 3: monitor 10x10+0+0 fill=#0000ff",
            "    monitor LEFT at 320x240+0+0 -> 10x10+0+0 #0000ff",
            "    monitor RIGHT at 320x240+320+0 -> 10x10+320+0 #0000ff",
            "line 4: monitor name=GONE fill=#ffffff",
            "    hits nothing: monitor 'GONE' is not present (monitors: LEFT, RIGHT)",
            "line 5: screen 20x20-0-0 fill=#ffff00",
            "    screen -> 20x20+620+220 #ffff00 on RIGHT",
            "shield: watch --shield covers these 5 rectangles on its key",
        ]
        XCTAssertEqual(lines, expected)
    }
}
