// `shotguard watch --shield` against openbox whose Print binding runs scrot, driven by xdotool.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest
import ShotguardScene
import ShotguardScreen

final class WatchShieldTests: XCTestCase {
    nonisolated(unsafe) private static var desktop: WatchDesktop?
    nonisolated(unsafe) private static var failure = ""
    nonisolated(unsafe) private static var folder = ""

    /// The window manager's configuration: Print runs scrot into the suite's folder, as a
    /// desktop's own key binding would. scrot adds a number to a name that is taken.
    private static func windowManagerConfig(shots: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <openbox_config xmlns="http://openbox.org/3.4/rc">
          <keyboard>
            <keybind key="Print">
              <action name="Execute"><command>scrot \(shots)/scrot.png</command></action>
            </keybind>
          </keyboard>
        </openbox_config>

        """
    }

    override class func setUp() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-shield-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: folder + "/shots", withIntermediateDirectories: true)
            let config = folder + "/rc.xml"
            try windowManagerConfig(shots: folder + "/shots").write(toFile: config, atomically: true, encoding: .utf8)
            desktop = try WatchDesktop(windowManagerConfig: config)
            desktop?.vault.listenForClicks()
        } catch {
            failure = "cannot set up the desktop: \(error)"
        }
    }

    override class func tearDown() {
        desktop?.stop()
        desktop = nil
        try? FileManager.default.removeItem(atPath: folder)
    }

    private var desk: WatchDesktop!
    private var sandbox: Sandbox!
    private var regions = ""
    private var shots: String { Self.folder + "/shots" }

    override func setUpWithError() throws {
        guard let desktop = Self.desktop else { throw FixtureError(Self.failure) }
        desk = desktop
        sandbox = try Sandbox(self)
        // The whole Vault window, its frame and title bar included.
        regions = try sandbox.write("regions", text: "window class=Vault\n")
    }

    private func agent(_ extra: [String]) throws -> WatchAgent {
        try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools", "--no-guard"] + extra,
                       sandbox: sandbox, display: desk.name)
    }

    private func vaultFrame() throws -> Rect { try desk.display.windowInfo(desk.vault.id).outerFrame }

    private func shotNames() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: shots)) ?? []) }

    /// Presses Print and returns scrot's screenshot, once it is whole.
    private func pressPrint() throws -> PixelBuffer {
        let before = shotNames()
        try runTool("xdotool key Print", display: desk.name)
        var image: PixelBuffer?
        let deadline = Date().addingTimeInterval(10)
        while image == nil, Date() < deadline {
            if let name = shotNames().subtracting(before).first,
               let bytes = FileManager.default.contents(atPath: shots + "/" + name) {
                image = try? PNGDecoder.decode([UInt8](bytes), source: name)
            }
            if image == nil { usleep(10_000) }
        }
        return try XCTUnwrap(image, "scrot wrote no screenshot after Print")
    }

    func testTwentyPrintScreenshotsShowTheFillOverTheWindowAndNothingElseChanged() throws {
        let watch = try agent(["--shield"])
        XCTAssertEqual(watch.events("watching").first?["keys"] as? [String], ["Print"], watch.log)
        let frame = try vaultFrame()
        // Grabbed once: a test grabbing the screen before each of twenty quick presses reads it
        // several times a second, which the agent rightly takes for a recording.
        let screen = try desk.screen()
        // The window manager starts scrot as the agent maps the covers: on a machine too busy
        // to run the agent first, scrot can win. Such a press must be one the agent says it may
        // have lost (guard, off here, would handle its file); most presses are covered.
        var lost = 0
        let lowered = { watch.events.filter { $0["event"] as? String == "covers-shown" && $0["covers"] as? Int == 0 }.count }
        for press in 1...20 {
            let before = lowered()
            let shot = try pressPrint()
            // Down again once the key's screenshot was read and scrot disconnected.
            XCTAssertTrue(watch.waitForEvent("covers-shown", count: 1, seconds: 10) { _ in lowered() > before },
                          "press \(press): \(watch.log)")
            if shot[frame.x + frame.width / 2, frame.y + frame.height / 2] & 0xFF_FFFF != 0 {
                lost += 1
                XCTAssertTrue(watch.waitForEvent("shield-lost", count: lost, seconds: 10),
                              "press \(press): scrot read the screen before the cover was up and the agent did not say so: "
                              + "\(watch.log.suffix(800))")
                continue
            }
            assertRedacted(shot, origin: Rect(x: 0, y: 0, width: 640, height: 400), screen: screen,
                           expected: [(frame, 0x000000)])
        }
        XCTAssertLessThan(lost, 10, "scrot won the race \(lost) times in 20")
        if lost > 0 { print("WatchShieldTests: the shield lost the race \(lost) of 20 times on this machine now") }
        // The covers are down: the screen shows the window again.
        let after = try desk.screen()
        XCTAssertNotEqual(after[frame.x + frame.width / 2, frame.y + frame.height / 2] & 0xFF_FFFF, 0)
        let report = try XCTUnwrap(watch.nextReport(), watch.log)
        let shield = try XCTUnwrap(report.json["shield"] as? [String: Any], "the report records the shield")
        XCTAssertNotNil(shield["keyTime"] as? String)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(shield["mappedAfterMs"] as? Double), 0)
        XCTAssertEqual(shield["covers"] as? Int, 1)
    }

    /// Under a compositing manager (picom, xrender backend) a mapped cover reached the screen's
    /// pixels only with picom's next frame, and a frame picom composed before it heard of the
    /// map (its repaint of the last lowering) painted the window back. Regression: a client that
    /// reads the screen the moment it is told of the cover's map (Tests/Scripts/key-reader.py,
    /// trusted, so its reads raise no covers of their own) saw the window. Ten presses back to
    /// back, each the moment the last cover came down: every read shows the fill over the window
    /// and the rest of the screen as it was; once the covers are down and picom has painted
    /// where they were (in one frame or more: the reader reads again at each paint there, 10 s
    /// in all), the screen there and around it is as before (elsewhere the agent's recording
    /// indicator now shows: the reader's last wait is a DAMAGE watch).
    func testUnderPicomAReadTheMomentTheCoverIsUpShowsTheFillAndTheScreenIsWholeAfter() throws {
        _ = try requireTool("picom", package: "picom")
        let environment = ["DISPLAY": desk.name, "HOME": sandbox.home.path]
        let uncomposited = try desk.screen()
        let picom = try ChildProcess("picom", ["--backend", "xrender", "--no-vsync", "--config", "/dev/null"], environment: environment)
        defer { picom.stop() }
        // Composing once picom owns the selection and its first frame is on the screen: picom
        // paints the desktop in its own grey (the root's background is no pixmap it reads), so
        // the screen changes then. Before the agent starts, whose covers these reads would raise.
        func composing() throws -> Bool {
            try desk.display.selectionOwner("_NET_WM_CM_S0") != nil && desk.screen().pixels != uncomposited.pixels
        }
        let deadline = Date().addingTimeInterval(10)
        while try !composing(), Date() < deadline, !picom.hasExited { usleep(20_000) }
        XCTAssertTrue(try composing(), "picom did not start compositing")
        regions = try sandbox.write("regions", text: "window class=Vault\ntrust program=python3\n")
        // F9 is bound to nothing: no screenshot tool reads the screen but the test's reader.
        let watch = try agent(["--shield", "--shield-key", "F9"])
        let frame = try vaultFrame()
        let folder = sandbox.path("reads")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let reader = try ChildProcess("/usr/bin/python3", [repositoryFile("Tests/Scripts/key-reader.py").path, "10", "F9", folder],
                                      environment: environment, output: .standardError)
        XCTAssertEqual(reader.waitForExit(), 0, "the key reader failed: \(watch.log.suffix(800))")
        func read(_ name: String) throws -> PixelBuffer {
            try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))), source: name)
        }
        let before = try read("before.png")
        let screen = Rect(x: 0, y: 0, width: before.width, height: before.height)
        for press in 0..<10 {
            assertRedacted(try read("press-\(press).png"), origin: screen, screen: before, expected: [(frame, 0x000000)])
        }
        let around = Rect(x: max(0, frame.x - 8), y: max(0, frame.y - 8), width: frame.width + 16, height: frame.height + 16)
            .intersection(screen)
        assertRedacted(try read("after.png").cropped(to: around), origin: around, screen: before, expected: [])
        XCTAssertEqual(watch.events("shield-key").count, 10, watch.log)
    }

    /// Without --shield, Print puts no covers up: scrot's screenshot shows the window (its read
    /// puts them up afterwards, the recordings' shield, and they come down as scrot leaves).
    func testWithoutTheShieldTheWindowShows() throws {
        let screen = try desk.screen()
        let watch = try agent([])
        let shot = try pressPrint()
        assertRedacted(shot, origin: Rect(x: 0, y: 0, width: 640, height: 400), screen: screen, expected: [])
        XCTAssertEqual(watch.events("shield-key").count, 0, watch.log)
    }

    /// F9, bound to nothing, raises the covers for their full 3 s: clicks pass through them to
    /// the window beneath, and after they come down clicks reach it as before.
    func testClicksPassThroughTheCoversAndTheyComeDown() throws {
        let watch = try agent(["--shield", "--shield-key", "F9"])
        let frame = try vaultFrame()
        let centre = (x: frame.x + frame.width / 2, y: frame.y + frame.height / 2)
        try runTool("xdotool key F9", display: desk.name)
        XCTAssertTrue(watch.waitForEvent("shield-key"), watch.log)
        XCTAssertEqual(try desk.screen()[centre.x, centre.y] & 0xFF_FFFF, 0, "the cover is up")
        try runTool("xdotool mousemove \(centre.x) \(centre.y) click 1", display: desk.name)
        XCTAssertTrue(desk.vault.waitForClick(seconds: 5), "the click went to the cover, not the window")
        XCTAssertTrue(watch.waitForCoversDown(), watch.log)
        XCTAssertNotEqual(try desk.screen()[centre.x, centre.y] & 0xFF_FFFF, 0, "the cover came down")
        try runTool("xdotool mousemove \(centre.x + 5) \(centre.y + 5) click 1", display: desk.name)
        XCTAssertTrue(desk.vault.waitForClick(seconds: 5), "a click after the shield reaches the window")
    }
}
