// `demo --dir`: its own Xvfb; after.png differs from before.png exactly inside the redacted areas.
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class X11DemoTests: XCTestCase {
    /// Where a window's client area starts in `image`: the first row holding `runs` (colour,
    /// length) one after the other. The demo's windows open where openbox puts them.
    private func find(_ runs: [(UInt32, Int)], in image: PixelBuffer, _ name: String) throws -> (x: Int, y: Int) {
        let width = runs.reduce(0) { $0 + $1.1 }
        for y in 0..<image.height {
            var x = 0
            while x + width <= image.width {
                var offset = 0
                let matches = runs.allSatisfy { colour, length in
                    defer { offset += length }
                    return (0..<length).allSatisfy { image.rgb(x: x + offset + $0, y: y) == colour }
                }
                if matches { return (x, y) }
                x += 1
            }
        }
        throw FixtureError("the demo's \(name) window is not in before.png")
    }

    func testDemoWritesBeforeAfterPreviewAndRegions() throws {
        let sandbox = try Sandbox(self)
        let result = try sandbox.run(["demo", "--dir", sandbox.path("demo")])
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)")
        XCTAssertTrue(result.stdoutText.contains("4 rectangles redacted"), result.stdoutText)
        XCTAssertEqual(Set(sandbox.contents().filter { $0.hasPrefix("demo") }),  // openbox keeps a log in ~/.cache
                       ["demo", "demo/before.png", "demo/after.png", "demo/preview.png", "demo/regions"])
        let regions = String(decoding: try sandbox.bytes("demo/regions"), as: UTF8.self)
        XCTAssertTrue(regions.contains("window class=Vault"), regions)
        let before = try sandbox.image("demo/before.png")
        let after = try sandbox.image("demo/after.png")
        XCTAssertEqual(before.width, 1280)
        XCTAssertEqual(before.height, 800)
        guard after.width == before.width, after.height == before.height else { return XCTFail("after.png's size") }

        // The demo's own rules (DemoScene.regions), worked out by hand for where the windows are.
        let vault = try find([(0x2E5E4E, 460)], in: before, "Vault")
        let chat = try find([(0x3B2F4A, 166), (0xF7F7F9, 354)], in: before, "Chat")
        let solid = [(Rect(x: vault.x, y: vault.y + 64, width: 460, height: 92), UInt32(0x000000)),  // line 2
                     (Rect(x: vault.x, y: vault.y + 216, width: 460, height: 34), UInt32(0x303030)),  // line 3
                     (Rect(x: 1140, y: 0, width: 140, height: 28), UInt32(0x000000))]  // line 5
        let mosaic = Rect(x: chat.x, y: chat.y, width: 167, height: 330)  // line 4: 32% of 520, rounded up
        let unchanged = Pixels.painted(before, solid)
        var expected = unchanged
        for y in mosaic.y..<mosaic.maxY {
            for x in mosaic.x..<mosaic.maxX { expected[x, y] = after[x, y] }
        }
        assertSameColours(after, expected)
        assertPixelated(after, from: before, in: mosaic, block: 12)
        XCTAssertNotEqual(after.cropped(to: mosaic), before.cropped(to: mosaic), "the contact list is pixelated")

        let preview = try sandbox.image("demo/preview.png")
        let rects = solid.map(\.0) + [mosaic]
        let outlined = Pixels.painted(before, rects.flatMap { rect in
            [Rect(x: rect.x, y: rect.y, width: rect.width, height: 3), Rect(x: rect.x, y: rect.maxY - 3, width: rect.width, height: 3),
             Rect(x: rect.x, y: rect.y, width: 3, height: rect.height), Rect(x: rect.maxX - 3, y: rect.y, width: 3, height: rect.height)]
                .map { ($0, UInt32(0xFF2020)) }
        })
        let tabs = zip(rects, [2, 3, 5, 4]).map { rect, line in
            let size = PixelBuffer.textSize("L\(line)", scale: 2)
            return Rect(x: rect.x, y: rect.y, width: size.width + 8, height: size.height + 6)
        }
        var differing = 0
        for y in 0..<before.height {
            for x in 0..<before.width where preview.rgb(x: x, y: y) != outlined.rgb(x: x, y: y) {
                let inTab = tabs.contains { $0.contains(x: x, y: y) }
                if !inTab { differing += 1 }
            }
        }
        XCTAssertEqual(differing, 0, "preview.png is before.png with red outlines (and labels in their corners)")
    }
}
