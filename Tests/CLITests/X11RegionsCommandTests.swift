// `regions check` and `regions show` against a known desktop: each rule's hits, and red outlines.
import ShotguardImaging
import ShotguardTestSupport
import ShotguardX11
import XCTest

final class X11RegionsCommandTests: X11DesktopTestCase {
    nonisolated(unsafe) static let desktop = X11Scene.desktop()
    override class var sharedDesktop: X11Desktop { desktop }

    func testCheckListsEachRuleWithItsHits() throws {
        let result = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        var sections: [Int: [String]] = [:]
        var current = 0
        let output = result.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(output.last, "shield: watch --shield covers these 7 rectangles on its key")
        for line in output.dropFirst().dropLast() where !line.hasPrefix("monitor ") {
            if let match = line.firstMatch(of: #/^line (\d+): /#) {
                current = Int(match.1)!
                sections[current] = []
            } else {
                sections[current, default: []].append(line)
            }
        }
        XCTAssertTrue(result.stdoutText.hasPrefix("\(rules): 6 rules; screen 320x240, 4 viewable windows, 1 monitor\nmonitor screen 320x240+0+0\n"), result.stdoutText)
        XCTAssertEqual(sections.keys.sorted(), [2, 3, 4, 5, 6, 7], result.stdoutText)
        let ids = desktop.ids.map { hexID($0) }
        let expected: [Int: [String]] = [
            // Cover (on top) and Notes (its corner) hide parts of the Vault: what shows is covered.
            2: ["    window \(ids[0]) Vault/vault \"Vault – Personal\" at 100x80+40+30 -> 90x10+50+30, 100x20+40+40, "
                + "80x50+40+60 black (partly under \(ids[3]), \(ids[2]))"],
            3: ["    window \(ids[1]) Chat/chat \"Team chat\" at 100x120+250+150 -> 20x30+300+210 #00ff00"],
            4: ["window \(ids[2]) Notes/notes \"Notes\" at ", " -> 10x10+0+0 #ff0000"],
            5: ["    hits nothing: no window on screen has class 'Nobody'"],
            6: ["    screen -> 40x10+280+0 #0000ff"],
            7: ["    window \(ids[3]) Cover/cover \"Over the vault\" at 60x50+120+60 -> 10x10+170+100 #ffff00"],
        ]
        for (line, parts) in expected {
            let hits = sections[line] ?? []
            XCTAssertEqual(hits.count, 1, "line \(line): \(hits)")
            for part in parts {
                XCTAssertTrue(hits.first?.contains(part) ?? false, "line \(line) hit \(hits) contains \(part)")
            }
        }
    }

    /// A class no window has is no error (exit 0), but the classes on screen like it are named;
    /// counts read as words: one rule, nothing covered.
    func testCheckNamesTheClassesLikeOneNoWindowHas() throws {
        let typo = try sandbox.write("typo", text: "window class=Vualt\n")
        let result = try desktop.run(["regions", "check", "--regions", typo], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutText, """
            \(typo): 1 rule; screen 320x240, 4 viewable windows, 1 monitor
            monitor screen 320x240+0+0
            line 1: window class=Vualt
                hits nothing: no window on screen has class 'Vualt' (on screen: Vault)
            shield: watch --shield covers nothing on its key

            """)
        let instance = try sandbox.write("instance", text: "window instance=chta\nscreen 1x1+0+0\n")
        let second = try desktop.run(["regions", "check", "--regions", instance], in: sandbox)
        XCTAssertTrue(second.stdoutText.contains("    hits nothing: no window on screen has instance 'chta' (on screen: chat)\n"),
                      second.stdoutText)
        XCTAssertTrue(second.stdoutText.hasSuffix("shield: watch --shield covers this rectangle on its key\n"), second.stdoutText)
    }

    func testCheckSaysWhatTheShieldCoversAndThatPixelateShieldsInBlack() throws {
        let rules = try sandbox.write("shield-rules", text: "screen 10x10+0+0 fill=pixelate\nscreen 5x5+20+20 fill=#00ff00\n")
        let result = try desktop.run(["regions", "check", "--regions", rules], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.hasSuffix("\nshield: watch --shield covers these 2 rectangles on its key "
            + "(1 of pixelate rules in black)\n"), result.stdoutText)
    }

    /// Every pixel of the 3-pixel outline of each rectangle is red, except under a label tab
    /// (red with white text); every other pixel is the screen as it is: nothing is redacted.
    func testShowOutlinesEachRectangleInRed() throws {
        let result = try desktop.run(["regions", "show", "--regions", rules, "-o", "preview.png"], in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let preview = try sandbox.image("preview.png")
        let screen = desktop.screen
        XCTAssertEqual(preview.width, screen.width)
        XCTAssertEqual(preview.height, screen.height)
        guard preview.width == screen.width, preview.height == screen.height else { return }
        let red: UInt32 = 0xFF2020, white: UInt32 = 0xFFFFFF
        let tabs = X11Scene.covers.map { cover in
            let size = PixelBuffer.textSize("L\(cover.line)", scale: 2)
            return Rect(x: cover.rect.x, y: cover.rect.y, width: size.width + 8, height: size.height + 6)
        }
        let rings = X11Scene.covers.map(\.rect)
        var wrong: [String] = []
        var whiteInTabs = 0
        for y in 0..<screen.height {
            for x in 0..<screen.width {
                let pixel = preview.rgb(x: x, y: y)
                let inTab = tabs.contains { $0.contains(x: x, y: y) }
                let onRing = rings.contains { ring in
                    ring.contains(x: x, y: y) && !Rect(x: ring.x + 3, y: ring.y + 3, width: ring.width - 6,
                                                       height: ring.height - 6).contains(x: x, y: y)
                }
                let expected: Set<UInt32> = inTab ? [red, white] : onRing ? [red] : [screen.rgb(x: x, y: y)]
                if pixel == white, inTab { whiteInTabs += 1 }
                if !expected.contains(pixel), wrong.count < 5 { wrong.append("(\(x),\(y)) \(hex(pixel))") }
            }
        }
        XCTAssertEqual(wrong, [], "pixels that are not what the preview should show")
        XCTAssertGreaterThan(whiteInTabs, 0, "the tabs carry labels")
        assertOnlyFiles(["rules", "preview.png"], in: sandbox)
    }
}
