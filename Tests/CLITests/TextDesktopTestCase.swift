// The shape of the text suites: one GTK text desktop per class, a sandbox per test.
import Foundation
import ShotguardTestSupport
import XCTest

/// A suite whose tests run against one `TextDesktop`, started once for the class.
class TextDesktopTestCase: XCTestCase {
    private static let desktops = SuiteFixtures<TextDesktop>()

    override class func setUp() {
        super.setUp()
        desktops.start(self) { try TextDesktop() }
    }

    override class func tearDown() {
        desktops.remove(self)?.stop()
        super.tearDown()
    }

    var desk: TextDesktop!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        desk = try Self.desktops.get(Self.self)
        sandbox = try Sandbox(self)
    }
}
