// maim -i of a window half off the screen or half under the vault: the window's own image, placed by what shows of it, comes out covered where the vault was.
import Foundation
import ShotguardImaging
import ShotguardScene
import ShotguardScreen
import ShotguardTestSupport
import ShotguardX11
import XCTest

/// `shotguard watch` (guard on, RECORD) on a desktop of its own, whose windows this suite moves.
final class WindowOwnImageCaptureTests: WatchDesktopTestCase {
    /// Runs the agent, takes `maim -u -i WINDOW` into a folder it does not watch, and returns
    /// what guard did with the file (its report's `guard.file`), the file's image after, and the
    /// agent's log.
    private func maimWindow(_ window: UInt, _ name: String,
                            file: StaticString = #filePath, line: UInt = #line) throws -> (guarded: String?, image: PixelBuffer, log: String) {
        let folder = try TemporaryFolder(self, label: "not-watched")
        let watch = try WatchAgent(["--regions", regions, "--dir", shots, "--no-clipboard", "--no-tools"], sandbox: sandbox,
                                   display: desk.name)
        let path = folder.at(name)
        try runTool("maim", ["-u", "-i", String(window), path], display: desk.name)
        let report = try XCTUnwrap(watch.nextReport(), "no report: \(watch.log)", file: file, line: line)
        let image = try ImageCodec.decode([UInt8](XCTUnwrap(FileManager.default.contents(atPath: path), file: file, line: line)),
                                          source: path).image
        return ((report.json["guard"] as? [String: Any])?["file"] as? String, image, watch.log)
    }
    /// `maim -i` writes a window's own pixels, the part past the screen's edge included; the
    /// agent compared the image with the screen, found it nowhere, and set it aside. It is
    /// placed at the window by its part on the screen: there the rules apply as on any
    /// screenshot (the vault's row black, the rest of what shows kept), and everything of the
    /// vault's frame past the edge is covered.
    func testAWindowHalfOffTheScreenIsCoveredPastTheEdge() throws {
        _ = try requireTool("maim", package: "maim")
        let vault = hexID(UInt(desk.vault.id))
        try runTool("xdotool windowmove --sync \(vault) -100 320", display: desk.name)
        defer { try? runTool("xdotool windowmove --sync \(vault) 40 60", display: desk.name) }
        let frame = try desk.display.geometry(of: desk.vault.id).frame
        let showing = fullScreen.intersection(frame)
        XCTAssertTrue(showing != frame && !showing.isEmpty, "the vault at \(frame) is not half off the screen")
        let screen = try desk.screen()
        let (guarded, image, log) = try maimWindow(desk.vault.id, "vault.png")
        XCTAssertEqual(guarded, "rewritten", log)
        XCTAssertEqual(image.width, frame.width)
        XCTAssertEqual(image.height, frame.height)
        // The rule's row: 40 rows from the 20th of the frame.
        let row = Rect(x: frame.x, y: frame.y + 20, width: frame.width, height: 40)
        var wrong: [String] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let onScreen = Rect(x: frame.x + x, y: frame.y + y, width: 1, height: 1)
                let expected = showing.intersection(onScreen).isEmpty || !row.intersection(onScreen).isEmpty
                    ? 0 : screen.rgb(x: onScreen.x, y: onScreen.y)
                if image.rgb(x: x, y: y) != expected { wrong.append("\(x),\(y)") }
            }
        }
        XCTAssertEqual(wrong.count, 0, "pixels not as expected (first \(wrong.prefix(4))): \(log)")
    }

    /// `maim -i` of the notes with the vault over a corner of them writes the notes' own pixels
    /// there, which the screen never showed; the agent set the file aside. It is placed at the
    /// notes by what shows of them, and covered where the vault's frame lay over them (the
    /// screen showed the vault there); the rest is the notes' own.
    func testAWindowHalfUnderTheVaultIsCoveredWhereTheVaultWas() throws {
        _ = try requireTool("maim", package: "maim")
        let vault = hexID(UInt(desk.vault.id))
        let notes = try desk.display.geometry(of: desk.notes.id).frame
        try runTool("xdotool windowmove --sync \(vault) \(notes.x + notes.width / 2) \(notes.y + notes.height / 3) "
                        + "windowraise \(vault)", display: desk.name)
        defer { try? runTool("xdotool windowmove --sync \(vault) 40 60", display: desk.name) }
        var over: Rect?
        XCTAssertTrue(desk.display.waitForWindows(seconds: 10) { context in
            guard let index = context.windows.firstIndex(where: { $0.className == "Vault" }),
                  context.windows[..<index].contains(where: { $0.className == "Notes" }) else { return false }
            over = context.windows[index].outerFrame
            return !notes.intersection(context.windows[index].outerFrame).isEmpty
        }, "the vault did not come over the notes")
        let hidden = try XCTUnwrap(over).intersection(notes).offsetBy(dx: -notes.x, dy: -notes.y)
        let (guarded, image, log) = try maimWindow(desk.notes.id, "notes.png")
        XCTAssertEqual(guarded, "rewritten", log)
        let own = WatchDesktop.pattern(width: 220, height: 140, seed: 9)
        XCTAssertEqual(image.width, own.width)
        XCTAssertEqual(image.height, own.height)
        guard image.width == own.width, image.height == own.height else { return }
        var wrong: [String] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let expected = hidden.contains(x: x, y: y) ? 0 : own.rgb(x: x, y: y)
                if image.rgb(x: x, y: y) != expected { wrong.append("\(x),\(y)") }
            }
        }
        XCTAssertEqual(wrong.count, 0, "pixels not as expected (first \(wrong.prefix(4))): \(log)")
    }

    /// `maim -i` of the vault hidden whole under the notes reads the vault's own pixels, which
    /// the screen does not show anywhere: the read held nothing the rules covered on the
    /// screen, and the file was left with the vault in it. A read of a window holds the
    /// protected windows there whole; nothing of the vault shows to place the image by, and it
    /// is set aside.
    func testTheVaultHiddenUnderAnotherWindowAndReadItselfIsSetAside() throws {
        _ = try requireTool("maim", package: "maim")
        let vault = hexID(UInt(desk.vault.id)), notesID = hexID(UInt(desk.notes.id))
        let notes = try desk.display.geometry(of: desk.notes.id).frame
        try runTool("xdotool windowmove --sync \(vault) \(notes.x + 10) \(notes.y) windowraise \(notesID)", display: desk.name)
        defer { try? runTool("xdotool windowmove --sync \(vault) 40 60", display: desk.name) }
        XCTAssertTrue(desk.display.waitForWindows(seconds: 10) { context in
            guard let vault = context.windows.firstIndex(where: { $0.className == "Vault" }),
                  let over = context.windows.firstIndex(where: { $0.className == "Notes" }), over > vault else { return false }
            return context.windows[over].outerFrame.intersection(context.windows[vault].outerFrame) == context.windows[vault].outerFrame
        }, "the notes did not come over the whole vault")
        let (guarded, image, log) = try maimWindow(desk.vault.id, "vault.png")
        XCTAssertEqual(guarded, "quarantined", log)
        let own = WatchDesktop.pattern(width: 200, height: 120, seed: 3)
        XCTAssertFalse(image.width == own.width && (0..<own.height).contains { y in
            (0..<own.width).allSatisfy { image.rgb(x: $0, y: y) == own.rgb(x: $0, y: y) }
        }, "a row of the vault's own pixels is still in the file")
    }
}
