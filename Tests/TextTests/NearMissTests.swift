// The separators cards are printed with, keys in groups, and the near-misses that look most like
// secrets: what the matchers find in each, as OCR might read them.
import ShotguardImaging
@testable import ShotguardText
import XCTest

final class NearMissTests: XCTestCase {
    /// The text each match of a rule of `kind` covers in `text` (its words split on spaces).
    private func found(_ kind: TextKind, _ text: String) -> [String] {
        var x = 0
        let parts: [Substring] = text.split(separator: " ")
        let line: [TextWord] = parts.map { word in
            defer { x += (word.count + 1) * 10 }
            return TextWord(text: String(word), rect: Rect(x: x, y: 0, width: word.count * 10, height: 12))
        }
        return LineMatcher.matches(line, rules: [TextRule(kind: kind, line: 1)]).map { match in
            line[match.words].map(\.text).joined(separator: " ")
        }
    }

    func testCardNumbersWithDotsNoBreakSpacesOrNoSeparator() {
        XCTAssertEqual(found(.card, "Card 4111.1111.1111.1111 ok"), ["4111.1111.1111.1111"])
        XCTAssertEqual(found(.card, "4111\u{00A0}1111\u{00A0}1111\u{00A0}1111"), ["4111\u{00A0}1111\u{00A0}1111\u{00A0}1111"])
        XCTAssertEqual(found(.card, "PAN 4111111111111111"), ["4111111111111111"])
        XCTAssertEqual(found(.card, "Amex 3782.822463.10005"), ["3782.822463.10005"])
        // OCR spaces a dot now and then.
        XCTAssertEqual(found(.card, "4111. 1111.1111 .1111"), ["4111. 1111.1111 .1111"])
    }

    /// OCR puts a space inside a group now and then, or splits a number printed without
    /// spaces: the number is still a card.
    func testCardNumbersOCRSplitAreCards() {
        XCTAssertEqual(found(.card, "total the 481 7-2719-4300-3618"), ["481 7-2719-4300-3618"])
        XCTAssertEqual(found(.card, "build 34583318945 1543 support"), ["34583318945 1543"])
        XCTAssertEqual(found(.card, "review 379510067 155227 review"), ["379510067 155227"])
        // An American Express number's long groups split.
        XCTAssertEqual(found(.card, "passed 3447-147 358-50522 below"), ["3447-147 358-50522"])
        XCTAssertEqual(found(.card, "tax 3771-004538-91 601 pull"), ["3771-004538-91 601"])
        XCTAssertEqual(found(.card, "tax 3771-004538-91 602 pull"), [], "Luhn-invalid")
        XCTAssertEqual(found(.card, "ports 5432 443 587 6379"), [], "a list of numbers, not starting with a 3")
        XCTAssertEqual(found(.card, "Request +44 20 7760 4095 please"), [], "a phone number")
        XCTAssertEqual(found(.card, "481 7-2719-4300-3619"), [], "Luhn-invalid")
        XCTAssertEqual(found(.card, "d54ea19a4 2680262948 71b21 21 cc3.aa"), [], "a digest's pieces")
        XCTAssertEqual(found(.card, "225 1348702363 764"), [], "the first groups of a longer run")
    }

    /// The digits of a longer number are no card number, though a run of them passes Luhn: a
    /// parcel's tracking number, an account. A card still starts where its run does.
    func testDigitsInsideALongerNumberAreNoCard() {
        // 4111 1111 1111 1111 is Luhn-valid; here it is the tail of a 22-digit USPS number.
        XCTAssertEqual(found(.card, "Tracking 9400 11 4111 1111 1111 1111"), [])
        XCTAssertEqual(found(.card, "9374 4111 1111 1111 1111 35"), [])
        XCTAssertEqual(found(.card, "4111 1111 1111 1111 12/27"), ["4111 1111 1111 1111"], "an expiry after it")
    }

    /// A word that starts with a country code and letters that fold to digits ("DEBIT": DE and
    /// 8, 1) is no IBAN's first group, so the card after it is still a card; an IBAN whose check
    /// digits OCR read as symbols ("IT57" read "ITS?", "ES08" read "ES®B") still starts one.
    func testOnlyAnIBANsFirstGroupKeepsACardNumberOut() {
        for label in ["DEBIT", "FRIDAY", "ESTIMATE", "Paid DEBIT CARD"] {
            XCTAssertEqual(found(.card, "\(label) 4111 1111 1111 1111"), ["4111 1111 1111 1111"], label)
        }
        XCTAssertEqual(found(.card, "ITS? J722 8073 3187 6550 7668 347"), [])
        XCTAssertEqual(found(.card, "ITS?J722 6073 3187 6550 7668 347"), [], "its first two groups joined")
        XCTAssertEqual(found(.card, "TOKEN=ES\u{00AE}B 5262 0462 8793 1031 6187"), [])
        XCTAssertEqual(found(.card, "IT97T901 6236 6460 2823 1960 293"), [])
    }

    /// A UUID or digest OCR read with a few slips (an `O` for a `0`, a `C` for a `c`, a lost
    /// dash) is a hash, not a random-looking key.
    func testHashesReadWithSlipsAreNoKeys() {
        for text in ["98O16080-35eb-7a1a-a5da-2f6515f9CeCc", "0c1e5a6415ec-d4f7-90ee-a655c8aaef2D",
                     "sha256:5fE8a0c0B1d2e3f4a5b6c7d8e9f0a1b2c3d4e5Fo", "b68a9632ldecTc22a20b59a34be6llfa",
                     "sha2S620c]69691lidGb4ch13"] {
            XCTAssertEqual(found(.key, text), [], text)
        }
        XCTAssertEqual(found(.key, "token qMfRdRabbmCJsmRF3WDlm1ikgAlzssJOQvD9CQue"),
                       ["qMfRdRabbmCJsmRF3WDlm1ikgAlzssJOQvD9CQue"], "a random key is still a key")
    }

    /// A symbol OCR read for a letter inside a key (`]` for `l`, `}` for `J`, `/` for `J` in an
    /// AWS id) leaves it a key; the same symbols in code and logs make none.
    func testKeysWithSymbolsOCRReadInsideThemAreKeys() {
        XCTAssertEqual(found(.key, "Passed branch sk_live_igZRoklUUgr]STiSZSYQx7xXi order staging."),
                       ["sk_live_igZRoklUUgr]STiSZSYQx7xXi"])
        XCTAssertEqual(found(.key, "AKIAS40GY4/TLBFTC82Y"), ["AKIAS40GY4/TLBFTC82Y"])
        XCTAssertEqual(found(.key, "AKIA0 XK1SH AUER) KTHYQ"), ["AKIA0 XK1SH AUER) KTHYQ"], "a group ending in one")
        XCTAssertEqual(found(.key, "The status H8iDBSytoYY29060hQG}ikxNqHpxuzwe MiENCZZk merged").first,
                       "H8iDBSytoYY29060hQG}ikxNqHpxuzwe")
        for text in ["call getUserAccountSettings(profileId2).then(render) now", "[info] user=alice (admin) it's [ok]",
                     "see docs/api/v2/UserAccountSettingsController.swift"] {
            XCTAssertEqual(found(.key, text), [], text)
        }
    }

    /// Keys printed in groups of one length, known shapes or random, are covered whole; words
    /// of one length in a sentence are not.
    func testKeysInGroupsAreKeys() {
        XCTAssertEqual(found(.key, "key AKIA 94AL QX8R 905O RZH6, saved"), ["AKIA 94AL QX8R 905O RZH6,"])
        // (Read with the space after `ghp_` taken out too, its groups after the first are a key of their own.)
        let github = "ghp_ FfY4 TWxL ZWdn dAl1 Q1RB 8RmG 5IqX pZus v4bM"
        XCTAssertEqual(found(.key, github).first, github)
        XCTAssertTrue(found(.key, github).allSatisfy { github.contains($0) })
        XCTAssertEqual(found(.key, "sk_l ive_ 7FEK ch2E AS5U PIhv tDmn ijag"), ["sk_l ive_ 7FEK ch2E AS5U PIhv tDmn ijag"])
        XCTAssertEqual(found(.key, "eLBAN uqSCV cCMHo wmgjs xwFZf AfRaK hnxDa 4cj7e"),
                       ["eLBAN uqSCV cCMHo wmgjs xwFZf AfRaK hnxDa 4cj7e"])
        // A first group OCR read a character longer; words after the key; two groups OCR joined;
        // an AWS id whose prefix OCR misread.
        XCTAssertEqual(found(.key, "'X-Key: ghp_aB0O5 U4vdjBss seZqZDgu tNJ5KE5T DuG4YGPN"),
                       ["ghp_aB0O5 U4vdjBss seZqZDgu tNJ5KE5T DuG4YGPN"])
        XCTAssertEqual(found(.key, "user=AKIAO MH9IZ QW16C 9AXB2 build saved"), ["user=AKIAO MH9IZ QW16C 9AXB2"])
        XCTAssertEqual(found(.key, "xoxb 023 1308 2613 3-76 4819 0669 727-itlB rZLu E9g8 D20Z muVe utBZ restarted main"),
                       ["xoxb 023 1308 2613 3-76 4819 0669 727-itlB rZLu E9g8 D20Z muVe utBZ"])
        XCTAssertEqual(found(.key, "AKITA O5GK 0534 VKMP 8CPG"), ["AKITA O5GK 0534 VKMP 8CPG"])
        XCTAssertEqual(found(.key, "this that with from have been were"), [])
        XCTAssertEqual(found(.key, "9400 1000 0000 4111 1111 2222 33"), [], "digits in groups are no key")
    }
}
