// A read of a window's own pixels against the windows the rules protected lately: the window itself or its frame, not the windows around it.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import XCTest
@testable import ShotguardAgent

final class RecentProtectedWindowsTests: XCTestCase {
    private let screen = Rect(x: 0, y: 0, width: 1280, height: 800)
    private let vault = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault",
                                   frame: Rect(x: 100, y: 120, width: 400, height: 300), isViewable: true,
                                   outerFrame: Rect(x: 99, y: 100, width: 402, height: 321))
    private let notes = WindowInfo(id: 5, className: "Notes", instance: "notes", title: "Notes",
                                   frame: Rect(x: 50, y: 50, width: 600, height: 500), isViewable: true)

    private func recent(_ windows: [WindowInfo], at now: Double, into recent: inout RecentProtectedWindows) throws {
        let rules = try RegionsFile.parse("window class=Vault fill=pixelate:8\n", path: "regions")
        recent.update(rules.protectedWindows(against: ScreenContext(width: 1280, height: 800, windows: windows)), all: windows, at: now)
    }

    /// The vault hidden under the notes: a read of the vault, or of its frame, takes it whole
    /// (with a solid fill: what it covers was never seen); a read of the notes, over it, does not.
    func testAReadOfTheVaultItselfOrItsFrameTakesItWhole() throws {
        var windows = RecentProtectedWindows()
        try recent([vault, notes], at: 0, into: &windows)
        let own = try XCTUnwrap(windows.read(of: 9, area: nil, screen: screen))
        XCTAssertEqual(own.window.id, 9)
        XCTAssertEqual(own.fill, .black)
        XCTAssertEqual(windows.read(of: 0x600003, area: vault.outerFrame, screen: screen)?.window.id, 9, "its frame")
        XCTAssertNil(windows.read(of: 5, area: notes.frame, screen: screen), "the notes' own pixels hold nothing of the vault")
        XCTAssertNil(windows.read(of: 0x600003, area: Rect(x: 99, y: 100, width: 200, height: 100), screen: screen),
                     "a part of some other drawable")
    }

    /// The vault wholly past the screen's edge (a viewport, a hidden tag): a read of its frame
    /// there, whose rectangle the sentinel gives past the edge, takes it whole; a read of
    /// another frame past the edge, or of one of its size on the screen, does not. Regression:
    /// a frame past the edge met no protected window (only its part on the screen was compared).
    func testAReadOfTheVaultsFramePastTheEdgeTakesItWhole() throws {
        var moved = vault
        moved.frame = vault.frame.offsetBy(dx: 1400, dy: 0)
        moved.outerFrame = vault.outerFrame.offsetBy(dx: 1400, dy: 0)
        var windows = RecentProtectedWindows()
        try recent([moved, notes], at: 0, into: &windows)
        XCTAssertEqual(windows.read(of: 0x600003, area: moved.outerFrame, screen: screen)?.window.id, 9, "its frame")
        XCTAssertNil(windows.read(of: 0x600004, area: Rect(x: 1300, y: 100, width: 402, height: 321), screen: screen),
                     "another frame past the edge")
        XCTAssertNil(windows.read(of: 0x600005, area: Rect(x: 0, y: 0, width: 402, height: 321), screen: screen),
                     "a frame on the screen, of the vault's size")
    }

    /// dwm hides every window of another tag at the same place past the edge, and maximised
    /// windows share one rectangle: a read of another client window where the vault's frame
    /// is, is a read of that window, not of the vault's frame. Regression: it took the vault.
    func testAnotherClientWindowWhereTheVaultsFrameIsIsNoFrame() throws {
        var hidden = vault, other = notes
        hidden.frame = Rect(x: -800, y: 120, width: 400, height: 300)
        hidden.outerFrame = hidden.frame
        other.frame = hidden.frame
        other.outerFrame = hidden.frame
        var windows = RecentProtectedWindows()
        try recent([hidden, other], at: 0, into: &windows)
        XCTAssertNil(windows.read(of: other.id, area: hidden.frame, screen: screen))
        XCTAssertEqual(windows.read(of: hidden.id, area: hidden.frame, screen: screen)?.window.id, hidden.id)
    }

    /// Closed, or no longer matched, the vault is still the vault for a read heard a moment
    /// later; not ten seconds after.
    func testAVaultGoneIsKeptForAWhile() throws {
        var windows = RecentProtectedWindows()
        try recent([vault, notes], at: 0, into: &windows)
        try recent([notes], at: 4, into: &windows)
        XCTAssertEqual(windows.read(of: 9, area: nil, screen: screen)?.window.id, 9)
        try recent([notes], at: 10.5, into: &windows)
        XCTAssertNil(windows.read(of: 9, area: nil, screen: screen))
    }
}
