// One private Xvfb (and openbox, when asked) for a test suite; a missing Xvfb fails every test.
import ShotguardBase
import ShotguardScene
import ShotguardX11

/// Starts a private X server (`-displayfd`, `-noreset`, and `-nolisten tcp` unless `listensOnTCP`), and openbox on it when
/// `windowManager` (with `windowManagerConfig` as its `rc.xml`, for key bindings); throws why
/// not in words a test failure can show.
public func startPrivateServer(width: Int, height: Int, withoutSharedMemory: Bool = false, withoutExtensions: [String] = [],
                               listensOnTCP: Bool = false, windowManager: Bool = false,
                               windowManagerConfig: String? = nil) throws(FixtureError) -> VirtualDisplay {
    let server: VirtualDisplay
    do throws(X11Error) {
        server = try VirtualDisplay(width: width, height: height, withoutSharedMemory: withoutSharedMemory,
                                    withoutExtensions: withoutExtensions, listensOnTCP: listensOnTCP)
    } catch {
        throw FixtureError("cannot start a private X server: \(error.message)")
    }
    if windowManager, !server.startWindowManager(configFile: windowManagerConfig) {
        server.stop()
        throw FixtureError(programExists("openbox")
            ? "openbox did not take over display \(server.name) within 5 s"
            : "openbox is not installed (Debian package 'openbox'); this suite needs a window manager")
    }
    return server
}

/// A private X server for one test class. `start` records a failure instead of throwing, since
/// `class func setUp` cannot fail a test; `display()`, `scene()` and `name()` then throw it in
/// every test.
public final class XvfbFixture {
    public private(set) var server: VirtualDisplay?
    private var failure: FixtureError?
    /// The suite's own connection, which owns the windows `prepare` made (they live as long).
    private var sceneDisplay: Display?
    private var keep: [AnyObject] = []

    public init() {}

    /// Starts the server; see `startPrivateServer`.
    public func start(width: Int = 320, height: Int = 240, withoutSharedMemory: Bool = false, windowManager: Bool = false) {
        do throws(FixtureError) {
            server = try startPrivateServer(width: width, height: height, withoutSharedMemory: withoutSharedMemory,
                                            windowManager: windowManager)
        } catch {
            failure = error
        }
    }

    /// Opens the suite's connection and runs `body` on it (painting the wallpaper, opening
    /// windows); what it returns stays alive until `stop`. An error fails every test.
    public func prepare(_ body: (Display) throws -> [AnyObject]) {
        guard failure == nil else { return }
        do {
            let display = try self.display()
            sceneDisplay = display
            keep = try body(display)
        } catch {
            failure = FixtureError("cannot set up the suite's screen: \(error)")
        }
    }

    /// The suite's own connection (see `prepare`).
    public func scene() throws -> Display {
        _ = try check()
        guard let sceneDisplay else { throw FixtureError("the suite's screen was not prepared") }
        return sceneDisplay
    }

    /// The display's name, for DISPLAY.
    public func name() throws -> String { try check().name }

    /// A new connection to this suite's server.
    public func display() throws -> Display { try Display(name: name()) }

    /// Closes the suite's connection first (closing it after the server is gone would be a lost
    /// connection), then stops the window manager and the server, by their pids.
    public func stop() {
        keep = []
        sceneDisplay = nil
        server?.stop()
        server = nil
    }

    private func check() throws -> VirtualDisplay {
        if let failure { throw failure }
        guard let server else { throw FixtureError("the suite's Xvfb was not started") }
        return server
    }
}
