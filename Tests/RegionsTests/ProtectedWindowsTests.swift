// The windows the rules protect, whole: every matching rule's part of each, wherever it lies.
import ShotguardImaging
import ShotguardScreen
import XCTest
@testable import ShotguardRegions

final class ProtectedWindowsTests: XCTestCase {
    private let vault = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault - Personal",
                                   frame: Rect(x: 1100, y: 600, width: 400, height: 300), isViewable: true,
                                   outerFrame: Rect(x: 1099, y: 580, width: 402, height: 321))
    private let notes = WindowInfo(id: 5, className: "Notes", instance: "notes", title: "Notes",
                                   frame: Rect(x: 10, y: 10, width: 300, height: 200), isViewable: true, requestsProtection: true)

    /// Each rule that matches a window names its part of it, unclipped (the vault reaches past
    /// a 1280x800 screen); an allow rule names nothing; a window that asks for protection is
    /// protected whole; a mosaic's fill is black (what it covers is never seen).
    func testEveryMatchingRulesPartOfEachWindowWhole() throws {
        let rules = try RegionsFile.parse("""
            window class=Vault 100%x40+0+20 fill=pixelate:8
            window title~"Personal" 50x50-0-0
            allow window class=Vault 10x10+0+0
            window class=Nobody

            """, path: "regions")
        let context = ScreenContext(width: 1280, height: 800, windows: [notes, vault])
        let protected = rules.protectedWindows(against: context)
        XCTAssertEqual(protected.map(\.window.id), [5, 9])
        XCTAssertEqual(protected[0].rects, [notes.outerFrame])
        XCTAssertEqual(protected[1].rects, [Rect(x: 1100, y: 620, width: 400, height: 40), Rect(x: 1450, y: 850, width: 50, height: 50)])
        XCTAssertEqual(protected[1].line, 1)
        XCTAssertEqual(protected[1].fill, .black)
    }
}
