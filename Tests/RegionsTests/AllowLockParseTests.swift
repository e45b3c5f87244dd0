// Parsing `allow`, `lock` and bare monitor names: the rules they make, and every error word for word.

import XCTest
import ShotguardImaging
import ShotguardRegions

final class AllowLockParseTests: XCTestCase {
    func testAllowBeforeEachTarget() throws {
        let file = try parse("""
            allow window class=Terminal
            allow screen 100x40+0+0
            allow monitor HDMI-1
            allow monitor name=DP-1
            allow field role=password   # an odd thing to allow, but a field like any other
            monitor primary
            """)
        XCTAssertEqual(file.rules.map(\.isAllow), [true, true, true, true, true, false])
        XCTAssertEqual(file.rules.map(\.target), [.window, .screen, .monitor, .monitor, .field, .monitor])
        XCTAssertEqual(file.rules[2].monitor, .named("HDMI-1"))
        XCTAssertEqual(file.rules[3].monitor, .named("DP-1"))
        XCTAssertEqual(file.rules[0].source, "allow window class=Terminal")
        XCTAssertEqual(file.coverRules.map(\.line), [6])
        XCTAssertEqual(try rule("monitor \"Left screen\" 10x10+0+0").monitor, .named("Left screen"))
    }

    func testAllowErrors() {
        let targets = "'window', 'screen', 'monitor', 'field' or 'text', the first four optionally after 'allow'"
        XCTAssertEqual(parseError("allow"),
                       "regions:1:6: 'allow' needs a target (expected 'allow window class=NAME', 'allow screen WxH+X+Y', "
                           + "'allow monitor NAME' or 'allow field role=ROLE')")
        XCTAssertEqual(parseError("allow windw class=a"), "regions:1:7: unknown target 'windw' (expected \(targets))")
        XCTAssertEqual(parseError("allow allow screen"), "regions:1:7: unknown target 'allow' (expected \(targets))")
        XCTAssertEqual(parseError("allow screen fill=black"),
                       "regions:1:14: an allow rule takes no fill (it keeps its area visible; found 'fill=black')")
        XCTAssertEqual(parseError("allow window"),
                       "regions:1:7: a window rule needs at least one of class=, instance=, title=, title~, type=")
        XCTAssertEqual(parseError("\"allow\" screen"), "regions:1:1: unknown target '\"allow\"' (expected \(targets))")
        XCTAssertEqual(parseError("allow monitor HDMI-1 DP-1"),
                       "regions:1:22: a monitor rule names at most one monitor (found 'DP-1' after 'HDMI-1' at column 15)")
    }

    func testLockOnlyInASystemFileAndAlone() throws {
        XCTAssertEqual(parseError("screen\n  lock"),
                       "regions:2:3: 'lock' belongs in a system policy file ($XDG_CONFIG_DIRS/shotguard/regions, "
                           + "e.g. /etc/xdg/shotguard/regions), not in a user's regions file")
        XCTAssertThrowsError(try RegionsFile.parse("lock screen", path: "/etc/xdg/shotguard/regions", system: true)) { error in
            XCTAssertEqual((error as? RegionsError)?.description,
                           "/etc/xdg/shotguard/regions:1:6: 'lock' stands alone on its line (found 'screen' after it)")
        }
        let policy = try RegionsFile.parse("screen 10x10+0+0\nlock # managed\nlock\nwindow class=x",
                                           path: "/etc/xdg/shotguard/regions", system: true)
        XCTAssertEqual(policy.lock, PolicyLock(path: "/etc/xdg/shotguard/regions", line: 2))
        XCTAssertEqual(policy.rules.map(\.line), [1, 4])
        XCTAssertEqual(Set(policy.rules.map(\.origin)), [.system(path: "/etc/xdg/shotguard/regions", locked: true)])
        let open = try RegionsFile.parse("screen", path: "/etc/xdg/shotguard/regions", system: true)
        XCTAssertNil(open.lock)
        XCTAssertEqual(open.rules.map(\.origin), [.system(path: "/etc/xdg/shotguard/regions", locked: false)])
    }

    func testTheLockRefusalNamesThePolicyFile() {
        XCTAssertEqual(PolicyLock(path: "/etc/xdg/shotguard/regions", line: 3).refusal(of: "watch --no-guard"),
                       "watch --no-guard is refused: the system policy /etc/xdg/shotguard/regions is locked (line 3: lock), "
                           + "so screenshots stay guarded")
    }
}
