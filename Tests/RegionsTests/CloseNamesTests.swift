// The classes `regions check` suggests for a class that no window on screen has.

import XCTest
import ShotguardRegions

final class CloseNamesTests: XCTestCase {
    private let onScreen = ["Vault", "KeePassXC", "firefox-esr", "Firefox", "Chat", "xterm", "Gimp-2.10", "Vault"]

    func testTyposCaseAndPrefixesAreClose() {
        XCTAssertEqual(CloseNames.close(to: "Vualt", among: onScreen), ["Vault"], "a swap is one edit")
        XCTAssertEqual(CloseNames.close(to: "vault", among: onScreen), ["Vault"], "case alone")
        XCTAssertEqual(CloseNames.close(to: "keepass", among: onScreen), ["KeePassXC"], "a prefix")
        XCTAssertEqual(CloseNames.close(to: "firefox", among: onScreen), ["firefox-esr", "Firefox"])
        XCTAssertEqual(CloseNames.close(to: "gimp", among: onScreen), ["Gimp-2.10"])
        XCTAssertEqual(CloseNames.close(to: "Chta", among: onScreen), ["Chat"])
    }

    func testFarNamesAreNot() {
        XCTAssertEqual(CloseNames.close(to: "Nobody", among: onScreen), [])
        XCTAssertEqual(CloseNames.close(to: "ch", among: onScreen), [], "two letters are no prefix worth naming")
        XCTAssertEqual(CloseNames.close(to: "Slack", among: onScreen), [])
        XCTAssertEqual(CloseNames.close(to: "", among: onScreen), [])
        XCTAssertEqual(CloseNames.close(to: "Vault", among: [String(repeating: "V", count: 100_000)]), [],
                       "a hostile class is skipped, not compared")
    }
}
