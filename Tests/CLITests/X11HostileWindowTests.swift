// Windows whose properties another program set to nonsense: no command may crash or trust them.
import Foundation
import ShotguardImaging
import ShotguardX11
import XCTest

final class X11HostileWindowTests: X11DesktopTestCase {
    nonisolated(unsafe) static let desktop = X11Scene.desktop()
    override class var sharedDesktop: X11Desktop { desktop }

    private var vault: String { hexID(desktop.ids[0]) }

    override func tearDown() {
        if let name = try? desktop.name() {
            try? runXTool("xprop", ["-id", vault, "-remove", "_NET_FRAME_EXTENTS"], display: name)
        }
        super.tearDown()
    }

    private func setFrameExtents(_ values: String) throws {
        try runXTool("xprop", ["-id", vault, "-f", "_NET_FRAME_EXTENTS", "32c", "-set", "_NET_FRAME_EXTENTS", values],
                     display: try desktop.name())
    }

    /// 0xffffffff comes back from Xlib as the C long -1: converted to Int it trapped (SIGILL).
    func testNegativeFrameExtentsCrashNoCommand() throws {
        try setFrameExtents("0xffffffff,0,0,0")
        for arguments in [["windows"], ["windows", "--json"], ["capture", "-o", "shot.png", "--regions", rules],
                          ["regions", "check", "--regions", rules], ["regions", "show", "--regions", rules, "-o", "p.png"]] {
            let result = try desktop.run(arguments, in: sandbox)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
    }

    /// Extents that would carry the frame past X's coordinates are treated as absent: the
    /// rule for the whole vault covers its client area, as with no decorations.
    func testAbsurdFrameExtentsAreIgnored() throws {
        try setFrameExtents("2147483647,2147483647,2147483647,2147483647")
        let result = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("at 100x80+40+30 -> 100x80+40+30 black"), result.stdoutText)
        let capture = try desktop.run(["capture", "-o", "shot.png", "--regions", rules], in: sandbox)
        XCTAssertEqual(capture.status, 0, capture.stderr)
    }

    /// Sensible extents still count: the frame grows by them (clipped to the screen).
    func testSensibleFrameExtentsStillWidenTheFrame() throws {
        try setFrameExtents("2,3,20,4")
        let result = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("at 100x80+40+30 -> 105x104+38+10 black"), result.stdoutText)
    }
}
