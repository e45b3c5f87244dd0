// E-mail addresses as OCR reads them in small text: the '@' read as "(2’", marks after it, a dot lost or read as '_'.
@testable import ShotguardText
import XCTest

/// Each line is what Debian 12's Tesseract read of an address in a fresh corpus
/// (scripts/text-recall.py) that the e-mail rule missed before.
extension MatcherTests {
    func testAddressesWhoseAtSignOCRReadAsOtherMarks() throws {
        XCTAssertEqual(try found(.email, "Request by tests oscar.costa+news(2’mail.example.org please cache"),
                       ["oscar.costa+news(2’mail.example.org"])
        XCTAssertEqual(try found(.email, "tax rupert.jones+news(2'globex.fr the"), ["rupert.jones+news(2'globex.fr"])
        XCTAssertEqual(try found(.email, "merged ivan_obrien(@*northwind.co.uk profile"), ["ivan_obrien(@*northwind.co.uk"])
        XCTAssertEqual(try found(.email, "Please user s.costa(@’umbrella.example details."), ["s.costa(@’umbrella.example"])
        for text in ["max(2’s complement", "f(2’x) = y", "(2’) and (3’)"] {
            XCTAssertEqual(try found(.email, text), [], text)
        }
    }

    func testDomainsWhoseDotOCRLostOrReadAsAnUnderscore() throws {
        XCTAssertEqual(try found(.email, "alice_fischer @hoolixyz"), ["alice_fischer @hoolixyz"])
        XCTAssertEqual(try found(.email, "bob.tanaka@acme-corpio"), ["bob.tanaka@acme-corpio"])
        XCTAssertEqual(try found(.email, "Tests we mallor47@contoso_net we includes"), ["mallor47@contoso_net"])
        XCTAssertEqual(try found(.email, "| nadia30@mail_.example.arg"), ["nadia30@mail_.example.arg"])
        XCTAssertTrue(try found(.email, "rupert. weber+news@ cantoso net").contains("rupert. weber+news@ cantoso net"))
        // An underscore after a whole domain is no dot of it.
        for text in ["bob@acme.com_1", "report-alice@example.com_2024.pdf"] {
            XCTAssertEqual(try found(.email, text), [text], text)
        }
        // The line's last glyph lost.
        XCTAssertEqual(try found(.email, "ivan.kowalski+news@globex.f"), ["ivan.kowalski+news@globex.f"])
        // Host names in prompts are no domains: no known ending, or one of a word.
        for text in ["root@fedora:~$ ls", "user@ubuntu-server $", "git@home", "admin@node", "pi@disco", "me@com", "a@globex.f.",
                     "user@studio:~$", "root@intranet:~# ls", "jane@portfolio ~ %", "return x@self.W", "h = inputs@weights.T"] {
            XCTAssertEqual(try found(.email, text), [], text)
        }
    }
}
