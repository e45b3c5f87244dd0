// The text matchers on lines of words: what they find, and the near-misses they leave alone.
import ShotguardImaging
@testable import ShotguardText
import XCTest

final class MatcherTests: XCTestCase {
    /// The words of `text` (split on spaces), each given a box of 10 px per character on one row.
    func words(_ text: String) -> [TextWord] {
        var x = 0
        let parts: [Substring] = text.split(separator: " ")
        return parts.map { word in
            defer { x += (word.count + 1) * 10 }
            return TextWord(text: String(word), rect: Rect(x: x, y: 0, width: word.count * 10, height: 12))
        }
    }

    /// The text each match of a rule of `kind` covers, words joined by spaces.
    func found(_ kind: TextKind, _ text: String, pattern: String? = nil) throws -> [String] {
        let line = words(text)
        let rule = TextRule(kind: kind, pattern: try pattern.map { try TextPattern($0) }, line: 1)
        return LineMatcher.matches(line, rules: [rule]).map { match in
            line[match.words].map(\.text).joined(separator: " ")
        }
    }

    func testCardNumbersInTheGroupsCardsArePrintedIn() throws {
        XCTAssertEqual(try found(.card, "Card 4111 1111 1111 1111 exp 12/27"), ["4111 1111 1111 1111"])
        XCTAssertEqual(try found(.card, "5555-5555-5555-4444"), ["5555-5555-5555-4444"])
        XCTAssertEqual(try found(.card, "Amex 3782 822463 10005 ok"), ["3782 822463 10005"])
        XCTAssertEqual(try found(.card, "pan=4012888888881881;"), ["pan=4012888888881881;"])
        XCTAssertEqual(try found(.card, "6011 1111 1111 1117 and 4111 1111 1111 1111"),
                       ["6011 1111 1111 1117", "4111 1111 1111 1111"])
        // OCR dropped a space between two groups.
        XCTAssertEqual(try found(.card, "41111111 1111 1111"), ["41111111 1111 1111"])
        XCTAssertEqual(try found(.card, "4111 - 1111 - 1111 - 1111"), ["4111 - 1111 - 1111 - 1111"])
    }

    func testLookAlikeLettersCountAsDigitsInsideNumbers() throws {
        XCTAssertEqual(try found(.card, "4111 1l11 11I1 1111"), ["4111 1l11 11I1 1111"])
        XCTAssertEqual(try found(.card, "5555 5555 SS55 4444"), ["5555 5555 SS55 4444"])
        // A group of letters that all fold is a word, not digits.
        XCTAssertEqual(try found(.card, "4111 1111 1111 1111 Bill"), ["4111 1111 1111 1111"])
    }

    func testCardNearMissesAreLeftAlone() throws {
        // Luhn-invalid, a date, an order number, phone numbers, a short number, an issuer digit of 9.
        for text in ["4111 1111 1111 1112", "2026-12-03", "Order #100-2345-6789", "+44 20 7946 0958",
                     "+1 (555) 013-2447", "555-013-2447", "1234 5678", "9111 1111 1111 1111",
                     "Invoice 2026 0001 2345", "12/27 2026-12-03 10:45"] {
            XCTAssertEqual(try found(.card, text), [], text)
        }
    }

    func testEmailAddresses() throws {
        XCTAssertEqual(try found(.email, "Mail: j.doe+tag@mail.example.org."), ["j.doe+tag@mail.example.org."])
        XCTAssertEqual(try found(.email, "alice@example.com, bob@example.net"), ["alice@example.com,", "bob@example.net"])
        // OCR put a space after the '@', or read it as '©'.
        XCTAssertEqual(try found(.email, "carol.smith@ example.co.uk"), ["carol.smith@ example.co.uk"])
        XCTAssertEqual(try found(.email, "dave©example.com"), ["dave©example.com"])
        // The ring's left edge read as a mark of its own, and spaces OCR put beside punctuation.
        XCTAssertEqual(try found(.email, "saved i.jones(@contoso.net restarted"), ["i.jones(@contoso.net"])
        XCTAssertEqual(try found(.email, "details li_patel\\@acme-corp.io service."), ["li_patel\\@acme-corp.io"])
        XCTAssertTrue(try found(.email, "grace. kim+news(@ example.com").contains("grace. kim+news(@ example.com"))
        XCTAssertTrue(try found(.email, "r.dubois@g Lobex. fr").contains("r.dubois@g Lobex. fr"), "a domain split after its first letter")
        // A digit read as '@' or '&', a mark read after the '@'.
        XCTAssertEqual(try found(.email, "export TOKEN=yusuf7@@example.com cache"), ["TOKEN=yusuf7@@example.com"])
        XCTAssertTrue(try found(.email, "note: walter&@umbrella. example").contains("walter&@umbrella. example"))
        XCTAssertEqual(try found(.email, "order yusut_rossi@#globex.ir the"), ["yusut_rossi@#globex.ir"])
        // A space OCR made up inside a domain (a wide letter pair of large monospaced text): read
        // past while the domain is not whole yet; a whole domain takes no word after it.
        XCTAssertEqual(try found(.email, "note: heidi_haddad@examp le. com"), ["heidi_haddad@examp le. com"])
        XCTAssertEqual(try found(.email, "bob_haddad@nor thwind.co.uk"), ["bob_haddad@nor thwind.co.uk"])
        XCTAssertEqual(try found(.email, "[info] user=peggy_fischer@no rthwind. co.uk"), ["user=peggy_fischer@no rthwind. co.uk"])
        XCTAssertEqual(try found(.email, "write to alice@example.com tests later"), ["alice@example.com"])
        // A domain that is not whole never takes the next address's local part.
        XCTAssertEqual(try found(.email, "root@server john.doe @example.com"), ["john.doe @example.com"])
        XCTAssertEqual(try found(.email, "root@server john.doe@ example.com"), ["john.doe@ example.com"])
        for text in ["@handle said hi", "said (@handle) hi", "me@a b", "user@localhost tomorrow morning", "a@bc de fg.hi", "@@everyone hi", "a @@ b.c", "user@localhost", "a @ b", "price @ 5.00", "v1.2.3"] {
            XCTAssertEqual(try found(.email, text), [], text)
        }
    }

    func testIBANsOfKnownCountriesWithAValidChecksum() throws {
        XCTAssertEqual(try found(.iban, "IBAN DE89 3704 0044 0532 0130 00 (Berlin)"), ["DE89 3704 0044 0532 0130 00"])
        XCTAssertEqual(try found(.iban, "GB82WEST12345698765432"), ["GB82WEST12345698765432"])
        XCTAssertEqual(try found(.iban, "to FR14 2004 1010 0505 0001 3M02 606."), ["FR14 2004 1010 0505 0001 3M02 606."])
        XCTAssertEqual(try found(.iban, "NL91 ABNA 0417 1643 00"), ["NL91 ABNA 0417 1643 00"])
        // A misread digit in a country whose accounts are digits only.
        XCTAssertEqual(try found(.iban, "DE89 37O4 0044 0532 0130 00"), ["DE89 37O4 0044 0532 0130 00"])
        for text in ["DE89 3704 0044 0532 0130 01", "DE89 3704 0044 0532 0130", "XX89 3704 0044 0532 0130 00",
                     "DE89 3704 0044 0532 0130 0012"] {
            XCTAssertEqual(try found(.iban, text), [], text)
        }
    }

    /// Regression: an IBAN after `=` ("user=FR89 …") had its first four digit groups, Luhn-valid
    /// by chance, covered as a card number too.
    func testTheDigitsOfAnIBANAfterPunctuationAreNoCardNumber() throws {
        XCTAssertEqual(try found(.card, "4111 1111 1111 1111"), ["4111 1111 1111 1111"])
        XCTAssertEqual(try found(.card, "user=FR06 4111 1111 1111 1111 1973 402"), [])
        XCTAssertEqual(try found(.card, "(FR06 4111 1111 1111 1111 1973 402)"), [])
        // Groups OCR joined, and a look-alike symbol inside the account.
        XCTAssertEqual(try found(.card, "FR06 41111111 1111 1111 1973 402"), [])
        XCTAssertEqual(try found(.card, "FR06 $111 1111 1111 1111 1973 402"), [])
        XCTAssertEqual(try found(.card, "FR064111 1111 1111 1111 1973 402"), [])
        // Letters of the account that fold to digits ("T901" to 7901) start no number either.
        XCTAssertEqual(try found(.card, "IT97 T901 6236 6460 2823 1960 293"), [])
        XCTAssertEqual(try found(.iban, "user=FR06 4111 1111 1111 1111 1973 402"), ["user=FR06 4111 1111 1111 1111 1973 402"])
    }

    /// Regression: UUIDs whose letters OCR read in upper case or as other letters ("l" for 1,
    /// "O" for 0) looked random enough to be keys.
    func testAUUIDIsNoKeyWhateverOCRMadeOfItsLetters() throws {
        for text in ["id 9cd1ef60-d09f-d1fc-b601-8292a8a81e78 ok", "9cdlef60-dO9F-d1fc-b6O1-8292a8a81e78",
                     "8e000329-e5dd-2e4f-fOe8-12c8F6334846", "X-Key: cc569a8d-169a-6438-5f29-4ede9el49f8F"] {
            XCTAssertEqual(try found(.key, text), [], text)
        }
        // A key beside a UUID is still one.
        XCTAssertEqual(try found(.key, "9cd1ef60-d09f-d1fc-b601-8292a8a81e78 ghp_VVfzp5ditE09OmbRWjNKEbDbpeh4AcdU0rE1"),
                       ["ghp_VVfzp5ditE09OmbRWjNKEbDbpeh4AcdU0rE1"])
    }

    func testKeysOfKnownShapes() throws {
        XCTAssertEqual(try found(.key, "export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE"),
                       ["AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE"])
        XCTAssertEqual(try found(.key, "token ghp_16C7e42F292c6912E7710c838347Ae178B4a ok"),
                       ["ghp_16C7e42F292c6912E7710c838347Ae178B4a"])
        XCTAssertEqual(try found(.key, "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx"),
                       ["OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx"])
        XCTAssertEqual(try found(.key, "slack xoxb-123456789012-1234567890123-AbCdEfGhIj"),
                       ["xoxb-123456789012-1234567890123-AbCdEfGhIj"])
        XCTAssertEqual(try found(.key, "sk_live_4eC39HqLyjWDarjtT1zdp7dc"), ["sk_live_4eC39HqLyjWDarjtT1zdp7dc"])
        // AWS ids whose prefix OCR misread by a character.
        XCTAssertEqual(try found(.key, "check AAIAM4VNZLA4Q10XDOZT ok"), ["AAIAM4VNZLA4Q10XDOZT"])
        XCTAssertEqual(try found(.key, "AKTIAVBVISS1ICACHORTS"), ["AKTIAVBVISS1ICACHORTS"])
        XCTAssertEqual(try found(.key, "SERIAL ABCD1234EFGH5678IJ"), [])
        // An AWS id with three characters read as two each (9-11 px text).
        XCTAssertEqual(try found(.key, "AKIANX77WJILJI6Q09SHRBY"), ["AKIANX77WJILJI6Q09SHRBY"])
        // Printed in groups, or split by OCR, with the prefix misread.
        XCTAssertEqual(try found(.key, "notes AKLAL9DK BUKI2Q49 LD5V and"), ["AKLAL9DK BUKI2Q49 LD5V"])
        XCTAssertEqual(try found(.key, "| AKT ADDBGUQOFUDW/NO3 CN"), ["AKT ADDBGUQOFUDW/NO3 CN"])
        XCTAssertEqual(try found(.key, "ASIA PACIFIC 2024 REGIONAL"), [])
        // A Stripe key whose "live" OCR misread by a letter, and a Slack token glued to the word before it.
        XCTAssertEqual(try found(.key, "sk_ive_kmAcHtkzBleockFJSBrmiv"), ["sk_ive_kmAcHtkzBleockFJSBrmiv"])
        XCTAssertEqual(try found(.key, "[info] user=sk_lLive_WhtPBdnWxviLpwoCGOvdQoUW"), ["user=sk_lLive_WhtPBdnWxviLpwoCGOvdQoUW"])
        XCTAssertEqual(try found(.key, "Payment order ifxoxb-238154643474-7246562025609-nm3FUstzcgyHPSxwOmdzbw7s ship"),
                       ["ifxoxb-238154643474-7246562025609-nm3FUstzcgyHPSxwOmdzbw7s"])
        for text in ["sk_user_1234567890abcdefgh", "task_live_1234567890abcdefghij", "sk_lively_abcdefghijklmnopqr"] {
            XCTAssertEqual(try found(.key, text), [], text)
        }
    }

    /// OCR puts spaces inside long tokens, and drops the underscore after a prefix now and then.
    func testKeysSplitByOCRAreJoined() throws {
        XCTAssertEqual(try found(.key, "x sk_live_pHXOCFObm2K HdrgW7gXhW TsY notes"), ["sk_live_pHXOCFObm2K HdrgW7gXhW TsY"])
        XCTAssertEqual(try found(.key, "sk_live tbAqUZXcI28CRC4IEKc5HRv5"), ["sk_live tbAqUZXcI28CRC4IEKc5HRv5"])
        XCTAssertEqual(try found(.key, "saved dhCcvsCEfg2bnNHBngxi7 OOWLe38aXfPQo2zK notes"),
                       ["dhCcvsCEfg2bnNHBngxi7 OOWLe38aXfPQo2zK"])
        // Words around a key are not pieces of it.
        XCTAssertEqual(try found(.key, "Bearer Zx8Qp2LmN4vB7rT1yU6wE3kJ9hG5fD0s expires"), ["Zx8Qp2LmN4vB7rT1yU6wE3kJ9hG5fD0s"])
        // 13 px Liberation Sans, rDEYA0Y4aQXAsAFLCnFs8t0l66UHUlpfStWIn7zk: spaces OCR made up, a
        // first piece that is no random piece by itself, an 8 read 'é', a piece of two letters.
        XCTAssertEqual(try found(.key, "API key rDEYAOY 4aQOXAsAFLCnFsét0l66U HU IpfStWin7zk"),
                       ["rDEYAOY 4aQOXAsAFLCnFsét0l66U HU IpfStWin7zk"])
        // A piece of one character (a space OCR put between two 1s).
        XCTAssertEqual(try found(.key, "1ksIIZIKRNt63FqTOag1 1 bavPSj5jpXGNAQUWD2x we"), ["1ksIIZIKRNt63FqTOag1 1 bavPSj5jpXGNAQUWD2x"])
        // A key in groups whose first two OCR joined: the random run goes on through the groups
        // of the same length, whatever their letters ("IKCMh" alone changes case once).
        XCTAssertEqual(try found(.key, "| nWbP11i3z3 kBTFv 2mbCM ZdMX5 8XE3x IKCMh 0O3KW"),
                       ["nWbP11i3z3 kBTFv 2mbCM ZdMX5 8XE3x IKCMh 0O3KW"])
        // A label before a key is not taken in, nor are short words into a sentence.
        XCTAssertEqual(try found(.key, "Token Zx8Qp2LmN4vB7rT1 yU6wE3kJ9hG5fD0s"), ["Zx8Qp2LmN4vB7rT1 yU6wE3kJ9hG5fD0s"])
        for text in ["Meeting at 10 am in Room B2 with Ann and Bo", "Order ID 7X9 of 12 for Bob at HQ on May 4th",
                     "MacBook Pro M2 16 GB 512 GB SSD US", "Flight LH2024 to NYC at 9 am on A3 gate B12 ok"] {
            XCTAssertEqual(try found(.key, text), [], text)
        }
    }

    func testLongRandomTokensAreKeysAndWordsAndHashesAreNot() throws {
        XCTAssertEqual(try found(.key, "secret: Zx8Qp2LmN4vB7rT1yU6wE3kJ9hG5fD0s"), ["Zx8Qp2LmN4vB7rT1yU6wE3kJ9hG5fD0s"])
        XCTAssertEqual(try found(.key, "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"),
                       ["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"])
        for text in ["commit 9fceb02d0ae598e95dc970b74767f19372d61af8", "550e8400-e29b-41d4-a716-446655440000",
                     "AbstractSingletonProxyFactoryBean2024", "/usr/lib/x86_64-linux-gnu/libtesseract.so.5",
                     "getUserAccountSettings2ForCurrentProfile1", "Order ORD-2026-000123 shipped",
                     "task-runner-abcdefghijklmnopqrstuvwxyz", "87e46098283d56b21dfbSc8c57596d0761abc3f4",
                     "skillsAndExperiences2024Summary", "the Quick Brown Fox Jumps Over"] {
            XCTAssertEqual(try found(.key, text), [], text)
        }
    }

    func testPatternsFindEveryMatchAndAWholeLineWhenTheBudgetRunsOut() throws {
        XCTAssertEqual(try found(.pattern, "ticket PRJ-1234 and PRJ-99 closed", pattern: "PRJ-\\d+"), ["PRJ-1234", "PRJ-99"])
        XCTAssertEqual(try found(.pattern, "name: Alice Smith, age 30", pattern: "(?i)alice smith"), ["Alice Smith,"])
        let line = String(repeating: "a", count: 30) + " b"
        XCTAssertEqual(try found(.pattern, line, pattern: "(a+)+$"), [line])
        XCTAssertEqual(try found(.pattern, "nothing here", pattern: "PRJ-\\d+"), [])
    }

    func testLuhnAndMod97() {
        XCTAssertTrue(CardMatcher.luhn([4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]))
        XCTAssertFalse(CardMatcher.luhn([4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]))
        XCTAssertEqual(IBANMatcher.mod97(Array("GB82WEST12345698765432".unicodeScalars)), 1)
        XCTAssertNotEqual(IBANMatcher.mod97(Array("GB83WEST12345698765432".unicodeScalars)), 1)
    }
}
