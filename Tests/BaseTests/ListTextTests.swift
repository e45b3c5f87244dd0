// Lists in sentences: the words "expected" messages and help text are built from.
import ShotguardBase
import XCTest

final class ListTextTests: XCTestCase {
    func testListsJoinTheLastTwoWithTheWordGiven() {
        XCTAssertEqual(String(listing: []), "")
        XCTAssertEqual(String(listing: ["png"]), "png")
        XCTAssertEqual(String(listing: ["png", "jpg"]), "png or jpg")
        XCTAssertEqual(String(listing: ["PNG", "JPEG", "WebP"], last: "and"), "PNG, JPEG and WebP")
        XCTAssertEqual(String(listing: ["add", "check", "show", "picked"]), "add, check, show or picked")
    }
}
