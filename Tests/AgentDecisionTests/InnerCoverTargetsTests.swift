// What the shield covers inside each protected window: the window rules' parts of it and the fields found in it, in its own coordinates.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import ShotguardX11
import XCTest
@testable import ShotguardAgent

final class InnerCoverTargetsTests: XCTestCase {
    private let vault = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault",
                                   frame: Rect(x: 100, y: 120, width: 400, height: 300), isViewable: true,
                                   outerFrame: Rect(x: 99, y: 100, width: 402, height: 321))
    private let browser = WindowInfo(id: 5, className: "firefox", instance: "Navigator", title: "Log in",
                                     frame: Rect(x: 600, y: 50, width: 600, height: 500), isViewable: true)

    /// The whole vault by a child larger than any window, and its frame (its title bar) by one
    /// in the frame; a row of it by its rectangle; a
    /// password field in the browser (which no window rule names) by the whole field, in the
    /// browser's own coordinates — a share of the browser's window shows the field there.
    func testWindowRulesAndFieldsInsideEachWindow() throws {
        let rules = try RegionsFile.parse("window class=Vault\nwindow class=Vault 100%x40+0+20 fill=#00ff00\n", path: "regions")
        let context = ScreenContext(width: 1280, height: 800, windows: [vault, browser])
        let field = AccessibleField(role: .password, name: "Password", rect: Rect(x: 700, y: 300, width: 200, height: 30),
                                    application: "Firefox")
        let fieldHit = RegionHit(line: 3, fill: .black, rect: Rect(x: 700, y: 300, width: 120, height: 30), windowID: 5, field: field,
                                 zone: Rect(x: 700, y: 300, width: 200, height: 30))
        let notAField = RegionHit(line: 4, fill: .black, rect: Rect(x: 0, y: 0, width: 64, height: 32))
        let targets = InnerCoverTargets.of(rules.protectedWindows(against: context), fields: [fieldHit, notAField], on: context)
        let size = Int(ShieldInnerCovers.size)
        XCTAssertEqual(targets, [
            InnerCoverTarget(window: 9, rects: [Rect(x: 0, y: 0, width: size, height: size), Rect(x: 0, y: 20, width: 400, height: 40)],
                             coversFrame: true, rgb: 0x000000),
            InnerCoverTarget(window: 5, rects: [Rect(x: 100, y: 250, width: 200, height: 30)], rgb: 0x000000),
        ])
    }

    /// A vault with no decorations (dwm frames nothing), or one only a row of which a rule
    /// names: nothing of a frame is covered.
    func testNoFrameIsCoveredWithoutDecorationsOrAWholeWindowRule() throws {
        var bare = vault
        bare.outerFrame = bare.frame
        let whole = try RegionsFile.parse("window class=Vault\n", path: "regions")
        let row = try RegionsFile.parse("window class=Vault 100%x40+0+20\n", path: "regions")
        let bareContext = ScreenContext(width: 1280, height: 800, windows: [bare])
        let framedContext = ScreenContext(width: 1280, height: 800, windows: [vault])
        XCTAssertEqual(InnerCoverTargets.of(whole.protectedWindows(against: bareContext), fields: [], on: bareContext).map(\.coversFrame), [false])
        XCTAssertEqual(InnerCoverTargets.of(row.protectedWindows(against: framedContext), fields: [], on: framedContext).map(\.coversFrame), [false])
    }
}
