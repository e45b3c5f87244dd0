// `regions show` outlines what text rules find, in their own colour, labelled by kind.
import Foundation
import ShotguardBase
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class RegionsShowTextTests: TextDesktopTestCase {
    /// The card number in the GTK entry is outlined in orange around its box; the order number
    /// beside the e-mail address, which no rule matches, is not.
    func testACardNumberIsOutlinedAndLabelledByItsKind() throws {
        let regions = try sandbox.write("regions", text: "text card\n")
        let result = try sandbox.run(["regions", "show", "-o", sandbox.path("preview.png"), "--regions", regions],
                                     environment: ["DISPLAY": desk.name, "DBUS_SESSION_BUS_ADDRESS": desk.busAddress])
        XCTAssertEqual(result.status, 0, result.stderr)
        let preview = try sandbox.image("preview.png")
        let orange: UInt32 = 0xFF8C00
        func orangePixels(around rect: Rect, margin: Int = 16) -> Int {
            let area = Rect(x: rect.x - margin, y: rect.y - margin, width: rect.width + 2 * margin, height: rect.height + 2 * margin)
                .intersection(preview.bounds)
            var count = 0
            for y in area.y..<area.maxY { for x in area.x..<area.maxX where preview[x, y] & 0xFF_FFFF == orange { count += 1 } }
            return count
        }
        let card = try XCTUnwrap(desk.extents["card"])
        XCTAssertGreaterThan(orangePixels(around: card), 2 * card.width, "the card's box is outlined in orange")
        XCTAssertEqual(orangePixels(around: try XCTUnwrap(desk.extents["order"]), margin: 0), 0, "the order number is not a card")
        // Nothing of the card itself is covered: a preview shows, it never redacts.
        XCTAssertGreaterThan((card.y..<card.maxY).flatMap { y in (card.x..<card.maxX).map { preview[$0, y] & 0xFF_FFFF } }
            .filter { $0 != 0 && $0 != orange }.count, 0)
    }
}
