// Recordings told apart from screenshots, without X: started at the second read, at any rate; ended a few intervals after the last frame.
@testable import ShotguardAgent
import ShotguardImaging
import ShotguardX11
import XCTest

final class RecordingTrackerTests: XCTestCase {
    private func read(client: UInt32 = 7, at seconds: Double) -> ScreenReadRecord {
        var read = Fixture.read(by: "ffmpeg", area: Rect(x: 0, y: 0, width: 1280, height: 800), at: seconds)
        read.client = client
        return read
    }

    func testTenFramesASecondStartARecordingAtTheSecondFrameAndItStopsSoonAfterTheLast() {
        var tracker = RecordingTracker()
        var started: Double?
        for frame in 0..<60 {
            let time = Double(frame) * 0.1
            let (change, isFrame) = tracker.add(read(at: time))
            if case .started(let info) = change {
                started = time
                XCTAssertEqual(info.frames, 2)
                XCTAssertEqual(info.program, "ffmpeg")
            }
            XCTAssertEqual(isFrame, started != nil, "frame \(frame)")
        }
        XCTAssertEqual(started, 0.1, "noticed at its second frame")
        XCTAssertEqual(tracker.expire(at: Fixture.at(6.5)), [], "not yet")
        let stopped = tracker.expire(at: Fixture.at(5.9 + RecordingTracker.quiet))
        guard case .stopped(let info)? = stopped.first else { return XCTFail("not stopped: \(stopped)") }
        XCTAssertEqual(info.frames, 60)
        XCTAssertFalse(tracker.isRecording)
    }

    /// ffmpeg stalled for two seconds under load: still the same recording, its covers kept.
    /// Stopped, then reading again: recording again at its first read.
    func testAStallKeepsTheRecordingAndAResumedRecorderIsRecordingAtItsFirstRead() {
        var tracker = RecordingTracker()
        for frame in 0..<5 { _ = tracker.add(read(at: Double(frame) * 0.1)) }
        XCTAssertEqual(tracker.expire(at: Fixture.at(2.4)), [], "a two-second stall ends nothing")
        XCTAssertTrue(tracker.add(read(at: 2.5)).isFrame)
        XCTAssertEqual(tracker.expire(at: Fixture.at(2.5 + RecordingTracker.quiet)).count, 1, "stopped")
        let again = tracker.add(read(at: 10))
        XCTAssertTrue(again.isFrame)
        guard case .started(let info)? = again.change else { return XCTFail("not started again: \(again)") }
        XCTAssertEqual(info.frames, 1)
        XCTAssertEqual(tracker.expire(at: Fixture.at(10 + RecordingTracker.quiet)).count, 1)
        XCTAssertFalse(tracker.add(read(client: 9, at: 50)).isFrame, "another client is no recorder")
        _ = tracker.expire(at: Fixture.at(10 + RecordingTracker.quiet + RecordingTracker.remembered + 1))
        XCTAssertFalse(tracker.add(read(at: 80)).isFrame, "forgotten after a while")
    }

    func testAScreenshotToolsReadsAreNoRecording() {
        var tracker = RecordingTracker()
        XCTAssertFalse(tracker.add(read(at: 0)).isFrame, "scrot reads once")
        // flameshot on two monitors reads both at once: two reads, no recording.
        XCTAssertNil(tracker.add(read(client: 8, at: 5)).change)
        XCTAssertNil(tracker.add(read(client: 8, at: 5.01)).change)
        XCTAssertNil(tracker.add(read(client: 8, at: 5.02)).change, "three reads within a few ms: one capture of three monitors")
        XCTAssertFalse(tracker.isRecording)
    }

    /// Regression: ffmpeg at 1 and 0.5 fps, and a reader sending GetImage every half second, were
    /// never counted as recordings. A second read within ten seconds is one, and it lasts as long
    /// as its own interval twice over.
    func testASlowRecorderIsARecordingAtItsSecondRead() {
        var tracker = RecordingTracker()
        XCTAssertNil(tracker.add(read(client: 9, at: 0)).change)
        guard case .started(let info)? = tracker.add(read(client: 9, at: 2)).change else { return XCTFail("0.5 fps is a recording") }
        XCTAssertEqual(info.frames, 2)
        for second in stride(from: 4.0, through: 20, by: 2) { XCTAssertTrue(tracker.add(read(client: 9, at: second)).isFrame) }
        XCTAssertEqual(tracker.expire(at: Fixture.at(23.5)), [], "3.5 s without a frame is less than two of its intervals")
        XCTAssertEqual(tracker.expire(at: Fixture.at(24.1)).count, 1, "stopped after two intervals")
        var other = RecordingTracker()
        XCTAssertNil(other.add(read(client: 3, at: 0)).change)
        XCTAssertNil(other.add(read(client: 3, at: 10.5)).change, "a read more than ten seconds later starts again")
    }

    /// A recorder that disconnects stopped recording, whatever its interval.
    func testADisconnectedRecorderStopped() {
        var tracker = RecordingTracker()
        _ = tracker.add(read(at: 0))
        _ = tracker.add(read(at: 1))
        XCTAssertTrue(tracker.isRecording)
        XCTAssertEqual(tracker.clientEnded(7, at: Fixture.at(1.1)).count, 1)
        XCTAssertFalse(tracker.isRecording)
    }

    func testAFloodOfClientsIsBounded() {
        var tracker = RecordingTracker()
        for client in 0..<1000 { _ = tracker.add(read(client: UInt32(client), at: Double(client) * 0.001)) }
        XCTAssertTrue(tracker.expire(at: Fixture.at(10)).isEmpty)
    }

    private func key(_ kind: ScreenWatch.Kind, client: UInt32 = 7, resource: UInt = 0x70_0001) -> ScreenWatchKey {
        ScreenWatchKey(client: client, kind: kind, resource: resource)
    }

    /// OBS's named pixmap, read on the GPU with no request after it: a recording once it has
    /// lived a second, until it is freed, however long without a read.
    func testAWatchIsARecordingUntilItEnds() {
        var tracker = RecordingTracker()
        tracker.watchStarted(key(.namedPixmap), program: "obs", pid: 300, area: Rect(x: 0, y: 0, width: 400, height: 300),
                             at: Fixture.at(0), covers: 1)
        XCTAssertEqual(tracker.expire(at: Fixture.at(0.5)), [], "not yet a second")
        XCTAssertEqual(tracker.deadline, Fixture.at(RecordingTracker.watchGrace).monotonic)
        guard case .started(let info)? = tracker.expire(at: Fixture.at(1)).first else { return XCTFail("a recording after a second") }
        XCTAssertEqual(info.path, .watch(.namedPixmap))
        XCTAssertEqual(info.covers, 1)
        XCTAssertEqual(info.started, Fixture.at(0), "from the watch")
        XCTAssertNil(tracker.deadline, "no read ends it: its watch does")
        XCTAssertEqual(tracker.expire(at: Fixture.at(600)), [], "ten minutes without a read: still watching")
        guard case .stopped? = tracker.watchEnded(key(.namedPixmap), at: Fixture.at(601)) else { return XCTFail("freed: stopped") }
        XCTAssertFalse(tracker.isRecording)
    }

    /// maim redirects the root's children for the moment of its one read: no recording, and its
    /// read stays a screenshot signal.
    func testAWatchOfAMomentIsNoRecording() {
        var tracker = RecordingTracker()
        tracker.watchStarted(key(.redirect), program: "maim", pid: 300, area: nil, at: Fixture.at(0))
        XCTAssertFalse(tracker.add(read(at: 0.01)).isFrame)
        XCTAssertNil(tracker.watchEnded(key(.redirect), at: Fixture.at(0.05)))
        XCTAssertEqual(tracker.expire(at: Fixture.at(5)), [])
        XCTAssertFalse(tracker.isRecording)
    }

    /// A DAMAGE watcher that reads at each change: its reads make it a recording first, and the
    /// watch keeps it one while the screen stays still (no read at all); a watch that ends
    /// while it still reads leaves it to its reads.
    func testAWatcherThatReadsIsOneRecordingWithItsWatch() {
        var tracker = RecordingTracker()
        tracker.watchStarted(key(.damage), program: "ffmpeg", pid: 300, area: nil, at: Fixture.at(0))
        XCTAssertFalse(tracker.add(read(at: 0.1)).isFrame)
        guard case .started(let info)? = tracker.add(read(at: 0.3)).change else { return XCTFail("two reads: a recording") }
        XCTAssertEqual(info.watches, [key(.damage)])
        XCTAssertEqual(tracker.expire(at: Fixture.at(60)), [], "a still screen: no read, the watch lives")
        XCTAssertTrue(tracker.add(read(at: 61)).isFrame)
        XCTAssertNil(tracker.watchEnded(key(.damage), at: Fixture.at(61.5)), "it read half a second ago")
        XCTAssertEqual(tracker.expire(at: Fixture.at(64)), [], "its reads' interval is long: twice it is its quiet")
        XCTAssertEqual(tracker.expire(at: Fixture.at(200)).count, 1, "then its reads' quiet")
    }
}
