// Covers follow what is visible: windows above a protected one are cut out, unless they are
// translucent, shaped or of unknown place (not opaque); zones keep what each rule names whole.

import XCTest
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

final class OcclusionTests: XCTestCase {
    private let vault = Rect(x: 100, y: 100, width: 200, height: 100)

    private func window(_ id: UInt, _ className: String, _ frame: Rect, outer: Rect? = nil, opaque: Bool = true,
                        viewable: Bool = true, protect: Bool = false) -> WindowInfo {
        WindowInfo(id: id, className: className, instance: className.lowercased(), title: "", frame: frame,
                   isViewable: viewable, outerFrame: outer, isOpaque: opaque, requestsProtection: protect)
    }

    private func resolve(_ rules: String, _ windows: [WindowInfo]) throws -> [RuleResolution] {
        try parse(rules).resolve(against: ScreenContext(width: 640, height: 480, windows: windows))
    }

    /// A viewer over the vault's right half, its frame's title bar reaching above the vault.
    func testAnOpaqueWindowAboveIsCutOutAndTheZoneStaysWhole() throws {
        let viewer = window(2, "Viewer", Rect(x: 200, y: 120, width: 200, height: 200),
                            outer: Rect(x: 198, y: 90, width: 204, height: 232))
        let resolution = try XCTUnwrap(try resolve("window class=Vault", [window(1, "Vault", vault), viewer]).first)
        XCTAssertEqual(resolution.hits.map(\.rect), [Rect(x: 100, y: 100, width: 98, height: 100)])
        XCTAssertEqual(resolution.hits.map(\.zone), [vault])
        XCTAssertEqual(resolution.zones.map(\.rect), [vault])
        XCTAssertEqual(resolution.hits.map(\.windowID), [1])
    }

    /// Only where a window's own pixels are is cut out: decorations it merely claims are not.
    func testOnlyTheOpaqueAreaIsCutOut() throws {
        var liar = window(2, "Liar", Rect(x: 250, y: 150, width: 100, height: 100), outer: Rect(x: 0, y: 0, width: 640, height: 480))
        liar.opaqueArea = liar.frame
        let hits = try parse("window class=Vault").hits(against: ScreenContext(width: 640, height: 480,
                                                                                windows: [window(1, "Vault", vault), liar]))
        XCTAssertEqual(hits.reduce(0) { $0 + $1.rect.area }, 200 * 100 - 50 * 50)
    }

    func testAWindowBelowHidesNothing() throws {
        let below = window(2, "Viewer", Rect(x: 150, y: 120, width: 100, height: 50))
        let hits = try parse("window class=Vault").hits(against: ScreenContext(width: 640, height: 480,
                                                                                windows: [below, window(1, "Vault", vault)]))
        XCTAssertEqual(hits.map(\.rect), [vault])
    }

    /// Translucent (ARGB, opacity), shaped or unplaced windows above cut nothing: under them
    /// the protected window's pixels may show.
    func testAWindowThatIsNotOpaqueCutsNothing() throws {
        let ghost = window(2, "Ghost", Rect(x: 150, y: 120, width: 100, height: 50), opaque: false)
        let hits = try parse("window class=Vault").hits(against: ScreenContext(width: 640, height: 480,
                                                                                windows: [window(1, "Vault", vault), ghost]))
        XCTAssertEqual(hits.map(\.rect), [vault])
    }

    func testAnUnviewableWindowAboveCutsNothing() throws {
        let gone = window(2, "Gone", Rect(x: 150, y: 120, width: 100, height: 50), viewable: false)
        let hits = try parse("window class=Vault").hits(against: ScreenContext(width: 640, height: 480,
                                                                                windows: [window(1, "Vault", vault), gone]))
        XCTAssertEqual(hits.map(\.rect), [vault])
    }

    /// Wholly under another window: no hit, but the zone is kept (the agent needs it).
    func testAWindowWhollyHiddenHasAZoneAndNoHit() throws {
        let lid = window(2, "Lid", Rect(x: 0, y: 0, width: 640, height: 480))
        let resolution = try XCTUnwrap(try resolve("window class=Vault 20x20+0+0", [window(1, "Vault", vault), lid]).first)
        XCTAssertEqual(resolution.hits, [])
        XCTAssertEqual(resolution.zones.map(\.rect), [Rect(x: 100, y: 100, width: 20, height: 20)])
        XCTAssertEqual(try parse("window class=Vault").zones(against: ScreenContext(width: 640, height: 480,
                                                                                     windows: [window(1, "Vault", vault), lid])).map(\.rect),
                       [vault])
    }

    /// A hole in the middle leaves four pieces, all of the same rule and zone.
    func testAWindowInTheMiddleLeavesFourPieces() throws {
        let middle = window(2, "Dialog", Rect(x: 150, y: 120, width: 100, height: 50))
        let resolution = try XCTUnwrap(try resolve("window class=Vault fill=#ff0000", [window(1, "Vault", vault), middle]).first)
        XCTAssertEqual(Set(resolution.hits.map(\.rect)), [
            Rect(x: 100, y: 100, width: 200, height: 20), Rect(x: 100, y: 170, width: 200, height: 30),
            Rect(x: 100, y: 120, width: 50, height: 50), Rect(x: 250, y: 120, width: 50, height: 50),
        ])
        XCTAssertEqual(Set(resolution.hits.map(\.fill)), [.solid(0xFF0000)])
        XCTAssertEqual(Set(resolution.hits.map(\.line)), [1])
    }

    /// Screen and monitor rules cover the screen whatever windows are on it.
    func testScreenRulesFollowNoWindow() throws {
        let lid = window(2, "Lid", Rect(x: 0, y: 0, width: 640, height: 480))
        XCTAssertEqual(try resolve("screen 10x10+0+0", [lid]).first?.hits.map(\.rect), [Rect(x: 0, y: 0, width: 10, height: 10)])
    }

    /// A field is cut by the windows above the window that shows it.
    func testAFieldIsCutByTheWindowsAboveItsWindow() throws {
        let field = AccessibleField(role: .password, name: "Password", rect: Rect(x: 120, y: 150, width: 100, height: 20),
                                    application: "vault")
        let popup = window(2, "Popup", Rect(x: 180, y: 140, width: 100, height: 100))
        let context = ScreenContext(width: 640, height: 480, windows: [window(1, "Vault", vault), popup],
                                    fields: .available([field]))
        let resolution = try XCTUnwrap(try parse("field role=password").resolve(against: context).first)
        XCTAssertEqual(resolution.hits.map(\.rect), [Rect(x: 120, y: 150, width: 60, height: 20)])
        XCTAssertEqual(resolution.zones.map(\.rect), [field.rect])
    }

    /// `_SHOTGUARD_PROTECT`: the whole outer frame, less the windows above, as line 0 after
    /// the file's rules; nothing at all when no window asks.
    func testAWindowThatAsksIsCoveredWithNoRule() throws {
        let asking = window(1, "Keys", vault, outer: Rect(x: 98, y: 80, width: 204, height: 122), protect: true)
        let above = window(2, "Note", Rect(x: 250, y: 0, width: 100, height: 480))
        let resolutions = try resolve("screen 1x1+0+0", [asking, above])
        XCTAssertEqual(resolutions.count, 2)
        let protection = try XCTUnwrap(resolutions.last)
        XCTAssertEqual(protection.rule.origin, .windowProperty)
        XCTAssertEqual(protection.rule.line, 0)
        XCTAssertEqual(protection.hits.map(\.rect), [Rect(x: 98, y: 80, width: 152, height: 122)])
        XCTAssertEqual(protection.hits.map(\.fill), [.black])
        XCTAssertEqual(protection.hits.map(\.origin), [.windowProperty])
        XCTAssertEqual(protection.zones.map(\.rect), [Rect(x: 98, y: 80, width: 204, height: 122)])
        XCTAssertEqual(try resolve("screen 1x1+0+0", [window(1, "Keys", vault)]).count, 1)
        XCTAssertEqual(try parse("").hits(against: ScreenContext(width: 640, height: 480, windows: [asking])).map(\.rect),
                       [Rect(x: 98, y: 80, width: 204, height: 122)], "an empty file still covers it")
    }
}
