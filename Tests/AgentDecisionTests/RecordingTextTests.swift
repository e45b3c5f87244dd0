// What the agent says of a recording: the notification names the program and what was covered, from the values alone.
@testable import ShotguardAgent
import ShotguardImaging
import ShotguardX11
import XCTest

final class RecordingTextTests: XCTestCase {
    private func info(_ program: String, _ path: RecordingPath, covers: Int, trusted: Bool = false) -> RecordingInfo {
        RecordingInfo(client: 7, program: program, pid: 300, area: Rect(x: 0, y: 0, width: 1920, height: 1080), frames: 2,
                      started: Fixture.at(0), lastRead: Fixture.at(1), path: path, covers: covers, trusted: trusted)
    }

    func testTheNotificationNamesTheProgramAndWhatWasCovered() {
        XCTAssertEqual(RecordingText.notification(info("firefox", .reads("CopyArea"), covers: 2), rulesInForce: true, shielded: true)?.summary,
                       "firefox is sharing your screen: 2 protected areas covered")
        XCTAssertEqual(RecordingText.notification(info("ffmpeg", .reads("ShmGetImage"), covers: 1), rulesInForce: true, shielded: true)?.summary,
                       "ffmpeg is recording your screen: 1 protected area covered")
        XCTAssertEqual(RecordingText.notification(info("obs", .watch(.namedPixmap), covers: 0), rulesInForce: true, shielded: true)?.body,
                       "No protected area is in what it reads: nothing on your screen is covered")
        XCTAssertEqual(RecordingText.notification(info("obs", .reads("ShmGetImage"), covers: 0, trusted: true), rulesInForce: true,
                                                  shielded: true)?.body,
                       "Your rules trust it (trust program=…): nothing is covered for it")
        XCTAssertEqual(RecordingText.notification(info("gpu-screen-reco", .helper("NVIDIA NvFBC"), covers: 3), rulesInForce: true,
                                                  shielded: true)?.summary,
                       "gpu-screen-reco reads your screen past the X server (NVIDIA NvFBC): 3 protected areas covered")
        XCTAssertEqual(RecordingText.notification(info("ffmpeg", .reads("ShmGetImage"), covers: 0), rulesInForce: true, shielded: false)?.body,
                       "Protected windows are not covered: the agent runs with --no-shield")
        XCTAssertNil(RecordingText.notification(info("ffmpeg", .reads("ShmGetImage"), covers: 0), rulesInForce: false, shielded: true),
                     "nothing to protect: nothing to say")
    }
}
