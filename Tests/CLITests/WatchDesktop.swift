// The desktop the watch tests photograph: a private Xvfb with openbox, a busy wallpaper, windows.
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import ShotguardScene
import XCTest

/// A 640x400 screen with openbox, a wallpaper whose rows never repeat (so a region can be found
/// in only one place), a "Vault" window that rules redact and a "Notes" window they do not.
final class WatchDesktop {
    static let regions = """
        window class=Vault 100%x40+0+20   # a row of the vault
        screen 64x32-0+0 fill=#00ff00     # the clock corner
        window class=Nobody               # hits nothing

        """

    let server: VirtualDisplay
    let display: Display
    let vault: PaintedWindow
    let notes: PaintedWindow

    /// `width`×`height`: the screen, 640x400 unless a test needs room for a larger window;
    /// `windowManagerConfig`: an openbox `rc.xml` of the test's own (its key bindings);
    /// `withoutRecord` starts the server without RECORD, as some servers ship (the agent then
    /// sees no screen reads, and works by files, the clipboard and tool windows alone).
    /// `fewColours` paints with 8 colours (2 levels a channel), so that what is below the title
    /// bars fits a GIF's palette. `listensOnTCP` takes clients over TCP too (`tcpName`).
    init(width: Int = 640, height: Int = 400, windowManagerConfig: String? = nil, withoutRecord: Bool = false,
         fewColours: Bool = false, listensOnTCP: Bool = false) throws {
        let mask: UInt32 = fewColours ? 0x606060 : 0x7F7F7F
        server = try startPrivateServer(width: width, height: height, withoutExtensions: withoutRecord ? ["RECORD"] : [],
                                        listensOnTCP: listensOnTCP, windowManager: true, windowManagerConfig: windowManagerConfig)
        display = try Display(name: server.name)
        try display.setRootBackground(Self.pattern(width: width, height: height, seed: 1, mask: mask))
        vault = try PaintedWindow(display: display, frame: Rect(x: 40, y: 60, width: 200, height: 120),
                                  content: Self.pattern(width: 200, height: 120, seed: 3, mask: mask), instance: "vault",
                                  className: "Vault", title: "Vault - Personal")
        notes = try PaintedWindow(display: display, frame: Rect(x: 330, y: 180, width: 220, height: 140),
                                  content: Self.pattern(width: 220, height: 140, seed: 9, mask: mask), instance: "notes",
                                  className: "Notes", title: "Notes")
        // openbox focuses new windows in its own time, and a title bar changes colour with the
        // focus: settle it on Notes before any test compares a screenshot with the screen.
        try runTool("xdotool windowfocus --sync \(hexID(UInt(notes.id)))", display: server.name)
        let notesID = notes.id
        guard display.waitForProperties(of: [display.root], seconds: 5, until: { [display] in display.activeWindow() == notesID }) else {
            throw FixtureError("openbox did not make Notes the active window")
        }
    }

    var name: String { server.name }

    /// The display's name over TCP (with `listensOnTCP`): a client there has no process the
    /// server can tell, as one on another machine.
    var tcpName: String { "127.0.0.1" + server.name }

    /// What is on the screen now (no redaction), captured by this process.
    func screen() throws -> PixelBuffer { try ScreenGrabber(display: display).captureScreen() }

    /// The rectangles the standard rules cover now, with their fills, in screen coordinates.
    func expectedRedactions() throws -> [(rect: Rect, fill: UInt32)] {
        let frame = try display.geometry(of: vault.id).frame
        return [(Rect(x: frame.x, y: frame.y + 20, width: frame.width, height: 40), 0x000000),
                (Rect(x: display.width - 64, y: 0, width: 64, height: 32), 0x00FF00)]
    }

    /// Pseudo-random pixels: every row differs from every other, as on a busy screen.
    static func pattern(width: Int, height: Int, seed: UInt32, mask: UInt32 = 0x7F7F7F) -> PixelBuffer {
        Pixels.noise(width: width, height: height, seed: seed, mask: mask)
    }

    static func wallpaper(width: Int, height: Int) -> PixelBuffer { pattern(width: width, height: height, seed: 1) }

    func stop() {
        vault.destroy()
        notes.destroy()
        server.stop()
    }
}
