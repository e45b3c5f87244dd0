// The shape every watch suite shares: one private desktop per class, a sandbox per test.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// A suite whose tests run `shotguard watch` against one `WatchDesktop`, started once for the
/// class. Each test gets a sandbox with a `shots` folder (for `--dir`), a `made` folder (where
/// screenshots are made before they are moved in) and the desktop's regions file.
class WatchDesktopTestCase: XCTestCase {
    private static let desktops = SuiteFixtures<WatchDesktop>()

    /// Whether the suite's X server has RECORD. Suites that make their screenshots with a
    /// screenshot program while the agent runs, then hand them to it (a file moved in, a copy
    /// with xclip), run without it: with RECORD the agent follows that program to its file and
    /// guards it where it was made. They test what the agent does on a server without RECORD,
    /// where it works as it did before capture sensing; the sensing suites test it with.
    class var serverHasRecord: Bool { true }

    /// The screen's size: 640x400 unless a suite needs room for a larger window.
    class var screenSize: (width: Int, height: Int) { (640, 400) }

    /// Whether the screen is painted with few colours (a GIF holds them all).
    class var fewColours: Bool { false }

    /// Whether the suite's X server takes clients over TCP too (`WatchDesktop.tcpName`).
    class var listensOnTCP: Bool { false }

    override class func setUp() {
        super.setUp()
        let withRecord = serverHasRecord
        let size = screenSize
        let fewColours = fewColours
        let listensOnTCP = listensOnTCP
        desktops.start(self) {
            try WatchDesktop(width: size.width, height: size.height, withoutRecord: !withRecord, fewColours: fewColours,
                             listensOnTCP: listensOnTCP)
        }
    }

    override class func tearDown() {
        desktops.remove(self)?.stop()
        super.tearDown()
    }

    var desk: WatchDesktop!
    var sandbox: Sandbox!
    var shots = ""
    var regions = ""
    var fullScreen: Rect { Rect(x: 0, y: 0, width: Self.screenSize.width, height: Self.screenSize.height) }

    override func setUpWithError() throws {
        desk = try Self.desktops.get(Self.self)
        sandbox = try Sandbox(self)
        shots = sandbox.path("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sandbox.path("made"), withIntermediateDirectories: true)
        regions = try sandbox.write("regions", text: WatchDesktop.regions)
    }
}
