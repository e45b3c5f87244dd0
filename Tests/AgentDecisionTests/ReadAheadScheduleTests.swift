// When the agent reads the screen's text ahead of a screenshot: only a screen that changed, within its share of the time.
import ShotguardImaging
import ShotguardText
@testable import ShotguardAgent
import XCTest

final class ReadAheadScheduleTests: XCTestCase {
    private func reading(seconds: Double, left: Int = 0, failure: String? = nil) -> ScreenReading {
        ScreenReading(ahead: true, linesRead: 90, linesRemembered: 0, linesLeft: left, seconds: seconds, failure: failure)
    }

    /// The screen is read when it changed since it was last read, never twice as it is; looks come
    /// a second apart.
    func testOnlyAScreenThatChangedIsRead() {
        var schedule = ReadAheadSchedule()
        XCTAssertTrue(schedule.isDue(at: 0))
        XCTAssertTrue(schedule.looked(at: 0, digest: 7), "a first screen")
        schedule.read(reading(seconds: 0.2), endedAt: 0.2)
        XCTAssertFalse(schedule.isDue(at: 0.9))
        XCTAssertTrue(schedule.isDue(at: 1.2))
        XCTAssertFalse(schedule.looked(at: 1.2, digest: 7), "the same screen, read already")
        XCTAssertFalse(schedule.isDue(at: 2.1))
        XCTAssertTrue(schedule.looked(at: 2.2, digest: 8), "it changed")
        schedule.read(reading(seconds: 0.2), endedAt: 2.4)
        XCTAssertTrue(schedule.looked(at: 3.4, digest: 7), "back to the first: read again (its lines are remembered)")
    }

    /// A reading cut short by a screenshot leaves the screen unread: the next look reads it again.
    func testAReadingCutShortIsReadAgainAtTheNextLook() {
        var schedule = ReadAheadSchedule()
        XCTAssertTrue(schedule.looked(at: 0, digest: 7))
        schedule.read(reading(seconds: 0.1, left: 40), endedAt: 0.1)
        XCTAssertTrue(schedule.looked(at: 1.1, digest: 7))
    }

    /// Readings may run three seconds in all with a second between them; past that the next
    /// look waits until their share, a twentieth of the time, has paid the excess back.
    func testReadingsStayWithinTheirShareOfTheTime() {
        var schedule = ReadAheadSchedule()
        var now = 0.0
        // Readings of a second each, every other second: the budget of 3 s goes down by 0.9 s
        // a reading (0.1 s earned back over the two seconds), to 0.2 s after the third.
        for digest in 0..<3 {
            XCTAssertTrue(schedule.isDue(at: now))
            XCTAssertTrue(schedule.looked(at: now, digest: digest))
            now += 1
            schedule.read(reading(seconds: 1), endedAt: now)
            XCTAssertEqual(schedule.nextLook, now + 1, accuracy: 0.001, "within the budget: a second later")
            now = schedule.nextLook
        }
        XCTAssertTrue(schedule.looked(at: now, digest: 3))
        now += 1
        schedule.read(reading(seconds: 1), endedAt: now)
        // 0.2 + 0.1 - 1 = -0.7 s: paid back at 0.05 s a second, in 14 s.
        XCTAssertEqual(schedule.nextLook, now + 14, accuracy: 0.001)
        XCTAssertFalse(schedule.isDue(at: now + 13.9))
    }

    /// OCR that cannot run is not tried again every second: a minute later.
    func testOCRThatCannotRunIsTriedAgainAMinuteLater() {
        var schedule = ReadAheadSchedule()
        XCTAssertTrue(schedule.looked(at: 0, digest: 7))
        schedule.read(reading(seconds: 0.01, failure: "no model"), endedAt: 0.01)
        XCTAssertFalse(schedule.isDue(at: 59))
        XCTAssertTrue(schedule.isDue(at: 60.02))
    }

    /// A reading may start lines for what is left of the budget, half a second at least.
    func testAReadingIsAllowedWhatIsLeftOfTheBudget() {
        var schedule = ReadAheadSchedule()
        XCTAssertEqual(schedule.allowance(at: 0), 3, accuracy: 0.001)
        XCTAssertTrue(schedule.looked(at: 0, digest: 1))
        schedule.read(reading(seconds: 2), endedAt: 2)
        XCTAssertEqual(schedule.allowance(at: 2), 1, accuracy: 0.001)
        XCTAssertEqual(schedule.allowance(at: 12), 1.5, accuracy: 0.001, "0.05 s earned a second")
        XCTAssertTrue(schedule.looked(at: 12, digest: 2))
        schedule.read(reading(seconds: 1.5), endedAt: 13.5)
        XCTAssertEqual(schedule.allowance(at: 13.5), 0.5, accuracy: 0.001, "never less than half a second")
    }

    /// The digest changes with a change of the screen in the rows it reads, and with the rules
    /// (another kind, another window), not with nothing.
    func testTheDigestFollowsThePixelsAndTheRules() {
        var image = PixelBuffer(width: 64, height: 32, fill: 0xFFFF_FFFF)
        let card = [TextRule(kind: .card, line: 1)]
        let first = ReadAheadSchedule.digest(of: image, rules: card)
        XCTAssertEqual(ReadAheadSchedule.digest(of: image, rules: card), first)
        XCTAssertNotEqual(ReadAheadSchedule.digest(of: image, rules: card + [TextRule(kind: .email, line: 2)]), first)
        XCTAssertNotEqual(ReadAheadSchedule.digest(of: image, rules: [TextRule(kind: .card, line: 1,
                                                                               areas: [Rect(x: 0, y: 0, width: 9, height: 9)])]),
                          first)
        image.pixels[ReadAheadSchedule.rowStep * 64 + 5] = 0xFF00_0000
        XCTAssertNotEqual(ReadAheadSchedule.digest(of: image, rules: card), first)
    }
}
