// Every parse error, checked word for word with its path:line:column.

import XCTest
import ShotguardRegions

final class ParseErrorTests: XCTestCase {
    private let words = "expected class=, instance=, title=, title~, type=, a geometry WxH+X+Y or fill="
    private let geometryForm = "a geometry is WxH+X+Y, e.g. 300x28-0+0 or 25%x100%+0+0"

    func testDesignExampleUnknownFill() {
        let text = String(repeating: "# padding\n", count: 11) + "window class=firefox     fill=blurr"
        XCTAssertEqual(parseError(text),
                       "regions:12:31: unknown fill 'blurr' (expected black, #rrggbb or pixelate[:N])")
    }

    func testUnknownTarget() {
        XCTAssertEqual(parseError("windw class=a"),
                       "regions:1:1: unknown target 'windw' (expected 'window', 'screen', 'monitor', 'field' or 'text', the first four optionally after 'allow')")
        XCTAssertEqual(parseError("   Screen"),
                       "regions:1:4: unknown target 'Screen' (expected 'window', 'screen', 'monitor', 'field' or 'text', the first four optionally after 'allow')")
        XCTAssertEqual(parseError("screen#x"),
                       "regions:1:1: unknown target 'screen#x' (expected 'window', 'screen', 'monitor', 'field' or 'text', the first four optionally after 'allow')")
        XCTAssertEqual(parseError(#""window" class=a"#),
                       #"regions:1:1: unknown target '"window"' (expected 'window', 'screen', 'monitor', 'field' or 'text', the first four optionally after 'allow')"#)
        XCTAssertEqual(parseError("class=a"),
                       "regions:1:1: unknown target 'class=a' (expected 'window', 'screen', 'monitor', 'field' or 'text', the first four optionally after 'allow')")
    }

    /// A 200,000-character word is quoted cut to 80 characters, not printed whole.
    func testLongWordsAreCutInMessages() {
        let word = String(repeating: "w", count: 200_000)
        let cut = String(repeating: "w", count: 80) + "…"
        XCTAssertEqual(parseError("screen \(word)"), "regions:1:8: unknown word '\(cut)' (\(words))")
        XCTAssertEqual(parseError(word), "regions:1:1: unknown target '\(cut)' (expected 'window', 'screen', 'monitor', 'field' or 'text', the first four optionally after 'allow')")
        XCTAssertEqual(parseError("screen fill=\(word)"),
                       "regions:1:13: unknown fill '\(cut)' (expected black, #rrggbb or pixelate[:N])")
    }

    func testUnknownWords() {
        XCTAssertEqual(parseError("  screen bogus"), "regions:1:10: unknown word 'bogus' (\(words))")
        XCTAssertEqual(parseError("window class~x"), "regions:1:8: unknown word 'class~x' (\(words))")
        XCTAssertEqual(parseError("window colour=red"), "regions:1:8: unknown word 'colour=red' (\(words))")
        XCTAssertEqual(parseError("window class=a window"), "regions:1:16: unknown word 'window' (\(words))")
        XCTAssertEqual(parseError(#"window "class"=a"#), #"regions:1:8: unknown word '"class"=a' (\#(words))"#)
        XCTAssertEqual(parseError("window\tclass=a\tbad"), "regions:1:16: unknown word 'bad' (\(words))")
    }

    func testColumnsCountCharactersNotBytes() {
        XCTAssertEqual(parseError("window title=café bogus"), "regions:1:19: unknown word 'bogus' (\(words))")
        XCTAssertEqual(parseError("window title=👩‍👩‍👧 bogus"), "regions:1:16: unknown word 'bogus' (\(words))")
    }

    func testColumnsCountQuotesAndEscapesAsWritten() {
        XCTAssertEqual(parseError(#"window title="a \"b\"" fill=blurr"#),
                       "regions:1:29: unknown fill 'blurr' (expected black, #rrggbb or pixelate[:N])")
    }

    func testEmptyValues() {
        XCTAssertEqual(parseError("window class="),
                       #"regions:1:14: empty value after 'class=' (expected class=NAME, or class="NAME WITH SPACES")"#)
        XCTAssertEqual(parseError(#"window instance="""#),
                       #"regions:1:17: empty value after 'instance=' (expected instance=NAME, or instance="NAME WITH SPACES")"#)
        XCTAssertEqual(parseError(#"window title="""#),
                       #"regions:1:14: empty value after 'title=' (expected title=TITLE, or title="TITLE WITH SPACES")"#)
        XCTAssertEqual(parseError("window title~ class=a"),
                       #"regions:1:14: empty value after 'title~' (expected title~REGEX, or title~"REGEX WITH SPACES")"#)
        XCTAssertEqual(parseError("screen fill="),
                       "regions:1:13: empty value after 'fill=' (expected fill=black, #rrggbb or pixelate[:N])")
    }

    func testUnterminatedQuote() {
        XCTAssertEqual(parseError(#"window title="abc"#),
                       #"regions:1:14: unterminated quote (expected a closing '"' before the end of the line)"#)
        XCTAssertEqual(parseError(#"window title="abc\""#),
                       #"regions:1:14: unterminated quote (expected a closing '"' before the end of the line)"#)
        XCTAssertEqual(parseError("window class=a \"# not a comment"),
                       #"regions:1:16: unterminated quote (expected a closing '"' before the end of the line)"#)
    }

    func testBadRegularExpression() {
        XCTAssertEqual(parseError(#"window title~"(""#),
                       "regions:1:15: bad regular expression '(': missing closing parenthesis")
        XCTAssertEqual(parseError("window class=a title~a{2,1}"),
                       "regions:1:27: bad regular expression 'a{2,1}': numbers out of order in {} quantifier")
        XCTAssertEqual(parseError("window title~\"é(?<\""),
                       "regions:1:18: bad regular expression 'é(?<': subpattern name expected")
    }

    func testBadFills() {
        XCTAssertEqual(parseError("screen fill=pixelate:1"),
                       "regions:1:22: bad block size '1' (expected pixelate:N with N from 2 to 4096)")
        XCTAssertEqual(parseError("screen fill=#12345"),
                       "regions:1:13: bad colour '#12345' (expected #rrggbb, e.g. #1e1e1e)")
        XCTAssertEqual(parseError(##"screen fill="#12""##),
                       "regions:1:14: bad colour '#12' (expected #rrggbb, e.g. #1e1e1e)")
        XCTAssertEqual(parseError(#"screen fill="pixelate:x""#),
                       "regions:1:23: bad block size 'x' (expected pixelate:N with N from 2 to 4096)")
        // UInt32(_:radix:) takes a sign: "+12345" is not six hex digits, nor is "+5" a size.
        XCTAssertEqual(parseError("screen fill=#+12345"),
                       "regions:1:13: bad colour '#+12345' (expected #rrggbb, e.g. #1e1e1e)")
        XCTAssertEqual(parseError("screen fill=#-12345"),
                       "regions:1:13: bad colour '#-12345' (expected #rrggbb, e.g. #1e1e1e)")
        XCTAssertEqual(parseError("screen fill=pixelate:+5"),
                       "regions:1:22: bad block size '+5' (expected pixelate:N with N from 2 to 4096)")
        XCTAssertEqual(parseError("screen fill=Black"),
                       "regions:1:13: unknown fill 'Black' (expected black, #rrggbb or pixelate[:N])")
    }

    func testBadGeometries() {
        XCTAssertEqual(parseError("screen 300x"), "regions:1:12: bad geometry '300x': expected a height (\(geometryForm))")
        XCTAssertEqual(parseError("screen 300"),
                       "regions:1:11: bad geometry '300': expected 'x' after the width (\(geometryForm))")
        XCTAssertEqual(parseError("screen 10x10+5"),
                       "regions:1:15: bad geometry '10x10+5': expected '+' or '-' before a y offset (\(geometryForm))")
        XCTAssertEqual(parseError("screen =10x10*"),
                       "regions:1:14: bad geometry '=10x10*': expected '+' or '-' before an x offset (\(geometryForm))")
        XCTAssertEqual(parseError("screen 10x10+1+2x"),
                       "regions:1:17: bad geometry '10x10+1+2x': unexpected text after the geometry (\(geometryForm))")
        XCTAssertEqual(parseError("screen 150%x10"),
                       "regions:1:8: bad geometry '150%x10': a width percentage must be between 0% and 100% (\(geometryForm))")
        XCTAssertEqual(parseError("screen 10x1é"),
                       "regions:1:12: bad geometry '10x1é': expected '+' or '-' before an x offset (\(geometryForm))")
    }

    func testDuplicates() {
        XCTAssertEqual(parseError("screen 10x10 20x20"),
                       "regions:1:14: duplicate geometry '20x20' (a rule takes at most one geometry; "
                           + "the first is '10x10' at column 8)")
        XCTAssertEqual(parseError("screen fill=black fill=pixelate"),
                       "regions:1:19: duplicate fill 'fill=pixelate' (a rule takes at most one fill; "
                           + "the first is 'fill=black' at column 8)")
    }

    func testWindowRuleNeedsAMatch() {
        XCTAssertEqual(parseError("window 10x10+0+0 fill=black"),
                       "regions:1:1: a window rule needs at least one of class=, instance=, title=, title~, type=")
        XCTAssertEqual(parseError("  window # all windows?"),
                       "regions:1:3: a window rule needs at least one of class=, instance=, title=, title~, type=")
    }

    func testScreenRuleTakesNoMatch() {
        XCTAssertEqual(parseError("screen 10x10 class=x"),
                       "regions:1:14: a screen rule takes no class=/instance=/title matches (found 'class=x')")
        XCTAssertEqual(parseError(#"screen title~"a b""#),
                       #"regions:1:8: a screen rule takes no class=/instance=/title matches (found 'title~"a b"')"#)
    }

    func testFirstErrorWinsAndNamesItsLine() {
        XCTAssertEqual(parseError("screen\n\n# c\nwindow\nscreen bogus\n"),
                       "regions:4:1: a window rule needs at least one of class=, instance=, title=, title~, type=")
        XCTAssertEqual(parseError("screen\r\nscreen 1x\r\n"),
                       "regions:2:10: bad geometry '1x': expected a height (\(geometryForm))")
    }

    func testErrorCarriesItsParts() throws {
        do {
            _ = try RegionsFile.parse("screen bogus", path: "/etc/x")
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.path, "/etc/x")
            XCTAssertEqual(error.line, 1)
            XCTAssertEqual(error.column, 8)
            XCTAssertEqual(error.message, "unknown word 'bogus' (\(words))")
        }
    }

    func testDescriptionWithoutPosition() {
        XCTAssertEqual(RegionsError(path: "p", message: "m").description, "p: m")
        XCTAssertEqual(RegionsError(path: "p", line: 3, message: "m").description, "p:3: m")
        XCTAssertEqual(RegionsError(path: "p", line: 3, column: 4, message: "m").description, "p:3:4: m")
    }
}
