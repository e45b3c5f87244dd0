// `monitor` rules: parsing `name=`, `primary` and every monitor; geometry relative to each monitor.

import XCTest
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

final class MonitorRuleTests: XCTestCase {
    /// Two monitors side by side on a 3200x1080 root: a 1920x1080 primary and a 1280x1024.
    private let monitors = [
        MonitorInfo(name: "DP-1", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: true),
        MonitorInfo(name: "HDMI-1", frame: Rect(x: 1920, y: 0, width: 1280, height: 1024)),
    ]

    private var context: ScreenContext { ScreenContext(width: 3200, height: 1080, windows: [], monitors: monitors) }

    private func rects(_ rules: String, _ context: ScreenContext? = nil) throws -> [Rect] {
        try parse(rules).hits(against: context ?? self.context).map(\.rect)
    }

    func testParsesNamePrimaryAndEveryMonitor() throws {
        XCTAssertEqual(try rule("monitor name=DP-1 300x28-0+0").monitor, .named("DP-1"))
        XCTAssertEqual(try rule("monitor name=DP-1 300x28-0+0").target, .monitor)
        XCTAssertEqual(try rule(#"monitor name="Left screen" fill=#ff0000"#).monitor, .named("Left screen"))
        XCTAssertEqual(try rule("monitor primary 25%x100%+0+0").monitor, .primary)
        XCTAssertEqual(try rule("monitor 300x28-0+0").monitor, .all)
        XCTAssertNil(try rule("monitor name=DP-1").geometry)
    }

    func testGeometryIsRelativeToTheNamedMonitor() throws {
        XCTAssertEqual(try rects("monitor name=HDMI-1 300x28-0+0"), [Rect(x: 2900, y: 0, width: 300, height: 28)])
        XCTAssertEqual(try rects("monitor name=DP-1 300x28-0+0"), [Rect(x: 1620, y: 0, width: 300, height: 28)])
        XCTAssertEqual(try rects("monitor name=HDMI-1 10x10-0-0"), [Rect(x: 3190, y: 1014, width: 10, height: 10)])
    }

    func testPercentagesAreOfTheMonitor() throws {
        XCTAssertEqual(try rects("monitor name=HDMI-1 50%x50%+0+0"), [Rect(x: 1920, y: 0, width: 640, height: 512)])
        XCTAssertEqual(try rects("monitor primary 10%x100%-0+0"), [Rect(x: 1728, y: 0, width: 192, height: 1080)])
    }

    func testNoGeometryCoversTheWholeMonitor() throws {
        XCTAssertEqual(try rects("monitor name=HDMI-1"), [Rect(x: 1920, y: 0, width: 1280, height: 1024)])
    }

    func testEveryMonitorWithoutASelector() throws {
        XCTAssertEqual(try rects("monitor 100x20-0+0"),
                       [Rect(x: 1820, y: 0, width: 100, height: 20), Rect(x: 3100, y: 0, width: 100, height: 20)])
    }

    func testAMonitorThatIsNotThereHitsNothing() throws {
        XCTAssertEqual(try rects("monitor name=DP-9 300x28-0+0"), [])
        XCTAssertEqual(try rects("monitor name=dp-1"), [], "names are matched exactly")
        let noPrimary = ScreenContext(width: 3200, height: 1080, windows: [],
                                      monitors: monitors.map { MonitorInfo(name: $0.name, frame: $0.frame) })
        XCTAssertEqual(try rects("monitor primary", noPrimary), [])
        XCTAssertEqual(try rects("monitor", ScreenContext(width: 100, height: 100, windows: [])), [])
    }

    func testAMonitorPastTheRootIsClippedToIt() throws {
        let context = ScreenContext(width: 2000, height: 1000, windows: [],
                                    monitors: [MonitorInfo(name: "X", frame: Rect(x: 1900, y: 900, width: 200, height: 200))])
        XCTAssertEqual(try rects("monitor name=X", context), [Rect(x: 1900, y: 900, width: 100, height: 100)])
    }

    func testTheMonitorHoldingMostOfARectangle() {
        XCTAssertEqual(context.monitor(holdingMostOf: Rect(x: 1800, y: 0, width: 300, height: 10))?.name, "HDMI-1")
        XCTAssertEqual(context.monitor(holdingMostOf: Rect(x: 1800, y: 0, width: 200, height: 10))?.name, "DP-1")
        XCTAssertNil(context.monitor(holdingMostOf: Rect(x: 1920, y: 1030, width: 50, height: 50)))
        XCTAssertEqual(context.monitor(named: "primary")?.name, "DP-1")
        XCTAssertEqual(context.monitor(named: "HDMI-1")?.name, "HDMI-1")
        XCTAssertNil(context.monitor(named: "VGA-1"))
    }

    func testErrorsNameTheColumnAndTheValidForm() {
        XCTAssertEqual(parseError("monitor name= 10x10"),
                       "regions:1:14: empty value after 'name=' (expected name=MONITOR, e.g. name=DP-1; see 'shotguard monitors')")
        XCTAssertEqual(parseError("monitor primary name=DP-1"),
                       "regions:1:17: a monitor rule names at most one monitor (found 'name=DP-1' after 'primary' at column 9)")
        XCTAssertEqual(parseError("monitor class=x"),
                       "regions:1:9: a monitor rule takes no class=/instance=/title matches (found 'class=x') "
                           + "(a monitor is picked with name=NAME or primary)")
        XCTAssertEqual(parseError("screen primary"),
                       "regions:1:8: unknown word 'primary' (expected class=, instance=, title=, title~, type=, a geometry WxH+X+Y or fill=)")
        XCTAssertEqual(parseError("monitor name=DP-1 10x10 20x20"),
                       "regions:1:25: duplicate geometry '20x20' (a rule takes at most one geometry; the first is '10x10' at column 19)")
    }
}
