// Where a read of a window lands on the root: its part on the screen, or where it lies wholly past the edge.
import ShotguardImaging
import XCTest
@testable import ShotguardX11

final class ScreenPlacementTests: XCTestCase {
    private let screen = Rect(x: 0, y: 0, width: 1280, height: 800)

    /// Partly on the screen: the part that shows. Wholly past the edge (a hidden tag's window):
    /// its rectangle there, which no rule's rectangle on the screen meets. Empty: nothing read.
    func testAWindowWhollyPastTheEdgeIsPlacedWhereItLies() {
        XCTAssertEqual(ScreenPlacement.of(Rect(x: 1200, y: 100, width: 400, height: 300), on: screen),
                       .area(Rect(x: 1200, y: 100, width: 80, height: 300)))
        let hidden = Rect(x: -800, y: 100, width: 400, height: 300)
        XCTAssertEqual(ScreenPlacement.of(hidden, on: screen), .pastTheEdge(hidden))
        XCTAssertEqual(ScreenPlacement.of(hidden, on: screen).rect, hidden)
        XCTAssertEqual(ScreenPlacement.of(Rect(x: 10, y: 10, width: 0, height: 5), on: screen), .notScreen)
    }
}
