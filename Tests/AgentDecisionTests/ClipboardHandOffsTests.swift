// The process of a clipboard owner that handed its offer over, kept for the image the manager then serves.
@testable import ShotguardAgent
import XCTest

final class ClipboardHandOffsTests: XCTestCase {
    private let tool = ProcessIdentity(pid: 4242, program: "gnome-screensho", parentPID: 1000, processGroup: 4242)

    func testTheImageHandedOverByTheToolIsTiedToItsProcess() {
        var handOffs = ClipboardHandOffs()
        handOffs.note(from: 0x1200018, process: tool, at: 100)
        XCTAssertEqual(handOffs.process(handedOverBy: 0x1200018, at: 100.2), tool)
    }

    func testAnImageNotHandedOverOrByAnotherOwnerIsNot() {
        var handOffs = ClipboardHandOffs()
        handOffs.note(from: 0x1200018, process: tool, at: 100)
        XCTAssertNil(handOffs.process(handedOverBy: nil, at: 100.2), "a manager's own copy, no hand-off")
        XCTAssertNil(handOffs.process(handedOverBy: 0x1400018, at: 100.2), "another owner's hand-off")
    }

    func testAHandOffIsForgottenAfterItsHorizon() {
        var handOffs = ClipboardHandOffs()
        handOffs.note(from: 0x1200018, process: tool, at: 100)
        XCTAssertNil(handOffs.process(handedOverBy: 0x1200018, at: 100 + ClipboardHandOffs.horizon + 0.1))
    }

    func testAHandOffWhoseProcessWasNotFoundReplacesTheLastOne() {
        var handOffs = ClipboardHandOffs()
        handOffs.note(from: 0x1200018, process: tool, at: 100)
        handOffs.note(from: 0x1200018, process: nil, at: 101)
        XCTAssertNil(handOffs.process(handedOverBy: 0x1200018, at: 101.1), "a window id the server may have reused")
    }
}
