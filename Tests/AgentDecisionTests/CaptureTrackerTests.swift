// The capture tracker's decisions, without X: when events open, count and settle; which images go first.
@testable import ShotguardAgent
import ShotguardBase
import ShotguardImaging
import ShotguardScreen
import XCTest

final class CaptureTrackerTests: XCTestCase {
    private var snapshots = 0
    private func take(at seconds: Double) -> CaptureTracker.Snapshotter {
        { [self] in
            snapshots += 1
            return Fixture.snapshot(at: seconds)
        }
    }

    func testCountedSignalsKeepTheEventTogetherForTheDebounce() {
        var tracker = CaptureTracker()
        _ = tracker.receive(.image(Fixture.file("a.png")), at: Fixture.at(0), snapshot: take(at: 0))
        XCTAssertEqual(tracker.event?.settleTime, Fixture.at(1).monotonic, "at least the debounce after a counted signal")
        _ = tracker.receive(.image(Fixture.clipboard(at: 0.5)), at: Fixture.at(0.5), snapshot: take(at: 0.5))
        XCTAssertEqual(tracker.event?.settleTime, Fixture.at(1.5).monotonic, "a second signal of the same screenshot joins and extends it")
        XCTAssertEqual(tracker.event?.signals.count, 2)
        XCTAssertEqual(tracker.event?.snapshots.count, 2, "a later image brings a fresh screen")
    }

    func testWeakImagesCannotHoldTheEventOpen() {
        var tracker = CaptureTracker()
        for step in 1...40 {
            let time = Double(step) * 0.5
            _ = tracker.receive(.image(Fixture.file("x\(step).png", naming: .weak, at: time)), at: Fixture.at(time), snapshot: take(at: time))
        }
        XCTAssertFalse(tracker.event?.hasCountedSignal ?? true, "weak images are no screenshot by themselves")
        XCTAssertEqual(tracker.event?.settleTime, Fixture.at(1.5).monotonic, "weak images do not extend the event")
    }

    func testAToolWindowHoldsTheEventOpenUpToAMinute() {
        var tracker = CaptureTracker()
        _ = tracker.receive(.toolWindowCreated(id: 7, tool: "flameshot"), at: Fixture.at(0), snapshot: take(at: 0))
        XCTAssertFalse(tracker.event?.hasCountedSignal ?? true, "created is not yet shown")
        _ = tracker.receive(.toolWindowShown(id: 7, tool: "flameshot"), at: Fixture.at(0.1), snapshot: take(at: 0.1))
        XCTAssertEqual(tracker.event?.settleTime, Fixture.at(60).monotonic)
        XCTAssertEqual(tracker.event?.evidence.toolWindow, "flameshot")
        _ = tracker.receive(.toolWindowClosed(id: 7), at: Fixture.at(5), snapshot: take(at: 5))
        XCTAssertEqual(tracker.event?.snapshots.count, 2, "the screen as it is once the tool's window went")
        XCTAssertEqual(tracker.event?.settleTime, Fixture.at(5 + CaptureEvent.settle).monotonic)
    }

    /// A thousand tool windows shown and closed within a second (a storm): the screen is grabbed
    /// a few times a second at most, and the image that follows still gets a fresh one. A window
    /// closed a moment after it opened still brings a fresh screen.
    func testAStormOfToolWindowsGrabsTheScreenBoundedly() {
        var tracker = CaptureTracker()
        for index in 0..<1_000 {
            let time = Double(index) / 1_000
            let id = UInt(index + 1)
            _ = tracker.receive(.toolWindowCreated(id: id, tool: "flameshot"), at: Fixture.at(time), snapshot: take(at: time))
            _ = tracker.receive(.toolWindowShown(id: id, tool: "flameshot"), at: Fixture.at(time), snapshot: take(at: time))
            _ = tracker.receive(.toolWindowClosed(id: id), at: Fixture.at(time + 0.0005), snapshot: take(at: time + 0.0005))
        }
        XCTAssertLessThanOrEqual(snapshots, 1 + CaptureTracker.closedSnapshotsPerSecond, "one when the event opened, then a few")
        let before = snapshots
        _ = tracker.receive(.image(Fixture.file("Screenshot.png", at: 1.01)), at: Fixture.at(1.01), snapshot: take(at: 1.01))
        XCTAssertEqual(snapshots, before + 1, "the screenshot after the storm brings a fresh screen")
    }

    func testAToolWindowClosedAMomentAfterItOpenedBringsAFreshScreen() {
        var tracker = CaptureTracker()
        _ = tracker.receive(.toolWindowCreated(id: 7, tool: "shutter"), at: Fixture.at(0), snapshot: take(at: 0))
        _ = tracker.receive(.toolWindowShown(id: 7, tool: "shutter"), at: Fixture.at(0.001), snapshot: take(at: 0.001))
        _ = tracker.receive(.toolWindowClosed(id: 7), at: Fixture.at(0.01), snapshot: take(at: 0.01))
        XCTAssertEqual(tracker.event?.snapshots.count, 2)
    }

    func testSnapshotsKeepTheEventTimeScreenAndTheFreshestOthers() {
        var event = CaptureEvent(id: "e", snapshot: Fixture.snapshot(at: 1))
        for time in 2...6 { event.addSnapshot(Fixture.snapshot(at: Double(time))) }
        XCTAssertEqual(event.snapshots.map(\.time.wall), [1, 5, 6].map { Fixture.at($0).wall })
        XCTAssertEqual(event.eventTime.time, Fixture.at(1))
    }

    func testTheFallbackIsTheActiveWindowClippedToTheScreen() {
        let window = WindowInfo(id: 5, className: "A", instance: "a", title: "t", frame: Rect(x: 40, y: 30, width: 50, height: 50),
                                isViewable: true)
        XCTAssertEqual(CaptureEvent(id: "e", snapshot: Fixture.snapshot(at: 0, windows: [window], active: 5)).fallbackRect,
                       Rect(x: 40, y: 30, width: 24, height: 18))
        XCTAssertEqual(CaptureEvent(id: "e", snapshot: Fixture.snapshot(at: 0)).fallbackRect, Rect(x: 0, y: 0, width: 64, height: 48))
    }

    /// xwd's read of the whole screen is what its image shows: the fallback is that, not the
    /// active window; a colour picker's read (no screenshot program) changes nothing.
    func testTheFallbackIsWhatAScreenshotProgramRead() {
        let window = WindowInfo(id: 5, className: "A", instance: "a", title: "t", frame: Rect(x: 40, y: 30, width: 10, height: 10),
                                isViewable: true)
        var event = CaptureEvent(id: "e", snapshot: Fixture.snapshot(at: 0, windows: [window], active: 5))
        var picker = SignalRecord(kind: .screenRead, time: 0, detail: "gpick")
        picker.read = Fixture.read(by: "gpick", area: Rect(x: 0, y: 0, width: 64, height: 48), at: 0)
        event.signals.append(picker)
        XCTAssertEqual(event.fallbackRect, Rect(x: 40, y: 30, width: 10, height: 10))
        var xwd = SignalRecord(kind: .screenRead, time: 0, detail: "xwd")
        xwd.read = Fixture.read(by: "xwd", area: Rect(x: 0, y: 0, width: 100, height: 100), at: 0)
        event.signals.append(xwd)
        XCTAssertEqual(event.fallbackRect, Rect(x: 0, y: 0, width: 64, height: 48), "clipped to the screen")
    }

    func testGuardsOwnOutputAndASecondSignalOfOneFileAreIgnored() {
        var tracker = CaptureTracker()
        tracker.noteOwn("file:rewritten.png", at: Fixture.at(0))
        XCTAssertEqual(tracker.receive(.image(Fixture.file("rewritten.png")), at: Fixture.at(0.1), snapshot: take(at: 0.1)),
                       [.ignored(name: "/shots/rewritten.png", why: .ownRewrite)])
        XCTAssertNil(tracker.event, "its own output opens no event")
        XCTAssertEqual(tracker.receive(.image(Fixture.file("a.png")), at: Fixture.at(1), snapshot: take(at: 1)).last,
                       .taken(name: "/shots/a.png", naming: .strong))
        XCTAssertEqual(tracker.receive(.image(Fixture.file("a.png")), at: Fixture.at(1.2), snapshot: take(at: 1.2)),
                       [.ignored(name: "/shots/a.png", why: .alreadySeen)])
        XCTAssertNotNil(tracker.next(at: Fixture.at(1.3)))
        XCTAssertNil(tracker.next(at: Fixture.at(1.3)), "one candidate for one file")
    }

    /// The tracker's notes are values: the agent writes each one's line and event and reads
    /// neither back; the event carries codes, not the line's words.
    func testANoteIsALineForTheLogAndAnEventOfCodes() {
        let ignored = TrackerNote.ignored(name: "/shots/a.png", why: .ownRewrite)
        XCTAssertEqual(ignored.line, "ignored /shots/a.png: guard's own rewrite")
        XCTAssertEqual(ignored.event?.name, "ignored")
        XCTAssertEqual(ignored.event.map { JSON.object($0.fields).text }, #"{"name":"/shots/a.png","why":"own-rewrite"}"#)
        let opened = TrackerNote.opened(event: "20261129-140703-120", windows: 3, fallback: Rect(x: 1, y: 2, width: 30, height: 40))
        XCTAssertEqual(opened.event.map { JSON.object($0.fields).text },
                       #"{"id":"20261129-140703-120","windows":3,"fallback":"30x40+1+2"}"#)
        XCTAssertNil(TrackerNote.left(name: "/shots/a.png", reason: "not found on the screen").event, "the examined event says it")
    }

    /// A photo import must not delay a real screenshot: urgent candidates go first, weak ones
    /// within a budget per second, and past a cap per event they are not examined at all.
    func testAStrongScreenshotGoesBeforeABurstOfWeakImagesWhichIsBounded() {
        var tracker = CaptureTracker()
        for index in 0..<200 {
            _ = tracker.receive(.image(Fixture.file("photo\(index).png", naming: .weak)), at: Fixture.at(0), snapshot: take(at: 0))
        }
        _ = tracker.receive(.image(Fixture.file("Screenshot.png")), at: Fixture.at(0.01), snapshot: take(at: 0.01))
        XCTAssertEqual(tracker.next(at: Fixture.at(0.02))?.path, BytePath("/shots/Screenshot.png"), "the strong one first")
        var weak = 0
        while tracker.next(at: Fixture.at(0.03)) != nil { weak += 1 }
        XCTAssertEqual(weak, CandidateQueue.weakPerSecond, "a budget per second")
        XCTAssertEqual(tracker.event?.weakDropped, 200 - CandidateQueue.weakPerEvent, "a cap per event")
        XCTAssertLessThanOrEqual(snapshots, 2, "a burst is one screen")
    }

    /// A hundred old screenshots copied into a watched folder (strongly named, urgent), then the
    /// one scrot writes among them: seen first at its creation with no read tied to it, then
    /// again with scrot's read, it is examined before the copies; a clipboard image still goes
    /// first. Regression: it waited behind every copy (50 s under load).
    func testAnImageAProgramReadTheScreenForGoesBeforeCopiedScreenshots() {
        var tracker = CaptureTracker()
        for index in 0..<100 {
            _ = tracker.receive(.image(Fixture.file("Screenshot-old-\(index).png")), at: Fixture.at(0), snapshot: take(at: 0))
        }
        _ = tracker.receive(.image(Fixture.file("scrot.png", naming: .weak)), at: Fixture.at(0.01), snapshot: take(at: 0.01))
        var written = Evidence()
        written.screenRead = (Fixture.read(by: "scrot", at: 0.005), .writer)
        XCTAssertEqual(tracker.receive(.image(Fixture.file("scrot.png", naming: .weak, evidence: written)), at: Fixture.at(0.02),
                                       snapshot: take(at: 0.02)),
                       [.ignored(name: "/shots/scrot.png", why: .alreadySeen)])
        _ = tracker.receive(.image(Fixture.clipboard(at: 0.03)), at: Fixture.at(0.03), snapshot: take(at: 0.03))
        XCTAssertEqual(tracker.next(at: Fixture.at(0.04))?.source, .clipboard, "someone may be pasting it")
        let scrot = tracker.next(at: Fixture.at(0.04))
        XCTAssertEqual(scrot?.path, BytePath("/shots/scrot.png"))
        XCTAssertEqual(scrot?.evidence.screenRead?.link, .writer, "it carries the read")
        XCTAssertEqual(tracker.next(at: Fixture.at(0.04))?.path, BytePath("/shots/Screenshot-old-0.png"), "then the copies, in order")
        var rest = 0
        while tracker.next(at: Fixture.at(0.04)) != nil { rest += 1 }
        XCTAssertEqual(rest, 99, "one candidate for each file")
    }

    func testAnIncompleteFileIsLookedAtAgainBoundedly() {
        var tracker = CaptureTracker()
        let file = Fixture.file("slow.webp")
        _ = tracker.receive(.image(file), at: Fixture.at(0), snapshot: take(at: 0))
        var candidate = tracker.next(at: Fixture.at(0))!
        for look in 0..<CaptureTracker.maximumLooks {
            _ = tracker.examined(candidate, .lookAgain(delay: 0.25), at: Fixture.at(Double(look)))
            XCTAssertNil(tracker.next(at: Fixture.at(Double(look) + 0.1)), "not before its time")
            candidate = tracker.next(at: Fixture.at(Double(look) + 0.3))!
        }
        XCTAssertEqual(tracker.examined(candidate, .lookAgain(delay: 0.25), at: Fixture.at(9)),
                       [.gaveUp(name: "/shots/slow.webp")])
    }

    func testTheSamePixelsAgainAreNotReportedTwice() {
        var tracker = CaptureTracker()
        let file = Fixture.file("s.png")
        _ = tracker.receive(.image(file), at: Fixture.at(0), snapshot: take(at: 0))
        let candidate = tracker.next(at: Fixture.at(0))!
        let placed = PlacedImage(candidate: candidate, image: PixelBuffer(width: 4, height: 4), alignment: Alignment(
            method: .screen, rect: Rect(x: 0, y: 0, width: 4, height: 4), windowID: nil), redactions: [], notes: [], evidence: [])
        XCTAssertEqual(tracker.examined(candidate, .placed(placed, fingerprint: "pixels:1"), at: Fixture.at(0.1)), [])
        let copy = Fixture.clipboard(at: 0.2)
        _ = tracker.receive(.image(copy), at: Fixture.at(0.2), snapshot: take(at: 0.2))
        let again = tracker.next(at: Fixture.at(0.2))!
        XCTAssertEqual(tracker.examined(again, .placed(placed, fingerprint: "pixels:1"), at: Fixture.at(0.3)),
                       [.repeated(name: "the clipboard image")])
        XCTAssertEqual(tracker.event?.repeats, 1)
    }

    /// A counted event with no image looks for a file twice, then settles.
    func testTheBoundedLookForAFile() {
        var tracker = CaptureTracker()
        _ = tracker.receive(.toolWindowShown(id: 1, tool: "spectacle"), at: Fixture.at(0), snapshot: take(at: 0))
        _ = tracker.receive(.toolWindowClosed(id: 1), at: Fixture.at(1), snapshot: take(at: 1))
        var looks = 0
        XCTAssertNil(tracker.settle(at: Fixture.at(2.1)) { _ in looks += 1; return nil }, "a second look is planned")
        XCTAssertNil(tracker.settle(at: Fixture.at(2.2)) { _ in looks += 1; return nil }, "not before its time")
        XCTAssertNotNil(tracker.settle(at: Fixture.at(3)) { _ in looks += 1; return nil })
        XCTAssertEqual(looks, 2)
    }

    /// A screenshot program's read opens and counts an event; a colour picker's 1×1 read, or an
    /// unknown program's, only opens one (it settles with no report unless an image follows).
    func testAScreenshotProgramsReadCountsAndOthersOnlyOpen() {
        var tracker = CaptureTracker()
        _ = tracker.receive(.screenRead(Fixture.read(by: "scrot", area: Rect(x: 0, y: 0, width: 64, height: 48), at: 0)),
                            at: Fixture.at(0), snapshot: take(at: 0))
        XCTAssertTrue(tracker.event?.hasCountedSignal ?? false)
        XCTAssertEqual(tracker.reads.reads.count, 1)
        var other = CaptureTracker()
        _ = other.receive(.screenRead(Fixture.read(by: "gpick", area: Rect(x: 3, y: 3, width: 1, height: 1), at: 0)),
                          at: Fixture.at(0), snapshot: take(at: 0))
        XCTAssertFalse(other.event?.hasCountedSignal ?? true)
        XCTAssertEqual(other.settle(at: Fixture.at(1)) { _ in nil }?.hasCountedSignal, false, "settles without a look")
    }

    /// Regression: a photo copied into a Screenshots folder counted the event by its place, was
    /// examined and left, and the event still settled into a report of the agent's fallback grab.
    /// Once examined as no screenshot, it counts no more; a real screenshot's signal still does.
    func testAnImageLeftAfterExaminationNoLongerCountsTheEvent() {
        var tracker = CaptureTracker()
        let photo = Fixture.file("holiday.png")
        _ = tracker.receive(.image(photo), at: Fixture.at(0), snapshot: take(at: 0))
        XCTAssertTrue(tracker.event?.hasCountedSignal ?? false, "counted by its place before it is examined")
        let candidate = tracker.next(at: Fixture.at(0))
        XCTAssertEqual(candidate?.key, photo.key)
        _ = tracker.examined(photo, .left(reason: "not found on the screen, and no program read the screen for it"), at: Fixture.at(0.01))
        let settled = tracker.settle(at: Fixture.at(2)) { _ in nil }
        XCTAssertEqual(settled?.hasCountedSignal, false)
        XCTAssertNil(ReportBuilder.build(settled!, rules: nil).report, "no report for a photo")

        var other = CaptureTracker()
        _ = other.receive(.screenRead(Fixture.read(by: "scrot", area: Rect(x: 0, y: 0, width: 64, height: 48), at: 0)),
                          at: Fixture.at(0), snapshot: take(at: 0))
        _ = other.receive(.image(photo), at: Fixture.at(0.1), snapshot: take(at: 0.1))
        _ = other.examined(photo, .left(reason: "not found on the screen"), at: Fixture.at(0.2))
        XCTAssertTrue(other.event?.hasCountedSignal ?? false, "scrot's read still counts")
    }

    /// `xwd -root > x.xwd` on a loaded machine: the file closes and is examined before the
    /// agent hears of xwd's read, and is left for want of a read; the follower then finds xwd
    /// wrote it. It is examined again, with that read, once. Regression: the read was dropped
    /// as "already seen" and the screenshot stayed unredacted.
    func testAFileLeftForWantOfAReadIsJudgedAgainWhenItsWritersReadComes() throws {
        var tracker = CaptureTracker()
        let shot = Fixture.file("x.xwd", naming: .weak)
        _ = tracker.receive(.image(shot), at: Fixture.at(0), snapshot: take(at: 0))
        let first = try XCTUnwrap(tracker.next(at: Fixture.at(0)))
        XCTAssertNil(first.evidence.screenRead)
        _ = tracker.examined(first, .left(reason: "no program read the screen for it"), at: Fixture.at(0.1))
        XCTAssertNil(tracker.next(at: Fixture.at(0.1)))

        var written = Evidence()
        written.screenRead = (Fixture.read(by: "xwd", at: 0.05), .writer)
        let withRead = Fixture.file("x.xwd", naming: .weak, evidence: written, at: 0.2)
        XCTAssertEqual(tracker.receive(.image(withRead), at: Fixture.at(0.2), snapshot: take(at: 0.2)),
                       [.judgedAgain(name: "/shots/x.xwd", program: "xwd"), .taken(name: "/shots/x.xwd", naming: .weak)])
        let again = try XCTUnwrap(tracker.next(at: Fixture.at(0.2)))
        XCTAssertEqual(again.key, shot.key)
        XCTAssertEqual(again.evidence.screenRead?.link, .writer, "it carries the read")
        XCTAssertTrue(tracker.event?.hasCountedSignal ?? false, "it counts for the event again")

        // Left once more, with the read: no third look, whatever comes.
        _ = tracker.examined(again, .left(reason: "not found on the screen"), at: Fixture.at(0.4))
        XCTAssertEqual(tracker.receive(.image(withRead), at: Fixture.at(0.5), snapshot: take(at: 0.5)),
                       [.ignored(name: "/shots/x.xwd", why: .alreadySeen)])
        XCTAssertNil(tracker.next(at: Fixture.at(0.5)))
    }

    /// Only a read learnt after a file was left for want of one brings it back: a file placed,
    /// one left with its read, and one signalled again without a read stay as they were judged.
    func testOnlyAReadLearntAfterAFileWasLeftWithoutOneBringsItBack() throws {
        var written = Evidence()
        written.screenRead = (Fixture.read(by: "xwd", at: 0), .writer)
        let cases: [(name: String, evidence: Evidence, outcome: ExaminationOutcome, again: Evidence)] = [
            ("placed.png", .none, .screenshotUnplaced(reason: "set aside"), written),
            ("left-with-read.png", written, .left(reason: "not found on the screen"), written),
            ("left-again-without.png", .none, .left(reason: "no program read the screen for it"), .none),
        ]
        for item in cases {
            var tracker = CaptureTracker()
            _ = tracker.receive(.image(Fixture.file(item.name, evidence: item.evidence)), at: Fixture.at(0), snapshot: take(at: 0))
            _ = tracker.examined(try XCTUnwrap(tracker.next(at: Fixture.at(0))), item.outcome, at: Fixture.at(0.1))
            XCTAssertEqual(tracker.receive(.image(Fixture.file(item.name, evidence: item.again)), at: Fixture.at(0.2),
                                           snapshot: take(at: 0.2)),
                           [.ignored(name: "/shots/\(item.name)", why: .alreadySeen)], item.name)
            XCTAssertNil(tracker.next(at: Fixture.at(0.2)), item.name)
        }
    }

    /// `maim -g 300x200+500+300 f.png` on a loaded machine: the file closed and was examined
    /// before the agent heard maim's read, which the X server could not name (maim had gone),
    /// so nothing follows it to the file. The read, heard a moment later, has the file placed
    /// again (where a file placed on the read's rectangle is its); a read of nothing protected,
    /// or one heard long after the file was left, changes nothing; a file is examined three times at most.
    func testAReadHeardAfterAFileWasLeftHasItExaminedAgain() throws {
        var tracker = CaptureTracker()
        let area = Rect(x: 5, y: 5, width: 40, height: 30)
        let crop = Fixture.file("crop.png", naming: .weak, at: 0)
        _ = tracker.receive(.image(crop), at: Fixture.at(0), snapshot: take(at: 0))
        _ = tracker.examined(try XCTUnwrap(tracker.next(at: Fixture.at(0))), .left(reason: "not found on the screen"),
                             at: Fixture.at(0.05))

        let nothingProtected = Fixture.read(by: "client 0x1200000", area: area, at: 0.1, protected: [])
        XCTAssertFalse(tracker.receive(.screenRead(nothingProtected), at: Fixture.at(0.1), snapshot: take(at: 0.1))
            .contains(.judgedAgain(name: "/shots/crop.png", program: "client 0x1200000")))
        XCTAssertNil(tracker.next(at: Fixture.at(0.1)), "a read of nothing protected is no reason")

        let read = Fixture.read(by: "client 0x1200000", area: area, at: 0.12)
        let notes = tracker.receive(.screenRead(read), at: Fixture.at(0.12), snapshot: take(at: 0.12))
        XCTAssertEqual(Array(notes.suffix(2)), [.judgedAgain(name: "/shots/crop.png", program: "client 0x1200000"),
                                                .taken(name: "/shots/crop.png", naming: .weak)])
        var again = try XCTUnwrap(tracker.next(at: Fixture.at(0.12)))
        XCTAssertEqual(again.key, crop.key)
        XCTAssertNil(again.evidence.screenRead, "nothing ties it yet: its placement may")
        XCTAssertNil(tracker.next(at: Fixture.at(0.12)))

        // Left again: a second read brings it back once more, a third does not.
        for (index, seconds) in [0.2, 0.3].enumerated() {
            _ = tracker.examined(again, .left(reason: "not found on the screen"), at: Fixture.at(seconds))
            _ = tracker.receive(.screenRead(Fixture.read(by: "xwd", area: area, at: seconds + 0.01)), at: Fixture.at(seconds + 0.01),
                                snapshot: take(at: seconds + 0.01))
            if index == 0 {
                again = try XCTUnwrap(tracker.next(at: Fixture.at(seconds + 0.01)))
                XCTAssertEqual(again.judgements, 2)
            } else {
                XCTAssertNil(tracker.next(at: Fixture.at(seconds + 0.01)), "examined three times: it stays as it is")
            }
        }

        // A file that arrived well before the read (examined late) holds none of its pixels.
        var earlier = CaptureTracker()
        _ = earlier.receive(.image(Fixture.file("before.png", naming: .weak, at: 20)), at: Fixture.at(20), snapshot: take(at: 20))
        _ = earlier.examined(try XCTUnwrap(earlier.next(at: Fixture.at(20))), .left(reason: "not found on the screen"),
                             at: Fixture.at(21))
        let afterSlack = 20 + LeftUnreadFiles.readSlack + 0.5
        _ = earlier.receive(.screenRead(Fixture.read(by: "xwd", area: area, at: afterSlack)), at: Fixture.at(afterSlack),
                            snapshot: take(at: afterSlack))
        XCTAssertNil(earlier.next(at: Fixture.at(afterSlack)))

        // A read heard long after the file was left is not looked for in it.
        var later = CaptureTracker()
        _ = later.receive(.image(Fixture.file("old.png", naming: .weak, at: 10)), at: Fixture.at(10), snapshot: take(at: 10))
        _ = later.examined(try XCTUnwrap(later.next(at: Fixture.at(10))), .left(reason: "not found on the screen"), at: Fixture.at(10.1))
        let late = 10.1 + LeftUnreadFiles.lifetime
        _ = later.receive(.screenRead(Fixture.read(by: "xwd", area: area, at: late)), at: Fixture.at(late), snapshot: take(at: late))
        XCTAssertNil(later.next(at: Fixture.at(late)))
    }

    /// A file left because it is guard's own output now, or gone, waits for no read.
    func testAFileLeftAsGuardsOwnOrGoneWaitsForNoRead() throws {
        for because in [LeftBecause.ownOutput, .gone] {
            var tracker = CaptureTracker()
            _ = tracker.receive(.image(Fixture.file("s.png", naming: .weak)), at: Fixture.at(0), snapshot: take(at: 0))
            _ = tracker.examined(try XCTUnwrap(tracker.next(at: Fixture.at(0))), .left(reason: "\(because)"), leftBecause: because,
                                 at: Fixture.at(0.05))
            _ = tracker.receive(.screenRead(Fixture.read(by: "maim", at: 0.1)), at: Fixture.at(0.1), snapshot: take(at: 0.1))
            XCTAssertNil(tracker.next(at: Fixture.at(0.1)), "\(because)")
        }
    }
}
