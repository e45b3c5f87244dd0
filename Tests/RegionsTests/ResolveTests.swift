// The resolver: rules and windows in, screen rectangles out; and screen rectangles into image ones.

import XCTest
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

final class ResolveTests: XCTestCase {
    private func window(_ id: UInt, _ className: String, instance: String = "inst", title: String = "",
                        _ frame: Rect, viewable: Bool = true) -> WindowInfo {
        WindowInfo(id: id, className: className, instance: instance, title: title, frame: frame, isViewable: viewable)
    }

    private func screen(_ windows: [WindowInfo]) -> ScreenContext {
        ScreenContext(width: 1920, height: 1080, windows: windows)
    }

    private func rects(_ rules: String, _ context: ScreenContext) throws -> [Rect] {
        try parse(rules).hits(against: context).map(\.rect)
    }

    func testScreenBounds() {
        XCTAssertEqual(screen([]).bounds, Rect(x: 0, y: 0, width: 1920, height: 1080))
    }

    func testScreenRules() throws {
        let context = screen([])
        XCTAssertEqual(try rects("screen", context), [Rect(x: 0, y: 0, width: 1920, height: 1080)])
        XCTAssertEqual(try rects("screen 300x28-0+0", context), [Rect(x: 1620, y: 0, width: 300, height: 28)])
        XCTAssertEqual(try rects("screen 10%x50%-0-0", context), [Rect(x: 1728, y: 540, width: 192, height: 540)])
        XCTAssertEqual(try rects("screen 100x100+1900+1000", context), [Rect(x: 1900, y: 1000, width: 20, height: 80)])
        XCTAssertEqual(try rects("screen 10x10+1920+0", context), [])
    }

    func testScreenRuleHitHasNoWindow() throws {
        let hits = try parse("screen fill=pixelate:4").hits(against: screen([]))
        XCTAssertEqual(hits, [RegionHit(line: 1, fill: .pixelate(blockSize: 4),
                                        rect: Rect(x: 0, y: 0, width: 1920, height: 1080), windowID: nil)])
    }

    func testWholeWindowAndGeometryRelativeToTheFrame() throws {
        let context = screen([window(7, "KeePassXC", Rect(x: 100, y: 200, width: 800, height: 600))])
        XCTAssertEqual(try rects("window class=KeePassXC", context), [Rect(x: 100, y: 200, width: 800, height: 600)])
        XCTAssertEqual(try rects("window class=KeePassXC 360x48+20+140", context),
                       [Rect(x: 120, y: 340, width: 360, height: 48)])
    }

    func testNegativeOffsetsCountFromTheFarEdges() throws {
        let context = screen([window(7, "a", Rect(x: 100, y: 200, width: 800, height: 600))])
        XCTAssertEqual(try rects("window class=a 100x20-10-5", context), [Rect(x: 790, y: 775, width: 100, height: 20)])
        XCTAssertEqual(try rects("window class=a 100x20-0+0", context), [Rect(x: 800, y: 200, width: 100, height: 20)])
    }

    func testPercentagesOfTheFrameRoundOutward() throws {
        let context = screen([window(7, "slack", Rect(x: 10, y: 20, width: 801, height: 600))])
        XCTAssertEqual(try rects("window class=slack 25%x100%+0+0", context), [Rect(x: 10, y: 20, width: 201, height: 600)])
        XCTAssertEqual(try rects("window class=slack 50%x50%+50%+50%", context),
                       [Rect(x: 410, y: 320, width: 401, height: 300)])
    }

    func testEveryMatchingWindowInStackingOrder() throws {
        let context = screen([
            window(1, "firefox", Rect(x: 0, y: 0, width: 100, height: 100)),
            window(2, "xterm", Rect(x: 200, y: 0, width: 100, height: 100)),
            window(3, "Firefox", Rect(x: 400, y: 0, width: 100, height: 100)),
        ])
        let hits = try parse("window class=FIREFOX 10x10+1+1 fill=#ff0000").hits(against: context)
        XCTAssertEqual(hits.map(\.windowID), [1, 3])
        XCTAssertEqual(hits.map(\.rect), [Rect(x: 1, y: 1, width: 10, height: 10), Rect(x: 401, y: 1, width: 10, height: 10)])
        XCTAssertEqual(hits.map(\.fill), [.solid(0xFF0000), .solid(0xFF0000)])
        XCTAssertEqual(hits.map(\.line), [1, 1])
    }

    func testUnviewableWindowsAreSkipped() throws {
        let context = screen([
            window(1, "a", Rect(x: 0, y: 0, width: 100, height: 100), viewable: false),
            window(2, "a", Rect(x: 200, y: 0, width: 100, height: 100)),
        ])
        XCTAssertEqual(try parse("window class=a").hits(against: context).map(\.windowID), [2])
    }

    // The windows below share one frame, each hiding those under it: these tests check which
    // windows a rule names (its zones), not what shows of them.

    func testInstanceIsCaseInsensitiveAndTitleExactIsNot() throws {
        let frame = Rect(x: 0, y: 0, width: 10, height: 10)
        let context = screen([
            window(1, "Slack", instance: "slack", title: "My Bank", frame),
            window(2, "Other", instance: "SLACK", title: "my bank", frame),
        ])
        XCTAssertEqual(try parse("window instance=Slack").zones(against: context).map(\.windowID), [1, 2])
        XCTAssertEqual(try parse("window title=\"My Bank\"").zones(against: context).map(\.windowID), [1])
        XCTAssertEqual(try parse("window title=My").zones(against: context).map(\.windowID), [])
    }

    func testTitlePatternMatchesAnywhere() throws {
        let frame = Rect(x: 0, y: 0, width: 10, height: 10)
        let context = screen([
            window(1, "firefox", title: "Online BANKING — Mozilla Firefox", frame),
            window(2, "firefox", title: "News — Mozilla Firefox", frame),
            window(3, "chromium", title: "My bank", frame),
        ])
        XCTAssertEqual(try parse(#"window title~"(?i)bank""#).zones(against: context).map(\.windowID), [1, 3])
        XCTAssertEqual(try parse("window title~bank").zones(against: context).map(\.windowID), [3])
        XCTAssertEqual(try parse("window title~^News").zones(against: context).map(\.windowID), [2])
    }

    func testAllMatchesMustHold() throws {
        let frame = Rect(x: 0, y: 0, width: 10, height: 10)
        let context = screen([
            window(1, "firefox", title: "bank", frame),
            window(2, "firefox", title: "news", frame),
            window(3, "chromium", title: "bank", frame),
        ])
        XCTAssertEqual(try parse("window class=firefox title~bank").zones(against: context).map(\.windowID), [1])
    }

    func testWindowPartlyOffScreenIsClipped() throws {
        let context = screen([
            window(1, "a", Rect(x: -100, y: -50, width: 400, height: 300)),
            window(2, "b", Rect(x: 1800, y: 1000, width: 400, height: 300)),
        ])
        XCTAssertEqual(try rects("window class=a", context), [Rect(x: 0, y: 0, width: 300, height: 250)])
        XCTAssertEqual(try rects("window class=b", context), [Rect(x: 1800, y: 1000, width: 120, height: 80)])
        XCTAssertEqual(try rects("window class=b 50x50-0-0", context), [])
        XCTAssertEqual(try rects("window class=a 200x200+50+0", context), [Rect(x: 0, y: 0, width: 150, height: 150)])
    }

    func testWindowEntirelyOffScreenHitsNothing() throws {
        let context = screen([window(1, "a", Rect(x: 3000, y: 0, width: 400, height: 300))])
        XCTAssertEqual(try rects("window class=a", context), [])
    }

    func testEveryRuleIsResolvedInFileOrderEvenWhenItHitsNothing() throws {
        let context = screen([window(5, "a", Rect(x: 0, y: 0, width: 100, height: 100))])
        let file = try parse("window class=nobody\nscreen 10x10+0+0\n\nwindow class=a fill=pixelate")
        let resolutions = file.resolve(against: context)
        XCTAssertEqual(resolutions.map(\.rule.line), [1, 2, 4])
        XCTAssertEqual(resolutions.map(\.hits.count), [0, 1, 1])
        XCTAssertEqual(file.hits(against: context).map(\.line), [2, 4])
        XCTAssertEqual(file.hits(against: context).map(\.windowID), [nil, 5])
    }

    func testTranslatedToImageCoordinates() {
        let hits = [
            RegionHit(line: 1, fill: .black, rect: Rect(x: 50, y: 50, width: 100, height: 100), windowID: 9),
            RegionHit(line: 2, fill: .pixelate(blockSize: 8), rect: Rect(x: 200, y: 150, width: 10, height: 10)),
            RegionHit(line: 3, fill: .black, rect: Rect(x: 0, y: 0, width: 100, height: 100)),
            RegionHit(line: 4, fill: .black, rect: Rect(x: 550, y: 450, width: 100, height: 100)),
        ]
        let translated = hits.translated(toImageAt: Rect(x: 100, y: 100, width: 500, height: 400))
        XCTAssertEqual(translated, [
            RegionHit(line: 1, fill: .black, rect: Rect(x: 0, y: 0, width: 50, height: 50), windowID: 9),
            RegionHit(line: 2, fill: .pixelate(blockSize: 8), rect: Rect(x: 100, y: 50, width: 10, height: 10)),
            RegionHit(line: 4, fill: .black, rect: Rect(x: 450, y: 350, width: 50, height: 50)),
        ])
        XCTAssertEqual(hits.translated(toImageAt: Rect(x: 0, y: 0, width: 1920, height: 1080)), hits)
    }
}
