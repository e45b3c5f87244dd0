// Keys as OCR reads them in small text: symbols for letters, lower-case capitals, a prefix split or cut off, groups on and on.
import ShotguardImaging
@testable import ShotguardText
import XCTest

/// Each line is what Debian 12's Tesseract read of a key in a fresh corpus (scripts/text-recall.py)
/// that the key rule missed before.
extension MatcherTests {
    func testAWSIdsWithSymbolsAndLowerCaseLettersOCRReadForTheirCharacters() throws {
        XCTAssertEqual(try found(.key, "Build restarted AKIA 65PN 4QCj CIIN QDFD warmed looks."), ["AKIA 65PN 4QCj CIIN QDFD"])
        XCTAssertEqual(try found(.key, "Includes saved tests AKIAQ BRDEC VIKOQ 6H3i4 invoice by."), ["AKIAQ BRDEC VIKOQ 6H3i4"])
        XCTAssertEqual(try found(.key, "AKIAUM19 XCPH8&NOW 9FP6"), ["AKIAUM19 XCPH8&NOW 9FP6"])
        XCTAssertEqual(try found(.key, "AKIAJKMM@UUC46 1AFHB4"), ["AKIAJKMM@UUC46 1AFHB4"])
        // Two characters OCR lost.
        XCTAssertEqual(try found(.key, "AKIAPS21 V4JDYFH2 OW"), ["AKIAPS21 V4JDYFH2 OW"])
        // Three lower-case letters are words, not slips.
        for text in ["AKIAabcDEFGHIJKLMNOP", "ASIAprodSERVER2024XY", "ASIA PACIFIC 2024 REGIONAL"] {
            XCTAssertEqual(try found(.key, text), [], text)
        }
    }

    func testStripeKeysWithTheirPrefixSplitOrItsUnderscoreReadAsASpace() throws {
        XCTAssertEqual(try found(.key, "| $ curl -H 'X-Key: sk_l ive_ dSrB AwB2 qjwQ bgH® Weva d3VM passed request"),
                       ["sk_l ive_ dSrB AwB2 qjwQ bgH® Weva d3VM"])
        XCTAssertEqual(try found(.key, "sk live_vffO elKW uT7V Ip7x akl7 1zDM"), ["sk live_vffO elKW uT7V Ip7x akl7 1zDM"])
        XCTAssertEqual(try found(.key, "| sk live_mpCyv@98JCtHIFSECISHR6H"), ["sk live_mpCyv@98JCtHIFSECISHR6H"])
        XCTAssertEqual(try found(.key, "| sk_live_nbB¢FhypvLrsql VimPNma2weW"), ["sk_live_nbB¢FhypvLrsql VimPNma2weW"])
        // Both underscores read as spaces, and the prefix cut in three.
        XCTAssertEqual(try found(.key, "Anything tests check request your sk live akihQBdRutxGDneJkjbRkKMLB"),
                       ["sk live akihQBdRutxGDneJkjbRkKMLB"])
        XCTAssertEqual(try found(.key, "We review sk li ve Xq NSxoH IXEVB CI8Kt cYUQb xT merged."),
                       ["sk li ve Xq NSxoH IXEVB CI8Kt cYUQb xT"])
        // Without its underscore, "live" must be read right; words after it are no body.
        for text in ["sk liv_abcdefghijklmnopqrstuvwx", "sk live events are streamed", "sk live streaming notifications everywhere"] {
            XCTAssertEqual(try found(.key, text), [], text)
        }
    }

    func testASlackTokenWhosePrefixOCRMisread() throws {
        XCTAssertEqual(try found(.key, "xomb-186222015871-5435891269847-bd6 YuSBEh) Tv SniPyYx6mB"),
                       ["xomb-186222015871-5435891269847-bd6 YuSBEh) Tv SniPyYx6mB"])
        // Its two runs of digits make it one.
        for text in ["xomb-party-invitation-for-everyone-in-the-team", "xomb-12345-67890-abcdefghijklmnopqrstuvwxyz"] {
            XCTAssertEqual(try found(.key, text), [], text)
        }
    }

    /// A prefix read whole, then groups of five: the groups after the ones that made the body
    /// long enough are taken whatever their letters, and so is a shorter last group.
    func testAKeysGroupsAfterItsPrefixAreTakenToTheLast() throws {
        XCTAssertEqual(try found(.key, "Account main notes ship sk_live_HN lyonk 2ps9P YNHXP ISXZA xD account details."),
                       ["sk_live_HN lyonk 2ps9P YNHXP ISXZA xD"])
        XCTAssertEqual(try found(.key, "sk_live_Pm lyuKT WOm5k 2Jd8y PBGWU RB"), ["sk_live_Pm lyuKT WOm5k 2Jd8y PBGWU RB"])
        // A group that starts with a symbol OCR read for its first character, a group split in two.
        XCTAssertEqual(try found(.key, "Support please the ghp_7 midZi |6RW4 jq1 HZ j15Ut rOR7L Ds33n HoySA includes warmed if reply."),
                       ["ghp_7 midZi |6RW4 jq1 HZ j15Ut rOR7L Ds33n HoySA"])
        XCTAssertEqual(try found(.key, "If pull ghp_! S9egyF PkuP5 VpbkZ rkngX UbAe1 qh3F? RBvs3"),
                       ["ghp_! S9egyF PkuP5 VpbkZ rkngX UbAe1 qh3F? RBvs3"])
        // A group OCR split in three ("bd Td FXIO" for "bdTdFXlO"); a word of the groups' length
        // after the key may be covered with it.
        let split = try found(.key, "Service build sk-proj- hmDcj5aS tESS4QOE bd Td FXIO 4iii3Z290 sm8pHnNt account main")
        XCTAssertTrue(split.contains { $0.hasPrefix("sk-proj- hmDcj5aS tESS4QOE bd Td FXIO 4iii3Z290 sm8pHnNt") }, "\(split)")
        // Groups of eight whose first two OCR read a character longer and shorter.
        XCTAssertEqual(try found(.key, "fiq3gglIK qniSTEH Mnmdktvl m8eGH2gC ZCB85wYG"), ["fiq3gglIK qniSTEH Mnmdktvl m8eGH2gC ZCB85wYG"])
        // Words after a prefix are no body.
        for text in ["keys look like sk_live_ and the rest of it is secret", "use ghp_ then your token of forty letters here"] {
            XCTAssertEqual(try found(.key, text), [], text)
        }
    }

    /// Symbols OCR reads for a key's characters are also a URL's and a host's: a key runs into
    /// the next parameter no more than it did (`&`, `?`, `@`), and a known shape whose groups end
    /// where a random run of them goes on is covered as far as the run.
    func testAKeyEndsAtAURLsNextParameterAndReachesAsFarAsItsGroups() throws {
        for text in ["AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE&Expires=1141889120",
                     "key=AIzaSyB41DRUbKWJHPxaFjMAwdrzWzbVKartNGg&libraries=places", "AKIAIOSFODNN7EXAMPLE@prod",
                     "https://example.com/?token=ghp_16C7e42F292c6912E7710c838347Ae178B4a?x=1"] {
            XCTAssertEqual(try found(.key, text), [text], text)
        }
        XCTAssertTrue(try found(.key, "ghp_ aB3dE eF5gH hI7jK kL9mN oP1qR sT3uV wX 5yZa bC7d")
            .contains("ghp_ aB3dE eF5gH hI7jK kL9mN oP1qR sT3uV wX 5yZa bC7d"))
        // Title Case words after a prefix are no groups of a key.
        for text in ["Format: ghp_ Personal Access Token Shown Once In Your Settings Page",
                     "Set STRIPE_KEY to sk_live_ Then Restart The Server Again Now"] {
            XCTAssertEqual(try found(.key, text), [], text)
        }
    }

    /// The line finder cut a key in a monospaced font after its prefix: the prefix ends the line
    /// and is covered; its groups are read in a crop of their own.
    func testAPrefixThatEndsALineIsCovered() throws {
        XCTAssertEqual(try found(.key, "| [info] user=sk_l ive_"), ["user=sk_l ive_"])
        XCTAssertEqual(try found(.key, "Secret key sk_live_"), ["sk_live_"])
        XCTAssertEqual(try found(.key, "token: ghp_"), ["ghp_"])
        for text in ["the task_live_", "prefix sk-", "ends in sk_live", "sk_live_ and more"] {
            XCTAssertEqual(try found(.key, text), [], text)
        }
    }

    /// Covers of one rule a space apart on a row reach each other; others are left as they are.
    func testHitsASpaceApartOnARowReachEachOther() {
        let hit = { (x: Int, y: Int, width: Int, line: Int) in
            TextHit(kind: .key, line: line, rect: Rect(x: x, y: y, width: width, height: 20), fill: .solid(0), source: .ocr)
        }
        let bridged = TextScanner.bridged([hit(955, 250, 62, 4), hit(1020, 250, 199, 4), hit(1300, 250, 50, 4),
                                           hit(1020, 300, 40, 4), hit(1063, 300, 40, 2)])
        XCTAssertEqual(bridged.map(\.rect), [Rect(x: 955, y: 250, width: 65, height: 20), Rect(x: 1020, y: 250, width: 199, height: 20),
                                             Rect(x: 1300, y: 250, width: 50, height: 20), Rect(x: 1020, y: 300, width: 40, height: 20),
                                             Rect(x: 1063, y: 300, width: 40, height: 20)])
    }
}
