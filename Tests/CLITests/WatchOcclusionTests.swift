// A photo shown 1:1 in ImageMagick's viewer partly over the protected window, then copied into
// ~/Pictures: guard leaves the copy byte for byte, with RECORD (no program read the screen for it)
// and without (its pixels are the screen's, but the rule covers only the Vault's visible part,
// none of which is inside the viewer).
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardScene
import ShotguardScreen
import ShotguardTestSupport
import ShotguardX11
import XCTest

/// The scene both suites share: an 800x600 desktop (room for the viewer), the whole Vault
/// protected, and a 500x400 photo that is nowhere on the screen until the viewer shows it.
class WatchOcclusionTestCase: WatchDesktopTestCase {
    override class var screenSize: (width: Int, height: Int) { (800, 600) }

    /// Where the viewer's frame goes: over the Vault's right half and lower rows, not all of it.
    static let viewerPosition = (x: 150, y: 100)

    let photo = WatchDesktop.pattern(width: 500, height: 400, seed: 4242)

    /// Shows `photo` (made/photo.png) in `display` at `viewerPosition` and returns the viewer
    /// (stop it when done) and where the photo is on the screen (its client area).
    func showPhoto() throws -> (viewer: ChildProcess, area: Rect) {
        // ImageMagick's own program, not a wrapper that may stand before it in PATH.
        let program = "/usr/bin/display"
        guard FileManager.default.isExecutableFile(atPath: program) else {
            XCTFail("\(program) is not installed (Debian package imagemagick; scripts/install-deps.sh installs it)")
            throw FixtureError("\(program) is not installed")
        }
        let path = try sandbox.write("made/photo.png", png: photo)
        let viewer = try ChildProcess(program, ["-immutable", "-geometry", "+\(Self.viewerPosition.x)+\(Self.viewerPosition.y)", path],
                                      environment: ["DISPLAY": desk.name], output: .standardError)
        var shown: WindowInfo?
        let found = desk.display.waitForWindows(seconds: 20) { context in
            shown = context.windows.first { $0.className == "Display" && $0.isViewable && $0.frame.width == 500 && $0.frame.height == 400 }
            return shown != nil || viewer.hasExited
        }
        guard found, let window = shown else {
            viewer.stop()
            throw FixtureError("ImageMagick's display showed no 500x400 window")
        }
        let vault = try desk.display.windowInfo(desk.vault.id).outerFrame
        let over = window.opaqueArea.intersection(vault)
        XCTAssertTrue(!over.isEmpty && over != vault, "the viewer \(window.opaqueArea) is partly over the Vault \(vault)")
        return (viewer, window.frame)
    }

    /// Whether the screen shows the photo 1:1 at `area`.
    func screenShowsPhoto(at area: Rect) throws -> Bool {
        let screen = try desk.screen()
        for y in 0..<photo.height {
            for x in 0..<photo.width where screen[area.x + x, area.y + y] & 0xFF_FFFF != photo[x, y] & 0xFF_FFFF { return false }
        }
        return true
    }

    /// Starts the agent with the whole Vault protected, watching its default folders (~/Pictures
    /// among them).
    func agent() throws -> WatchAgent {
        try FileManager.default.createDirectory(atPath: sandbox.path("Pictures"), withIntermediateDirectories: true)
        let rules = try sandbox.write("vault", text: "window class=Vault\n")
        return try WatchAgent(["--regions", rules, "--no-clipboard", "--no-tools"], sandbox: sandbox, display: desk.name)
    }

    /// `cp` of the photo into ~/Pictures; the copy's path.
    func copyPhoto() throws -> String {
        let copy = sandbox.path("Pictures/photo.png")
        try runTool("cp '\(sandbox.path("made/photo.png"))' '\(copy)'", display: desk.name)
        return copy
    }
}

final class WatchOcclusionTests: WatchOcclusionTestCase {
    /// With RECORD no program read the screen for the copy: it is not even read.
    func testAPhotoShownOverTheVaultAndCopiedIntoPicturesIsLeftAlone() throws {
        let (viewer, area) = try showPhoto()
        defer { viewer.stop() }
        let watch = try agent()
        let copy = try copyPhoto()
        let examined = try XCTUnwrap(watch.waitForExamined(copy), watch.log)
        XCTAssertEqual(examined["outcome"] as? String, "left", "\(examined)")
        XCTAssertEqual(examined["why"] as? String, "no-screen-read", "not even read: \(examined)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), Data(try sandbox.bytes("made/photo.png")), "the copy's bytes")
        XCTAssertTrue(examined["file"] is NSNull, "guard did nothing to it: \(examined)")
        // The scene was real: the viewer showed the photo 1:1 (looked at only now: a read of the
        // test's own before the copy would have been one for the agent to weigh).
        XCTAssertTrue(try screenShowsPhoto(at: area), "the viewer shows the photo 1:1 at \(area)")
    }
}

final class WatchOcclusionWithoutRecordTests: WatchOcclusionTestCase {
    override class var serverHasRecord: Bool { false }

    /// Without RECORD the copy's pixels are the screen's, so it counts as a screenshot; the rule
    /// covers only what shows of the Vault, and none of that is inside the viewer.
    func testAPhotoShownOverTheVaultAndCopiedIntoPicturesIsLeftAlone() throws {
        let (viewer, area) = try showPhoto()
        defer { viewer.stop() }
        // The viewer paints in its own time once its window is mapped, and nothing tells this
        // process when: the screen is looked at again (each look a round trip) until it shows the
        // photo, a bounded number of times.
        var painted = try screenShowsPhoto(at: area)
        for _ in 0..<50 where !painted { painted = try screenShowsPhoto(at: area) }
        XCTAssertTrue(painted, "the viewer shows the photo 1:1 at \(area)")
        let watch = try agent()
        let copy = try copyPhoto()
        let examined = try XCTUnwrap(watch.waitForExamined(copy), watch.log)
        XCTAssertEqual(examined["outcome"] as? String, "placed", "its pixels are the screen's: \(examined)")
        XCTAssertEqual(examined["geometry"] as? String, "\(area)", "\(examined)")
        XCTAssertEqual(examined["rectangles"] as? Int, 0, "\(examined)")
        XCTAssertTrue(watch.waitUntilSettled(examined: 1), "\(watch.events)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), Data(try sandbox.bytes("made/photo.png")), "the copy's bytes")
        XCTAssertEqual(examined["file"] as? String, "unchanged", "guard left it as it was: \(examined)")
    }
}
