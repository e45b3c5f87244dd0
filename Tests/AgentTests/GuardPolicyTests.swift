// Guard's decisions without X: rewrite, leave, quarantine or ignore.
@testable import ShotguardAgent
import XCTest

final class GuardPolicyTests: XCTestCase {
    func testAPlacedScreenshotIsRewrittenOnlyWhenRulesFallInsideIt() {
        XCTAssertEqual(GuardPolicy.action(for: .placed(verified: true), hitsInImage: 2, isWeak: false, rulesHitAtEvent: true,
                                          isBurst: false), .rewrite)
        XCTAssertEqual(GuardPolicy.action(for: .placed(verified: true), hitsInImage: 0, isWeak: false, rulesHitAtEvent: true,
                                          isBurst: false), .leave, "a region away from every rule stays as it is")
        XCTAssertEqual(GuardPolicy.action(for: .placed(verified: false), hitsInImage: 1, isWeak: true, rulesHitAtEvent: true,
                                          isBurst: true), .rewrite, "a placed image is a screenshot, whatever else came")
    }

    func testAnUnplacedScreenshotIsQuarantinedWhenARuleHitTheScreen() {
        let unplaced = Placement.unplaced(reason: "scaled")
        XCTAssertEqual(GuardPolicy.action(for: unplaced, hitsInImage: 0, isWeak: false, rulesHitAtEvent: true, isBurst: false),
                       .quarantine)
        XCTAssertEqual(GuardPolicy.action(for: unplaced, hitsInImage: 0, isWeak: false, rulesHitAtEvent: false, isBurst: false),
                       .leave, "nothing on screen was protected")
    }

    func testImagesThatAreNotScreenshotsAreIgnored() {
        let unplaced = Placement.unplaced(reason: "not found")
        XCTAssertEqual(GuardPolicy.action(for: unplaced, hitsInImage: 0, isWeak: true, rulesHitAtEvent: true, isBurst: false),
                       .ignore, "any image in a watched folder that is not on screen")
        XCTAssertEqual(GuardPolicy.action(for: unplaced, hitsInImage: 0, isWeak: false, rulesHitAtEvent: true, isBurst: true),
                       .ignore, "a bulk copy of old screenshots")
    }

    func testGuardNeverTouchesOldOrForeignFilesOrItsOwnRewrites() {
        XCTAssertTrue(GuardPolicy.mayRewrite(modified: 100, agentStart: 50, ownedByUser: true, isOwnRewrite: false))
        XCTAssertFalse(GuardPolicy.mayRewrite(modified: 40, agentStart: 50, ownedByUser: true, isOwnRewrite: false))
        XCTAssertFalse(GuardPolicy.mayRewrite(modified: 100, agentStart: 50, ownedByUser: false, isOwnRewrite: false))
        XCTAssertFalse(GuardPolicy.mayRewrite(modified: 100, agentStart: 50, ownedByUser: true, isOwnRewrite: true))
    }

    func testSeenImagesExpire() {
        var seen = SeenImages(window: 5)
        seen.insert("file:1", now: 10)
        XCTAssertTrue(seen.contains("file:1", now: 14.9))
        XCTAssertFalse(seen.contains("file:1", now: 15.1))
        XCTAssertFalse(seen.contains("file:2", now: 11))
    }
}
