// Coalescing and timing of capture events, without X.
@testable import ShotguardAgent
import ShotguardImaging
import ShotguardRegions
import XCTest
import ShotguardScreen

final class CaptureEventTests: XCTestCase {
    private func snapshot(at time: Double, windows: [WindowInfo] = [], active: UInt? = nil) -> Snapshot {
        Snapshot(root: PixelBuffer(width: 64, height: 48), context: ScreenContext(width: 64, height: 48, windows: windows,
                                                                                  activeWindowID: active),
                 wallTime: time)
    }

    private func file(_ name: String, weak: Bool = false) -> Candidate {
        Candidate(source: .file, path: BytePath("/shots/\(name)"), bytes: nil, isWeak: weak, key: name)
    }

    func testCountedSignalsKeepTheEventTogetherForTheDebounce() {
        let event = CaptureEvent(id: "e", now: 100, snapshot: snapshot(at: 1000))
        event.add(SignalRecord(kind: .file, time: 1000, detail: "a"), counted: true, candidate: file("a.png"), now: 100)
        XCTAssertEqual(event.settleTime, 101, "at least the debounce after a counted signal")
        event.add(SignalRecord(kind: .clipboard, time: 1000.5, detail: "xclip"), counted: true, candidate: nil, now: 100.5)
        XCTAssertEqual(event.settleTime, 101.5, "a second signal of the same screenshot joins and extends it")
        XCTAssertEqual(event.pending.count, 1)
    }

    func testUncountedSignalsCannotHoldTheEventOpen() {
        let event = CaptureEvent(id: "e", now: 100, snapshot: snapshot(at: 1000))
        for step in 1...40 {
            let time = 100 + Double(step) * 0.5
            event.add(SignalRecord(kind: .file, time: time, detail: "x"), counted: false, candidate: file("x\(step).png", weak: true),
                      now: time)
        }
        XCTAssertEqual(event.settleTime, 101, "weak images do not extend the event")
        XCTAssertTrue(event.isBurst, "forty files at once are a bulk copy")
    }

    func testAPlannedRetryDelaysTheSettleAndAToolWindowHoldsItOpen() {
        let event = CaptureEvent(id: "e", now: 100, snapshot: snapshot(at: 1000))
        event.count(now: 100)
        event.retryAt = 102
        XCTAssertEqual(event.settleTime, 102)
        event.openToolWindows.insert(7)
        XCTAssertEqual(event.settleTime, 160, "while the tool's window is shown, up to a minute")
    }

    func testSnapshotsKeepTheEventTimeScreenAndTheFreshestOthers() {
        let event = CaptureEvent(id: "e", now: 100, snapshot: snapshot(at: 1))
        for time in 2...6 { event.addSnapshot(snapshot(at: Double(time))) }
        XCTAssertEqual(event.snapshots.map(\.wallTime), [1, 5, 6])
        XCTAssertEqual(event.eventTime.wallTime, 1)
    }

    func testTheFallbackIsTheActiveWindowClippedToTheScreen() {
        let window = WindowInfo(id: 5, className: "A", instance: "a", title: "t", frame: Rect(x: 40, y: 30, width: 50, height: 50),
                                isViewable: true)
        let event = CaptureEvent(id: "e", now: 0, snapshot: snapshot(at: 0, windows: [window], active: 5))
        XCTAssertEqual(event.fallbackRect, Rect(x: 40, y: 30, width: 24, height: 18))
        let none = CaptureEvent(id: "e", now: 0, snapshot: snapshot(at: 0))
        XCTAssertEqual(none.fallbackRect, Rect(x: 0, y: 0, width: 64, height: 48))
    }
}
