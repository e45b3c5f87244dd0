// The shape of a suite of X tests: one private server per class, a connection of its own per test.
import ShotguardX11
import XCTest

/// A test class whose tests share one private X server, started in `class func setUp` and
/// stopped in `class func tearDown`. A subclass says what server it needs by overriding
/// `serverSize`, `withoutSharedMemory` and `windowManager`, and what the screen shows by
/// overriding `prepare`. Each test gets `display`, a connection of its own, so the windows a
/// test opens are its own and close with it; a missing Xvfb fails every test in its setUp.
open class XvfbTestCase: XCTestCase {
    private static let fixtures = SuiteFixtures<XvfbFixture>()

    open class var serverSize: (width: Int, height: Int) { (320, 240) }
    open class var withoutSharedMemory: Bool { false }
    open class var windowManager: Bool { false }

    /// Runs once on the suite's own connection (`fixture.scene()`) after the server started:
    /// paints the wallpaper, opens the windows every test sees. What it returns stays alive
    /// until the class ends.
    open class func prepare(_ display: Display) throws -> [AnyObject] { [] }

    /// This class's server.
    public class var fixture: XvfbFixture {
        (try? fixtures.get(self)) ?? XvfbFixture()  // never started: every use throws so
    }

    override open class func setUp() {
        super.setUp()
        fixtures.start(self) {
            let fixture = XvfbFixture()
            fixture.start(width: serverSize.width, height: serverSize.height, withoutSharedMemory: withoutSharedMemory,
                          windowManager: windowManager)
            fixture.prepare { display in try prepare(display) }
            return fixture
        }
    }

    override open class func tearDown() {
        fixtures.remove(self)?.stop()
        super.tearDown()
    }

    /// This test's own connection to the suite's server.
    public var display: Display!

    override open func setUpWithError() throws {
        try super.setUpWithError()
        display = try Self.fixture.display()
    }

    override open func tearDown() {
        display = nil
        super.tearDown()
    }
}
