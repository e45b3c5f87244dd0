// One private Xvfb per test class, started in `class func setUp`; a missing Xvfb fails every test.
import ShotguardBase
import ShotguardX11
import ShotguardScene
import XCTest

/// Why a suite's display is not there, thrown from `setUpWithError` so each test fails saying so.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

/// A private X server for one test class. `start` records a failure instead of throwing, since
/// `class func setUp` cannot fail a test; `display()` then throws it in every test's setUp.
final class XvfbFixture {
    private(set) var server: VirtualDisplay?
    private var failure: String?

    /// Starts Xvfb (`-displayfd`, `-noreset`, `-nolisten tcp`), and openbox when `windowManager`.
    func start(width: Int = 320, height: Int = 240, withoutSharedMemory: Bool = false, windowManager: Bool = false) {
        do throws(X11Error) {
            let server = try VirtualDisplay(width: width, height: height, withoutSharedMemory: withoutSharedMemory)
            self.server = server
            if windowManager, !server.startWindowManager() {
                failure = programExists("openbox")
                    ? "openbox did not take over display \(server.name) within 5 s"
                    : "openbox is not installed (Debian package 'openbox'); this suite needs a window manager"
            }
        } catch {
            failure = "cannot start a private X server: \(error.message)"
        }
    }

    /// The suite's own connection, which owns the windows `prepare` made (they live as long).
    private var sceneDisplay: Display?
    private var keep: [AnyObject] = []

    /// Opens the suite's connection and runs `body` on it (painting the wallpaper, opening
    /// windows); what it returns stays alive until `stop`. An error fails every test.
    func prepare(_ body: (Display) throws -> [AnyObject]) {
        guard failure == nil else { return }
        do {
            let display = try self.display()
            sceneDisplay = display
            keep = try body(display)
        } catch {
            failure = "cannot set up the suite's screen: \(error)"
        }
    }

    /// The suite's own connection (see `prepare`).
    func scene() throws -> Display {
        _ = try check()
        guard let sceneDisplay else { throw FixtureError(description: "the suite's screen was not prepared") }
        return sceneDisplay
    }

    /// Closes the suite's connection first (closing it after the server is gone would be a lost
    /// connection), then stops the window manager and the server, by their pids.
    func stop() {
        keep = []
        sceneDisplay = nil
        server?.stop()
        server = nil
    }

    /// A new connection to this suite's server.
    func display() throws -> Display {
        try Display(name: check().name)
    }

    private func check() throws -> VirtualDisplay {
        if let failure { throw FixtureError(description: failure) }
        guard let server else { throw FixtureError(description: "the suite's Xvfb was not started") }
        return server
    }
}

/// Runs `program` with `arguments` and DISPLAY set, waits for it, and fails the test unless it
/// exits 0. Used for what the library does not expose (xdotool's focus, unmap and raise).
func runTool(_ program: String, _ arguments: [String], display: String,
             file: StaticString = #filePath, line: UInt = #line) throws {
    guard programExists(program) else {
        throw FixtureError(description: "\(program) is not installed; this test needs it")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["DISPLAY=\(display)", program] + arguments
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "\(program) \(arguments.joined(separator: " ")) failed",
                   file: file, line: line)
}
