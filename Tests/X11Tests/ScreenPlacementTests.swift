// Where a read of a window lands on the root: its part on the screen, or where it lies wholly past the edge.
import CX11
import ShotguardImaging
import ShotguardTestSupport
import XCTest
@testable import ShotguardX11

final class ScreenPlacementTests: XvfbTestCase {
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

    /// A read of another client's window wholly past the edge is placed there (it was dropped,
    /// and a share of it unseen); one of the reader's own window there stays unknown (it may
    /// hold a copy of the screen), as it was.
    func testAReadOfAWindowPastTheEdgeIsPlacedThereUnlessItIsTheReadersOwn() throws {
        let window = XCreateSimpleWindow(display.handle, display.root, -300, 40, 100, 80, 0, 0, 0)
        XMapWindow(display.handle, window)
        display.sync()
        let placer = ReadPlacer(display: display)
        let reader: UInt32 = 0x0A00_0000, owner: UInt32 = 0x0B00_0000
        func read(ownedBy client: UInt32) -> ScreenRead {
            ScreenRead(request: .getImage, client: reader, drawable: UInt(window), area: Rect(x: 0, y: 0, width: 100, height: 80),
                       serverTime: 1, receivedAt: 0, drawableClient: client)
        }
        XCTAssertEqual(placer.place(read(ownedBy: owner)), .pastTheEdge(Rect(x: -300, y: 40, width: 100, height: 80)))
        XCTAssertEqual(placer.place(read(ownedBy: reader)), .unknown)
    }
}
