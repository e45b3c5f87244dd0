// Escaping text that other programs control before it reaches a terminal; cutting long words.
import ShotguardImaging
import XCTest

final class PrintableTextTests: XCTestCase {
    func testTerminalControlSequencesAreEscaped() {
        XCTAssertEqual("\u{1B}]0;owned\u{07}\u{1B}[2Jtitle".escapingControlCharacters(), "\\x1B]0;owned\\x07\\x1B[2Jtitle")
        XCTAssertEqual("a\u{7F}b\u{9B}c\u{85}".escapingControlCharacters(), "a\\x7Fb\\u{9B}c\\u{85}")
        XCTAssertEqual("line\nnext\ttab\r".escapingControlCharacters(), "line\\x0Anext\\x09tab\\x0D")
        XCTAssertEqual("line\nnext\ttab\r".escapingControlCharacters(keepingNewlines: true), "line\nnext\ttab\\x0D")
        XCTAssertEqual("Vault – Personal ß 😀".escapingControlCharacters(), "Vault – Personal ß 😀")
    }

    func testBytesThatAreNotUTF8ShowAsBytes() {
        XCTAssertEqual(String.escapingControlCharacters(in: Array("caf".utf8) + [0xE9, 0x1B] + Array("é".utf8) + [0xC2]),
                       "caf\\xE9\\x1Bé\\xC2")
        XCTAssertEqual(String.escapingControlCharacters(in: [0xC2, 0x9B]), "\\u{9B}")
    }

    func testLongWordsAreCutWithAnEllipsis() {
        XCTAssertEqual(String(repeating: "w", count: 200_000).excerpt(), String(repeating: "w", count: 80) + "…")
        XCTAssertEqual(String(repeating: "w", count: 80).excerpt(), String(repeating: "w", count: 80))
    }
}
