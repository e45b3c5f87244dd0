// A desktop of known pixels on a private X server: the wallpaper, and windows painted in quadrants.
import ShotguardImaging
import ShotguardScene
import ShotguardX11

/// One window of a desktop: where it is, what it shows and what it is called.
public struct DesktopWindow: Sendable {
    public var frame: Rect
    /// The quadrants' colours, 0xRRGGBB: top-left, top-right, bottom-left, bottom-right.
    public var colours: [UInt32]
    public var className: String
    public var instance: String
    public var title: String

    public init(frame: Rect, colours: [UInt32], className: String, instance: String, title: String) {
        self.frame = frame
        self.colours = colours
        self.className = className
        self.instance = instance
        self.title = title
    }

    /// Four quadrants: a shift or flip shows.
    public var content: PixelBuffer { Pixels.quadrants(width: frame.width, height: frame.height, colours) }
}

/// Sets the root to the tests' wallpaper (`Pixels.screenshot`) and returns it.
@discardableResult
public func paintWallpaper(on display: Display) throws -> PixelBuffer {
    let image = Pixels.screenshot(width: display.width, height: display.height)
    try display.setRootBackground(image)
    return image
}

/// What `layout` makes on a `width`×`height` screen: the wallpaper with the windows drawn in
/// order (bottom first), clipped.
public func desktopScreen(width: Int, height: Int, _ layout: [DesktopWindow]) -> PixelBuffer {
    Pixels.composed(Pixels.screenshot(width: width, height: height), layout.map { ($0.frame, $0.content) })
}

/// Paints the wallpaper and opens `layout`'s windows in order (bottom first); returns them
/// (keep them alive: they close with their objects) and the screen they should make.
public func showDesktop(_ layout: [DesktopWindow], on display: Display) throws
    -> (windows: [PaintedWindow], screen: PixelBuffer) {
    try paintWallpaper(on: display)
    let windows = try layout.map { window throws(X11Error) in
        try PaintedWindow(display: display, frame: window.frame, content: window.content,
                          instance: window.instance, className: window.className, title: window.title)
    }
    return (windows, desktopScreen(width: display.width, height: display.height, layout))
}

/// A private X server (and openbox, when asked) showing `windows` on the wallpaper, for suites
/// that run `shotguard` against it. `start` records a failure instead of throwing, since
/// `class func setUp` cannot fail a test; `name()` and `display()` throw it in every test.
public final class X11Desktop {
    public let width: Int
    public let height: Int
    public let layout: [DesktopWindow]
    private let fixture = XvfbFixture()
    private var painted: [PaintedWindow] = []

    public init(width: Int, height: Int, windows: [DesktopWindow]) {
        self.width = width
        self.height = height
        self.layout = windows
    }

    public func start(windowManager: Bool = false) {
        fixture.start(width: width, height: height, windowManager: windowManager)
        fixture.prepare { display in
            painted = try showDesktop(layout, on: display).windows
            return []
        }
    }

    /// Closes the windows and the desktop's connection, then stops openbox and Xvfb by their pids.
    public func stop() {
        painted = []
        fixture.stop()
    }

    /// The display name, for DISPLAY; throws the setup failure.
    public func name() throws -> String { try fixture.name() }

    /// The desktop's own connection (it owns the windows).
    public func display() throws -> Display { try fixture.scene() }

    /// The window ids, in `layout` order.
    public var ids: [UInt] { painted.map { UInt($0.id) } }

    /// What the screen shows: the wallpaper with the windows drawn bottom first, clipped.
    public var screen: PixelBuffer { desktopScreen(width: width, height: height, layout) }

    /// Runs `shotguard` in `sandbox` with DISPLAY set to this desktop.
    public func run(_ arguments: [String], in sandbox: Sandbox, stdin: [UInt8]? = nil,
                    file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        try sandbox.run(arguments, stdin: stdin, environment: ["DISPLAY": try name()], file: file, line: line)
    }
}
