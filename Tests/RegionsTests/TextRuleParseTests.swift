// `text` rules in the regions file: the forms they take, and the errors that point at the trouble.
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import ShotguardText
import XCTest

final class TextRuleParseTests: XCTestCase {
    func testEachKindWithItsFillAndWindowConditions() throws {
        let card = try rule("text card")
        XCTAssertEqual(card.target, .text)
        XCTAssertEqual(card.text?.kind, .card)
        XCTAssertEqual(card.fill, .black)
        XCTAssertTrue(card.matches.isEmpty)
        for kind in ["email", "iban", "key"] {
            XCTAssertEqual(try rule("text \(kind) fill=#ff0000").text?.kind.rawValue, kind)
        }
        let limited = try rule("text key in class=kitty title~\"(?i)prod\" fill=pixelate:8")
        XCTAssertEqual(limited.matches.map(\.description), ["class=kitty", "title~(?i)prod"])
        XCTAssertEqual(limited.fill, .pixelate(blockSize: 8))
        let pattern = try rule(#"text pattern~"PRJ-\d{4}" in instance=jira"#)
        XCTAssertEqual(pattern.text?.kind, .pattern)
        XCTAssertEqual(pattern.text?.pattern?.source, #"PRJ-\d{4}"#)
        // Quoted as the file would spell it: the backslash doubled inside quotes reads back as one.
        XCTAssertEqual(pattern.text?.description, #"pattern~"PRJ-\\d{4}""#)
    }

    func testTextRulesHitNothingBeforehandAndBecomeScannerRulesLimitedToTheirWindows() throws {
        let file = try parse("text card\ntext email in class=firefox fill=#00ff00\nscreen 10x10+0+0\n")
        XCTAssertTrue(file.hasTextRules)
        XCTAssertTrue(file.hasWindowLimitedTextRules)
        let firefox = WindowInfo(id: 1, className: "Firefox", instance: "Navigator", title: "Mail",
                                 frame: Rect(x: 100, y: 50, width: 400, height: 300), isViewable: true)
        let other = WindowInfo(id: 2, className: "XTerm", instance: "xterm", title: "shell",
                               frame: Rect(x: 0, y: 0, width: 80, height: 60), isViewable: true)
        let context = ScreenContext(width: 800, height: 600, windows: [other, firefox])
        XCTAssertEqual(file.hits(against: context).map(\.line), [3])
        let rules = file.scannerRules(against: context)
        XCTAssertEqual(rules.map(\.kind), [.card, .email])
        XCTAssertNil(rules[0].areas)
        XCTAssertEqual(rules[1].areas, [firefox.outerFrame])
        XCTAssertEqual(rules[1].fill, .solid(0x00FF00))
        XCTAssertEqual(rules[1].line, 2)
        // A window half past the screen's edge keeps its whole frame: its own image shows it all.
        var past = firefox
        past.frame = Rect(x: 600, y: 500, width: 400, height: 300)
        past.outerFrame = past.frame
        XCTAssertEqual(file.scannerRules(against: ScreenContext(width: 800, height: 600, windows: [past]))[1].areas, [past.frame])
    }

    func testErrorsNameTheColumnAndTheExpectedForms() {
        XCTAssertEqual(parseError("text"), "regions:1:5: a text rule needs what to look for (expected text KIND "
            + "[in class=… instance=… title=… title~…] [fill=…], KIND one of card, email, iban, key or pattern~\"REGEX\"), "
            + "as in 'text card'")
        XCTAssertEqual(parseError("text cards"), "regions:1:6: unknown text kind 'cards' (expected card, email, iban, key or "
            + "pattern~\"REGEX\")")
        XCTAssertEqual(parseError("text card email"), "regions:1:11: a text rule looks for one kind (found 'email' after "
            + "'card'); write one rule per kind")
        XCTAssertEqual(parseError("text card class=firefox"), "regions:1:11: window conditions of a text rule follow 'in', "
            + "as in 'text card in class=firefox' (found 'class=firefox')")
        XCTAssertEqual(parseError("text card in"), "regions:1:11: 'in' needs window conditions after it: class=, instance=, "
            + "title= or title~")
        XCTAssertEqual(parseError("text card 10x10+0+0"), "regions:1:11: unknown word '10x10+0+0' (expected text KIND "
            + "[in class=… instance=… title=… title~…] [fill=…], KIND one of card, email, iban, key or pattern~\"REGEX\")")
        XCTAssertEqual(parseError("text pattern~\"(a\""), "regions:1:16: bad regular expression '(a': missing closing parenthesis")
        XCTAssertEqual(parseError("text pattern=abc"), "regions:1:6: a pattern is written pattern~\"REGEX\" (found 'pattern=abc')")
        XCTAssertEqual(parseError("text card fill=blurr"), "regions:1:16: unknown fill 'blurr' (expected black, #rrggbb or pixelate[:N])")
        XCTAssertEqual(parseError("text in class=x"), "regions:1:6: 'in' comes after what the rule looks for (expected text KIND "
            + "[in class=… instance=… title=… title~…] [fill=…], KIND one of card, email, iban, key or pattern~\"REGEX\")")
    }
}
