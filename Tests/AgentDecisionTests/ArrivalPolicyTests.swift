// The decisions at a file's or clipboard image's arrival, as values, without X.
@testable import ShotguardAgent
import XCTest

final class ArrivalPolicyTests: XCTestCase {
    private func file(burst: Bool = true, sensing: Bool = true, named: Bool = false, holder: Bool = false, read: Bool = false,
                      evidence: Bool = false) -> FileArrivalFacts {
        FileArrivalFacts(burst: burst, sensingAnswers: sensing, stronglyNamed: named, writtenByHolder: holder, anyRecentRead: read,
                         eventHasEvidence: evidence)
    }

    /// Only a burst of images nothing ties to a capture is left unopened; anything else is taken in.
    func testOnlyABurstOfUnrelatedImagesIsLeftUnopened() {
        XCTAssertEqual(ArrivalPolicy.decide(file()), .leaveUnopened)
        XCTAssertEqual(ArrivalPolicy.decide(file(burst: false)), .takeIn, "a few files go the whole way")
        XCTAssertEqual(ArrivalPolicy.decide(file(sensing: false)), .takeIn, "without sensing (or paused) nothing is known")
        XCTAssertEqual(ArrivalPolicy.decide(file(named: true)), .takeIn, "a screenshot's name always counts")
        XCTAssertEqual(ArrivalPolicy.decide(file(holder: true)), .takeIn, "a holder of protected pixels wrote it")
        XCTAssertEqual(ArrivalPolicy.decide(file(read: true)), .takeIn, "a program read the screen lately")
        XCTAssertEqual(ArrivalPolicy.decide(file(evidence: true)), .takeIn, "the open event has a tool window or the key")
    }

    private func clipboard(_ arrival: ClipboardArrival = .fresh, handedOver: Bool = false, evidence: Bool = true, hit: Bool = true,
                           own: Bool = false) -> ClipboardArrivalFacts {
        var facts = Evidence()
        if evidence { facts.screenshotProgram = "scrot" }
        return ClipboardArrivalFacts(arrival: arrival, handedOver: handedOver, evidence: facts, rulesHitNow: hit, isGuardsOwn: own)
    }

    /// Guard's own image is ignored; one put back too often is withheld (unless a manager
    /// handed it over: a new copy); the clipboard is taken at once only with evidence while rules hit.
    func testAClipboardImageIsIgnoredWithheldOrExamined() {
        XCTAssertEqual(ArrivalPolicy.decide(clipboard(own: true)), .ignoreOwn)
        XCTAssertEqual(ArrivalPolicy.decide(clipboard(.overLimit)), .withhold)
        XCTAssertEqual(ArrivalPolicy.decide(clipboard(.overLimit, handedOver: true)), .examine(takeOverNow: true))
        XCTAssertEqual(ArrivalPolicy.decide(clipboard(.retake(count: 2))), .examine(takeOverNow: true))
        XCTAssertEqual(ArrivalPolicy.decide(clipboard(evidence: false)), .examine(takeOverNow: false), "a photo keeps its owner")
        XCTAssertEqual(ArrivalPolicy.decide(clipboard(hit: false)), .examine(takeOverNow: false), "nothing to protect now")
    }
}
