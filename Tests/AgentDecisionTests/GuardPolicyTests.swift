// Guard's decisions without X: what counts as a screenshot of this screen, and what guard does with it.
@testable import ShotguardAgent
import ShotguardImaging
import XCTest

final class GuardPolicyTests: XCTestCase {
    private func facts(_ source: Candidate.Source = .file, naming: Naming = .strong, evidence: Evidence = .none,
                       sensing: Bool = true, placement: PlacementFact = .matched, hits: Int = 1, rulesHit: Bool = true) -> PolicyFacts {
        PolicyFacts(source: source, naming: naming, evidence: evidence, sensing: sensing, placement: placement, hitsInImage: hits,
                    rulesHitAtEvent: rulesHit)
    }

    private var scrotRead: Evidence {
        var evidence = Evidence()
        evidence.screenRead = (Fixture.read(by: "scrot", at: 0), .writer)
        return evidence
    }

    func testAPlacedScreenshotIsRedactedOnlyWhenRulesFallInsideIt() {
        XCTAssertEqual(GuardPolicy.action(facts(evidence: scrotRead)), .redact)
        XCTAssertEqual(GuardPolicy.action(facts(evidence: scrotRead, hits: 0)), .leave, "a region away from every rule stays as it is")
    }

    /// Know, don't guess: with capture sensing, an image no program read the screen for is left
    /// alone — a photo shown 1:1 in a viewer and copied into Pictures is not a screenshot.
    func testAWeakFileWhosePixelsAreOnScreenIsAScreenshotOnlyWhereSensingCannotTell() {
        XCTAssertEqual(GuardPolicy.action(facts(naming: .weak, sensing: true)), .leave)
        XCTAssertEqual(GuardPolicy.judge(facts(naming: .weak, sensing: true)), .notScreenshot(because: "no program read the screen for it"))
        XCTAssertEqual(GuardPolicy.action(facts(naming: .weak, sensing: false)), .redact, "its pixels are the screen's")
        XCTAssertEqual(GuardPolicy.action(facts(naming: .weak, sensing: false, placement: .differsUnderRules)), .leave,
                       "a weak image must be the screen, not close to it")
    }

    /// A compositor's own capture (GNOME Shell, KWin) reads no pixels through X: a file named as
    /// a screenshot whose pixels are the screen's is one, sensing or not.
    func testAStrongNameWithTheScreensPixelsIsAScreenshotEvenWithSensing() {
        XCTAssertEqual(GuardPolicy.action(facts(naming: .strong, sensing: true)), .redact)
    }

    /// A clipboard image has no name: it needs evidence, or its pixels must be the screen's.
    func testAClipboardImageNeedsEvidenceOrItsPixels() {
        XCTAssertEqual(GuardPolicy.action(facts(.clipboard, naming: .none, sensing: true)), .redact,
                       "a screenshot file copied by hand later: its pixels are the screen's")
        XCTAssertEqual(GuardPolicy.action(facts(.clipboard, naming: .none, sensing: true, placement: .differsUnderRules)), .leave)
        var owner = Evidence()
        owner.screenshotProgram = "flameshot"
        XCTAssertEqual(GuardPolicy.action(facts(.clipboard, naming: .none, evidence: owner, sensing: true)), .redact)
        XCTAssertEqual(GuardPolicy.action(facts(.clipboard, naming: .none, sensing: false)), .redact)
    }

    /// What cannot be placed is set aside only with strong evidence (or, without sensing, a
    /// screenshot's name): a photo copied in, or an old screenshot of another machine, is not.
    func testAnUnplacedImageIsSetAsideOnlyWithStrongEvidence() {
        XCTAssertEqual(GuardPolicy.action(facts(evidence: scrotRead, placement: .unplaced)), .setAside)
        XCTAssertEqual(GuardPolicy.action(facts(evidence: scrotRead, placement: .unplaced, rulesHit: false)), .leave,
                       "nothing on screen was protected")
        var tool = Evidence()
        tool.toolWindow = "gnome-screenshot"
        XCTAssertEqual(GuardPolicy.action(facts(evidence: tool, placement: .unplaced, rulesHit: false)), .leave,
                       "a tool window, and nothing on screen protected")
        // The vault hidden under another window, read itself from its own pixels (`maim -i`):
        // nothing of it shows, and it is all in the read.
        var hiddenVault = scrotRead
        hiddenVault.screenRead?.read.ofProtectedWindow = true
        XCTAssertEqual(GuardPolicy.action(facts(evidence: hiddenVault, placement: .unplaced, rulesHit: false)), .setAside,
                       "the read took the vault whole, though nothing of it showed")
        // A recording program's image counts only placed: it writes more than frames.
        var recorder = Evidence()
        recorder.screenRead = (Fixture.read(by: "firefox", at: 0), .recorder)
        XCTAssertEqual(GuardPolicy.action(facts(evidence: recorder, placement: .unplaced)), .leave, "a download while sharing")
        XCTAssertEqual(GuardPolicy.action(facts(evidence: recorder)), .redact, "a frame it saved")
        // A program only taken for a reader the server could not tell counts only placed too.
        var takenFor = Evidence()
        takenFor.screenRead = (Fixture.read(by: "import", pid: nil, at: 0), .inferred)
        XCTAssertEqual(GuardPolicy.action(facts(evidence: takenFor, placement: .unplaced)), .leave, "a photo it wrote")
        XCTAssertEqual(GuardPolicy.action(facts(naming: .strong, evidence: takenFor, sensing: true, placement: .unplaced)), .leave,
                       "named as a screenshot, still nowhere on the screen")
        XCTAssertEqual(GuardPolicy.action(facts(evidence: takenFor)), .redact, "the screenshot it saved")
        XCTAssertEqual(GuardPolicy.action(facts(naming: .strong, sensing: true, placement: .unplaced)), .leave,
                       "an old screenshot copied in, with no program reading the screen")
        var recent = Evidence()
        recent.screenRead = (Fixture.read(by: "scrot", at: 0), .recent)
        // Regression: `scrot /tmp/a.png; cp photo.png ~/Pictures/Screenshots/` set the photo aside.
        XCTAssertEqual(GuardPolicy.action(facts(naming: .strong, evidence: recent, sensing: true, placement: .unplaced)), .leave,
                       "named as a screenshot just after a program read the screen: nothing ties its pixels to that read")
        XCTAssertEqual(GuardPolicy.action(facts(naming: .weak, evidence: recent, sensing: true, placement: .unplaced)), .leave,
                       "a photo copied just after a screenshot is still a photo")
        XCTAssertEqual(GuardPolicy.action(facts(naming: .strong, sensing: false, placement: .unplaced)), .setAside,
                       "without sensing its name is all there is")
        XCTAssertEqual(GuardPolicy.action(facts(naming: .weak, sensing: false, placement: .unplaced)), .leave)
        var sibling = Evidence()
        sibling.screenRead = (Fixture.read(by: "scrot", at: 0), .processGroup)
        XCTAssertEqual(GuardPolicy.action(facts(.clipboard, naming: .none, evidence: sibling, placement: .unplaced)), .leave,
                       "a read by another program of the same group could be an unrelated copy")
        XCTAssertEqual(GuardPolicy.action(facts(.clipboard, naming: .none, evidence: sibling)), .redact,
                       "placed, the same link is enough")
    }

    /// Evidence is what was read. Regression: a program that read 32x32 pixels far from every
    /// rule (a magnifier, a colour picker) and then wrote a photo had it replaced by a placeholder.
    func testAReadThatHeldNoProtectedPixelSetsNothingAside() {
        var harmless = Evidence()
        harmless.screenRead = (Fixture.read(by: "magnifier", area: Rect(x: 900, y: 700, width: 32, height: 32), at: 0, protected: []),
                               .writer)
        XCTAssertEqual(GuardPolicy.action(facts(naming: .weak, evidence: harmless, placement: .unplaced)), .leave)
        XCTAssertEqual(GuardPolicy.action(facts(naming: .strong, evidence: harmless, placement: .unplaced)), .leave)
        for link in [ReadLink.writer, .childOfReader, .channelOfReader, .copy, .sameProcess] {
            var holding = Evidence()
            holding.screenRead = (Fixture.read(by: "scrot", at: 0), link)
            XCTAssertEqual(GuardPolicy.action(facts(naming: .weak, evidence: holding, placement: .unplaced)), .setAside, "\(link)")
        }
        var folder = Evidence()
        folder.screenRead = (Fixture.read(by: "scrot", at: 0), .folder)
        XCTAssertEqual(GuardPolicy.action(facts(naming: .weak, evidence: folder, placement: .unplaced)), .leave,
                       "an image in the reader's folder is one only where its pixels are the screen's")
    }

    func testGuardTakesTheClipboardAtOnceOnlyWithEvidence() {
        XCTAssertFalse(GuardPolicy.takesOverAtOnce(evidence: .none, rulesHitNow: true), "a copied photo keeps its owner")
        XCTAssertTrue(GuardPolicy.takesOverAtOnce(evidence: scrotRead, rulesHitNow: true))
        XCTAssertFalse(GuardPolicy.takesOverAtOnce(evidence: scrotRead, rulesHitNow: false))
    }

    func testGuardNeverTouchesOldForeignOrRestoredFiles() {
        XCTAssertTrue(GuardPolicy.mayRewrite(modified: 100, agentStart: 50, ownedByUser: true, isRestored: false))
        XCTAssertFalse(GuardPolicy.mayRewrite(modified: 40, agentStart: 50, ownedByUser: true, isRestored: false))
        XCTAssertFalse(GuardPolicy.mayRewrite(modified: 100, agentStart: 50, ownedByUser: false, isRestored: false))
        XCTAssertFalse(GuardPolicy.mayRewrite(modified: 100, agentStart: 50, ownedByUser: true, isRestored: true))
    }

    func testRecentKeysExpireByKindAndStayBounded() {
        var keys = RecentKeys(capacity: 3)
        keys.note("file:1", as: .handled, at: 10)
        XCTAssertTrue(keys.contains("file:1", as: .handled, at: 14.9))
        XCTAssertFalse(keys.contains("file:1", as: .own, at: 11), "kinds are separate")
        XCTAssertFalse(keys.contains("file:1", as: .handled, at: 15.1))
        keys.note("bytes:a", as: .own, at: 10)
        XCTAssertTrue(keys.contains("bytes:a", as: .own, at: 69), "guard's own outputs are remembered a minute")
        for index in 0..<10 { keys.note("k\(index)", as: .handled, at: 20) }
        XCTAssertLessThanOrEqual(keys.count, 3)
    }

    /// Ten thousand handled files in one second: the store stays bounded and guard's own output,
    /// noted before the flood, is still known after it (it lives longest, so it goes last).
    func testAFloodOfHandledKeysKeepsGuardsOwnOutputs() {
        var keys = RecentKeys(capacity: 4096)
        keys.note("file:own", as: .own, at: 0)
        for index in 0..<10_000 { keys.note("photo:\(index)", as: .handled, at: Double(index) / 10_000) }
        XCTAssertLessThanOrEqual(keys.count, 4096)
        XCTAssertGreaterThanOrEqual(keys.count, 3072)
        XCTAssertTrue(keys.contains("file:own", as: .own, at: 1))
        XCTAssertTrue(keys.contains("photo:9999", as: .handled, at: 1), "the newest are kept")
    }

    func testReadsAreTiedToAnOwnerByProcessGroupOrParentOnlyRecently() {
        var history = ReadHistory()
        history.add(Fixture.read(by: "scrot", pid: 300, group: 300, parent: 100, at: 0))
        let xclip = ProcessIdentity(pid: 301, program: "xclip", parentPID: 100, processGroup: 999)
        XCTAssertEqual(history.read(relatedTo: xclip, at: Fixture.at(1))?.link, .sibling)
        let inGroup = ProcessIdentity(pid: 302, program: "xclip", parentPID: 1, processGroup: 300)
        XCTAssertEqual(history.read(relatedTo: inGroup, at: Fixture.at(1))?.link, .processGroup)
        let stranger = ProcessIdentity(pid: 500, program: "firefox", parentPID: 1, processGroup: 500)
        XCTAssertNil(history.read(relatedTo: stranger, at: Fixture.at(1)))
        XCTAssertNil(history.read(relatedTo: xclip, at: Fixture.at(ReadHistory.horizon + 1)), "too long ago")
    }
}
