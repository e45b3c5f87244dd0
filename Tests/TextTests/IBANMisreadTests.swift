// An IBAN OCR misread at its line's scale is read again at others; what may be one, and what may not.
import Foundation
import ShotguardBase
import ShotguardImaging
@testable import ShotguardText
import XCTest

final class IBANMisreadTests: XCTestCase {
    private func misreads(_ text: String) -> [String] {
        let line = LineText(text.split(separator: " ").enumerated().map { index, word in
            TextWord(text: String(word), rect: Rect(x: index * 60, y: 0, width: 50, height: 12))
        })
        return IBANMatcher.possibleMisreads(in: line).map { range in
            var found = ""
            found.unicodeScalars.append(contentsOf: line.scalars[range])
            return found
        }
    }

    /// What OCR made of IBANs in fresh corpora: a digit lost or changed, a country code read as
    /// digits, a stray mark inside, the code apart from its check digits.
    func testTextThatStartsAsAnIBANAndIsAboutAsLongMayBeOne() {
        XCTAssertEqual(misreads("Cache merged DE53 991 8961 3896 0925 10").count, 1, "two digits lost")
        XCTAssertEqual(misreads("$ echo 1726 V157 3136 5842 1232 9155 092 updated").count, 1, "IT read as 17")
        XCTAssertEqual(misreads("AT356 13 175403.47 18070").count, 1, "a stray dot, spaces made up")
        XCTAssertEqual(misreads("Passed 1T29B9545679431106/742350085 the").count, 1)
        XCTAssertEqual(misreads("17 49E4432969127872932420275").count, 1, "the code apart")
        XCTAssertEqual(misreads("user=BEOT 37995819 2886").count, 1, "after a symbol")
        XCTAssertEqual(misreads("IT58 £129 2760 6626 2280 9578 619").count, 1, "E read as £")
    }

    /// Card numbers (even after "54", Saudi Arabia's code), hashes, UUIDs, prose in capitals and
    /// IBAN-like words too short are not: reading their lines again would cost and find nothing.
    func testNumbersHashesUUIDsAndCapitalsAreNot() {
        XCTAssertEqual(misreads("Please if 5473 9218 0166 9361 if production"), [])
        XCTAssertEqual(misreads("ref 5473 9218 0166 9361 4455 6677 88 ok"), [], "as long as an IBAN of SA, but no capital")
        XCTAssertEqual(misreads("Order 8464f974634a275f5b48d7c31c512ab1aa2cdb00 passed"), [])
        XCTAssertEqual(misreads("> 5163EED3-BC69-7F56-5EE3-3F427B0C41AD reply"), [])
        XCTAssertEqual(misreads("DESIGN SYSTEM REVIEW FOR THE ISSUE TRACKER"), [])
        XCTAssertEqual(misreads("NL17 TRIO 4517"), [])
        XCTAssertEqual(misreads("alice@example.org DE53"), [])
    }

    /// A real line from a fresh corpus (DejaVu Serif 11 px, dim theme): OCR misreads a digit of its
    /// IBAN at the line's own scale (so no mod-97 check passes), and reads it right one scale
    /// smaller and one larger. The scan reads the line again and covers the IBAN.
    func testAnIBANMisreadAtItsLinesScaleIsFoundAtAnother() throws {
        let bytes = try [UInt8](Data(contentsOf: Corpus.folder.appendingPathComponent("iban-misread.png")))
        let image = try ImageCodec.decode(bytes, source: "iban-misread.png").image
        let scanner = TextScanner(rules: [TextRule(kind: .iban, line: 1)])
        let grey = GreyImage(image)
        let lines = TextLineFinder.lines(in: grey, excluding: [])
        let ibanLine = try XCTUnwrap(lines.first { $0.y > 20 }, "\(lines)")
        let crop = LineCrop(ibanLine, of: grey, besides: lines, targetHeight: TextScanner.targetLineHeight)
        let engine = try OCREngine()
        let first = engine.words(in: crop.image).flatMap { words in
            scanner.matchHits(words.map { TextWord(text: $0.word.text, rect: crop.place($0.word.rect)) }, source: .ocr,
                              origin: image.bounds, bounds: image.bounds)
        }
        XCTAssertEqual(first, [], "read at its own scale (\(crop.scale)), Debian 12's Tesseract misreads the IBAN")

        let result = try scanner.scan(image, origin: image.bounds)
        XCTAssertGreaterThanOrEqual(result.linesReadAgain, 1)
        // The IBAN's ink, in the image: AT34 8013 3808 5108 4831 at 24,21, 154x8.
        let ink = Rect(x: 24, y: 21, width: 154, height: 8)
        XCTAssertTrue(result.hits.contains { $0.kind == .iban && $0.rect.intersection(ink) == ink }, "\(result.hits)")
    }

    /// Without an IBAN rule, no line is read twice.
    func testNoLineIsReadAgainWithoutAnIBANRule() throws {
        let bytes = try [UInt8](Data(contentsOf: Corpus.folder.appendingPathComponent("iban-misread.png")))
        let image = try ImageCodec.decode(bytes, source: "iban-misread.png").image
        let result = try TextScanner(rules: [TextRule(kind: .card, line: 1), TextRule(kind: .email, line: 2)])
            .scan(image, origin: image.bounds)
        XCTAssertGreaterThan(result.linesRead, 0)
        XCTAssertEqual(result.linesReadAgain, 0)
    }
}
