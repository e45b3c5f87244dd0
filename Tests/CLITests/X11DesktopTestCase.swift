// The shape every X11 CLI suite shares: one private desktop per class, a sandbox per test.
import ShotguardTestSupport
import XCTest

/// A suite whose tests run `shotguard` against one private desktop, started once for the
/// class. A subclass keeps its desktop in a `static let` and returns it from `sharedDesktop`.
class X11DesktopTestCase: XCTestCase {
    class var sharedDesktop: X11Desktop { preconditionFailure("\(self) must override sharedDesktop") }
    class var windowManager: Bool { false }
    /// The regions file written into each test's sandbox as `rules`.
    class var rulesText: String { X11Scene.rules }

    override class func setUp() {
        super.setUp()
        sharedDesktop.start(windowManager: windowManager)
    }

    override class func tearDown() {
        sharedDesktop.stop()
        super.tearDown()
    }

    var sandbox: Sandbox!
    var rules = ""
    var desktop: X11Desktop { Self.sharedDesktop }

    override func setUpWithError() throws {
        _ = try desktop.name()
        sandbox = try Sandbox(self)
        rules = try sandbox.write("rules", text: Self.rulesText)
    }
}
