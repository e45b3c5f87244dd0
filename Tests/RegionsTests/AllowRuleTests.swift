// Allow rules: what they name stays visible, what they kept is recorded, and what they may uncover.

import XCTest
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

final class AllowRuleTests: XCTestCase {
    private let terminal = WindowInfo(id: 1, className: "Terminal", instance: "terminal", title: "sh",
                                      frame: Rect(x: 100, y: 100, width: 200, height: 100),
                                      isViewable: true, outerFrame: Rect(x: 100, y: 80, width: 200, height: 120))

    private func context(_ windows: [WindowInfo]) -> ScreenContext {
        ScreenContext(width: 640, height: 480, windows: windows)
    }

    private func area(_ hits: [RegionHit]) -> Int { hits.reduce(0) { $0 + $1.rect.area } }

    func testScreenLessATerminalCoversEverythingButTheTerminal() throws {
        let resolutions = try parse("screen\nallow window class=Terminal").resolve(against: context([terminal]))
        let covers = resolutions[0].hits
        XCTAssertEqual(area(covers), 640 * 480 - 200 * 120)
        XCTAssertFalse(covers.contains { !$0.rect.intersection(terminal.outerFrame).isEmpty })
        XCTAssertEqual(Set(covers.map(\.zone)), [Rect(x: 0, y: 0, width: 640, height: 480)])
        XCTAssertEqual(resolutions[1].hits, [], "an allow rule covers nothing")
        XCTAssertEqual(resolutions[1].allowed.map(\.rect), [terminal.outerFrame])
        XCTAssertEqual(resolutions[1].kept, [KeptVisible(rect: terminal.outerFrame, coverLine: 1, coverOrigin: .user)])
    }

    /// What is allowed follows occlusion too: a window over the terminal stays covered.
    func testAWindowOverTheAllowedOneStaysCovered() throws {
        let popup = WindowInfo(id: 2, className: "Popup", instance: "popup", title: "", frame: Rect(x: 250, y: 150, width: 100, height: 100),
                               isViewable: true)
        let resolutions = try parse("screen\nallow window class=Terminal").resolve(against: context([terminal, popup]))
        let covers = resolutions[0].hits
        let visibleTerminal = 200 * 120 - 50 * 50
        XCTAssertEqual(area(covers), 640 * 480 - visibleTerminal)
        XCTAssertTrue(covers.contains { $0.rect.contains(x: 260, y: 160) }, "the popup over the terminal is covered")
        XCTAssertFalse(covers.contains { $0.rect.contains(x: 120, y: 120) }, "the terminal shows")
        XCTAssertEqual(area(resolutions[1].allowed), visibleTerminal)
    }

    func testAllowScreenMonitorAndFieldAreas() throws {
        let monitors = [MonitorInfo(name: "HDMI-1", frame: Rect(x: 0, y: 0, width: 320, height: 480)),
                        MonitorInfo(name: "DP-1", frame: Rect(x: 320, y: 0, width: 320, height: 480), isPrimary: true)]
        let field = AccessibleField(role: .text, name: "Search", rect: Rect(x: 400, y: 10, width: 50, height: 20), application: "app")
        let screen = ScreenContext(width: 640, height: 480, windows: [], monitors: monitors, fields: .available([field]))
        let file = try parse("screen\nallow monitor HDMI-1\nallow screen 10x10-0-0\nallow field role=text")
        let covers = file.hits(against: screen)
        XCTAssertEqual(area(covers), 320 * 480 - 100 - 50 * 20)
        XCTAssertFalse(covers.contains { $0.rect.contains(x: 635, y: 475) })
        XCTAssertFalse(covers.contains { $0.rect.contains(x: 410, y: 15) })
        XCTAssertTrue(covers.contains { $0.rect.contains(x: 400, y: 100) })
        let kept = file.resolve(against: screen).map { $0.kept.reduce(0) { $0 + $1.rect.area } }
        XCTAssertEqual(kept, [0, 320 * 480, 100, 50 * 20])
    }

    /// Every cover rule is cut, in any order of the file: an allow before a rule counts too.
    func testAnAllowAppliesToRulesBeforeAndAfterIt() throws {
        let covers = try parse("window class=Terminal\nallow screen 100x100+100+100\nscreen 50x50+150+150 fill=#ff0000")
            .hits(against: context([terminal]))
        XCTAssertEqual(area(covers), 200 * 120 - 100 * 100)
        XCTAssertFalse(covers.contains { $0.rect.contains(x: 160, y: 160) })
    }

    // Who may uncover what: a user's allow lifts the user's covers, windows that asked and
    // unlocked system rules; a system allow lifts only system rules; a locked rule stays.

    private func merged(system: String, locked: Bool, user: String) throws -> RegionsFile {
        let policy = try RegionsFile.parse((locked ? "lock\n" : "") + system, path: "/etc/xdg/shotguard/regions", system: true)
        let own = try RegionsFile.parse(user, path: "regions")
        return RegionsFile(path: "regions", rules: policy.rules + own.rules, lock: policy.lock,
                           systemPaths: [policy.path])
    }

    func testAUserAllowCannotUncoverALockedSystemRule() throws {
        let file = try merged(system: "screen", locked: true, user: "allow window class=Terminal")
        XCTAssertEqual(area(file.hits(against: context([terminal]))), 640 * 480)
        XCTAssertEqual(file.resolve(against: context([terminal])).last?.kept, [])
        XCTAssertEqual(file.rules.first?.origin, .system(path: "/etc/xdg/shotguard/regions", locked: true))
        XCTAssertEqual(file.lock, PolicyLock(path: "/etc/xdg/shotguard/regions", line: 1))
    }

    func testAUserAllowUncoversAnUnlockedSystemRule() throws {
        let file = try merged(system: "screen", locked: false, user: "allow window class=Terminal")
        XCTAssertEqual(area(file.hits(against: context([terminal]))), 640 * 480 - 200 * 120)
    }

    func testASystemAllowUncoversSystemRulesButNotTheUsers() throws {
        let file = try merged(system: "screen\nallow window class=Terminal", locked: true, user: "window class=Terminal 10x10+0+0")
        let hits = file.hits(against: context([terminal]))
        XCTAssertEqual(area(hits), 640 * 480 - 200 * 120 + 100)
        XCTAssertTrue(hits.contains { $0.rect == Rect(x: 100, y: 100, width: 10, height: 10) && $0.origin == .user })
    }

    func testAUserAllowUncoversAWindowThatAsked() throws {
        var asking = terminal
        asking.requestsProtection = true
        XCTAssertEqual(try parse("allow window class=Terminal").hits(against: context([asking])), [])
        XCTAssertEqual(area(try parse("").hits(against: context([asking]))), 200 * 120)
    }

    func testTheOriginsThatMayUncover() {
        let locked = RuleOrigin.system(path: "p", locked: true), open = RuleOrigin.system(path: "p", locked: false)
        XCTAssertTrue(RuleOrigin.user.allowMayUncover(.user))
        XCTAssertTrue(RuleOrigin.user.allowMayUncover(.windowProperty))
        XCTAssertTrue(RuleOrigin.user.allowMayUncover(open))
        XCTAssertFalse(RuleOrigin.user.allowMayUncover(locked))
        XCTAssertTrue(open.allowMayUncover(locked))
        XCTAssertFalse(locked.allowMayUncover(.user))
        XCTAssertFalse(open.allowMayUncover(.windowProperty))
    }
}
