// Other readings of OCR's doubtful symbols: which are tried, which kinds take them, and the dot OCR lost.
import ShotguardImaging
@testable import ShotguardText
import XCTest

final class RereadingTests: XCTestCase {
    /// A word read with sure symbols (confidence 95, no other choice) but for `doubts`: the
    /// other choices at those positions.
    private func word(_ text: String, x: Int = 0, doubts: [Int: [(String, Float)]] = [:]) -> OCRWord {
        let symbols = text.enumerated().map { position, character in
            OCRSymbol(text: String(character), confidence: 95,
                      alternatives: (doubts[position] ?? []).map { OCRSymbol.Alternative(text: $0.0, confidence: $0.1) })
        }
        return OCRWord(word: TextWord(text: text, rect: Rect(x: x, y: 0, width: text.count * 10, height: 12)), symbols: symbols)
    }

    private let scanner = TextScanner(rules: [TextRule(kind: .card, line: 1), TextRule(kind: .email, line: 2),
                                              TextRule(kind: .iban, line: 3), TextRule(kind: .key, line: 4)])

    /// The kinds of the hits the scanner's matching finds in `line` as read, then in its rereadings.
    private func hits(_ line: [OCRWord]) -> (first: [TextKind], reread: [TextKind]) {
        let bounds = Rect(x: 0, y: 0, width: 2000, height: 100)
        let words = line.map(\.word)
        let first = scanner.matchHits(words, source: .ocr, origin: bounds, bounds: bounds).map(\.kind)
        let reread = Rereadings.of(line).flatMap { rereading in
            var changed = words
            changed[rereading.word].text = rereading.text
            return scanner.matchHits(changed, source: .ocr, origin: bounds, bounds: bounds, only: rereading).map(\.kind)
        }
        return (first, reread)
    }

    func testAnEightReadAsASixWithEightSecondIsACardNumber() {
        // 4509 8090 2633 0185 is Luhn-valid; OCR read its fifth digit as 6, with 8 its second choice.
        let line = [word("Card"), word("4509609026330185", x: 50, doubts: [4: [("8", 62), ("5", 10)]])]
        XCTAssertEqual(hits(line).first, [])
        XCTAssertEqual(hits(line).reread, [.card])
    }

    func testAWeakSecondChoiceDoesNotMakeACardNumber() {
        // The same misread with 8 offered at 30: a Luhn check passes one wrong digit in ten, too
        // often for a choice the recogniser barely considered.
        let line = [word("4509609026330185", doubts: [4: [("8", 30)]])]
        XCTAssertEqual(hits(line).reread, [])
        XCTAssertEqual(Rereadings.of(line).map(\.kinds), [[.iban]])
    }

    func testACountryCodeLetterReadAsADigitIsRescuedForAnIBAN() {
        // NL23 ABNA 3514 3172 27 (valid) read "N123" with L second at 27: mod 97 takes weak choices.
        let line = [word("N123", doubts: [1: [("L", 27), ("I", 23)]]), word("ABNA", x: 50), word("3514", x: 100),
                    word("3172", x: 150), word("27", x: 200)]
        XCTAssertEqual(hits(line).first, [])
        XCTAssertEqual(hits(line).reread, [.iban])
    }

    func testAGlyphReadAsTwoSymbolsIsReadAsOne() {
        // NL92 INGB 9491 0461 05 read "NL921INGB…": the 1 had I second, the symbol after it.
        let line = [word("TOKEN=NL921INGB9491046105", doubts: [10: [("I", 77)], 11: [("1", 75)]])]
        XCTAssertEqual(hits(line).first, [])
        XCTAssertTrue(Rereadings.of(line).contains { $0.text == "TOKEN=NL92INGB9491046105" })
        // Dropping the I instead reads "NL921NGB…", whose 1 the IBAN's bank code folds to I: the
        // same IBAN, found twice (the scan keeps one cover).
        XCTAssertEqual(Set(hits(line).reread), [.iban])
    }

    func testAPairThatAreEachOthersOtherChoiceIsReadAsEitherOne() {
        // PL79 5694 5511 2830 7574 7714 1090 in 9 px Tinos read "59694": the 5 had 9 second and
        // the 9 after it 5. Dropping the 5 gives 9694 (wrong), dropping the 9 gives 5694.
        let line = [word("PL79"), word("59694", x: 50, doubts: [0: [("9", 76)], 1: [("5", 77)]]), word("5511", x: 110),
                    word("2830", x: 160), word("7574", x: 210), word("7714", x: 260), word("1090", x: 310)]
        XCTAssertEqual(hits(line).first, [])
        let texts = Rereadings.of(line).map(\.text)
        XCTAssertTrue(texts.contains("5694") && texts.contains("9694"), "\(texts)")
        XCTAssertEqual(hits(line).reread, [.iban])
    }

    func testAnAtReadAsGIsAnEmailAddressButNeverAKey() {
        let line = [word("rupert94Ghooli.xyz", doubts: [8: [("@", 74)]])]
        XCTAssertEqual(hits(line).first, [])
        XCTAssertEqual(hits(line).reread, [.email])
        // A letter offered for a letter serves no kind: no key is made of another reading.
        XCTAssertEqual(Rereadings.of([word("AbcdEfgh", doubts: [3: [("x", 90)]])]).map(\.kinds), [[.card, .iban]])
        XCTAssertEqual(hits([word("AbcdEfgh", doubts: [3: [("x", 90)]])]).reread, [])
    }

    func testSymbolsThatDoNotSpellTheWordAreNotEdited() {
        var odd = word("4111", doubts: [1: [("7", 90)]])
        odd.word.text = "4111-"
        XCTAssertEqual(Rereadings.of([odd]), [])
    }

    func testTheLostDotOfADomainIsPutBackWhereTheGapHoldsOne() {
        let line = [word("trent@globex"), word("fr", x: 130), word("and", x: 160)]
        let found = Rereadings.lostDots(line) { left, _ in left.x == 0 }
        XCTAssertEqual(found, [Rereading(word: 0, text: "trent@globex.", kinds: [.email])])
        XCTAssertEqual(Rereadings.lostDots(line) { _, _ in false }, [])
        // No '@' before the gap: no address to mend.
        XCTAssertEqual(Rereadings.lostDots([word("globex"), word("fr", x: 70)]) { _, _ in true }, [])
    }

    /// A grey image, light background, with ink blocks (dark) at the given rectangles.
    private func image(_ inks: [Rect], width: Int = 60, height: Int = 20) -> GreyImage {
        var pixels = [UInt8](repeating: 240, count: width * height)
        for ink in inks {
            for y in ink.y..<ink.maxY {
                for x in ink.x..<ink.maxX { pixels[y * width + x] = 20 }
            }
        }
        return GreyImage(width: width, height: height, pixels: pixels)
    }

    func testADotIsASpeckOfInkLowInTheGapAndAHyphenOrALetterIsNot() {
        let left = Rect(x: 2, y: 4, width: 24, height: 12), right = Rect(x: 32, y: 4, width: 20, height: 12)
        let letters = [Rect(x: 2, y: 4, width: 22, height: 12), Rect(x: 34, y: 4, width: 18, height: 12)]
        XCTAssertTrue(Ink.hasDot(between: left, and: right, in: image(letters + [Rect(x: 28, y: 13, width: 2, height: 2)]), background: 232))
        XCTAssertFalse(Ink.hasDot(between: left, and: right, in: image(letters), background: 232))
        // A hyphen's height: in the middle of the line.
        XCTAssertFalse(Ink.hasDot(between: left, and: right, in: image(letters + [Rect(x: 27, y: 9, width: 3, height: 2)]), background: 232))
        // Ink joined to a letter is the letter's.
        XCTAssertFalse(Ink.hasDot(between: left, and: right, in: image(letters + [Rect(x: 24, y: 13, width: 5, height: 2)]), background: 232))
        // A dot the next letter's anti-aliasing touches is still a dot, after the space; a foot
        // wider than a dot is not.
        XCTAssertTrue(Ink.hasDot(between: left, and: right, in: image(letters + [Rect(x: 32, y: 13, width: 2, height: 2)]), background: 232))
        XCTAssertFalse(Ink.hasDot(between: left, and: right, in: image(letters + [Rect(x: 29, y: 13, width: 5, height: 2)]), background: 232))
    }
}
