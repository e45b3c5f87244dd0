// The shape every watch suite shares: one private desktop per class, a sandbox per test.
import Foundation
import ShotguardImaging
import XCTest

/// A suite whose tests run `shotguard watch` against one `WatchDesktop`, started once for the
/// class. Each test gets a sandbox with a `shots` folder (for `--dir`), a `made` folder (where
/// screenshots are made before they are moved in) and the desktop's regions file.
class WatchDesktopTestCase: XCTestCase {
    nonisolated(unsafe) private static var desktops: [String: WatchDesktop] = [:]
    nonisolated(unsafe) private static var failures: [String: String] = [:]

    /// One desktop per suite class (this runs for each subclass, with `self` that class).
    private class var key: String { String(reflecting: self) }

    override class func setUp() {
        super.setUp()
        do {
            desktops[key] = try WatchDesktop()
        } catch {
            failures[key] = "cannot set up the desktop: \(error)"
        }
    }

    override class func tearDown() {
        desktops.removeValue(forKey: key)?.stop()
        super.tearDown()
    }

    var desk: WatchDesktop!
    var sandbox: Sandbox!
    var shots = ""
    var regions = ""
    let fullScreen = Rect(x: 0, y: 0, width: 640, height: 400)

    override func setUpWithError() throws {
        guard let desktop = Self.desktops[Self.key] else { throw FixtureError(Self.failures[Self.key] ?? "no desktop") }
        desk = desktop
        sandbox = try Sandbox(self)
        shots = sandbox.path("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sandbox.path("made"), withIntermediateDirectories: true)
        regions = try sandbox.write("regions", text: WatchDesktop.regions)
    }
}
