// What the tray and the recording mark show for each state, and the icon's pixels, without X or a bus.
@testable import ShotguardAgent
import ShotguardBus
import ShotguardImaging
import XCTest

final class PresenceLookTests: XCTestCase {
    private func look(_ protection: PresenceState.Protection, recordings: [String] = []) -> PresenceLook {
        PresenceLook(PresenceState(protection: protection, recordings: recordings), clock: { _ in "14:05" })
    }

    private func enabledActions(_ look: PresenceLook) -> [TrayAction] {
        look.menu.compactMap { line in
            if case .action(let action) = line.kind, line.enabled { return action }
            return nil
        }
    }

    func testProtectingCountsTheRulesAndOffersThePauses() {
        let shown = look(.protecting(rules: 3))
        XCTAssertEqual(shown.iconKind, .protecting)
        XCTAssertEqual(shown.status, "Active")
        XCTAssertEqual(shown.headline, "Protecting with 3 rules")
        XCTAssertEqual(look(.protecting(rules: 1)).headline, "Protecting with 1 rule")
        XCTAssertNil(shown.indicator)
        XCTAssertEqual(enabledActions(shown), [.pauseTenMinutes, .pauseOneHour, .pauseUntilResumed, .openReports, .editRules,
                                               .openQuarantine])
        XCTAssertEqual(shown.menu.first?.kind, .state)
        XCTAssertEqual(shown.menu.first?.label, "Protecting with 3 rules")
    }

    func testPausedSaysUntilWhenAndOffersResumeAlone() {
        let until = look(.paused(until: 1_000))
        XCTAssertEqual(until.iconKind, .paused)
        XCTAssertEqual(until.status, "NeedsAttention")
        XCTAssertEqual(until.headline, "Paused until 14:05")
        XCTAssertEqual(look(.paused(until: nil)).headline, "Paused until resumed")
        XCTAssertEqual(enabledActions(until), [.resume, .openReports, .editRules, .openQuarantine])
    }

    func testOffSaysWhy() {
        let off = look(.off(why: "no regions file at /x"))
        XCTAssertEqual(off.iconKind, .off)
        XCTAssertEqual(off.status, "Active")
        XCTAssertEqual(off.headline, "Not protecting: no regions file at /x")
    }

    /// A recording shows over any other look, names each program once, and puts up the mark.
    func testARecordingNamesItsProgramsAndPutsUpTheMark() {
        let shown = look(.paused(until: nil), recordings: ["ffmpeg", "obs", "ffmpeg"])
        XCTAssertEqual(shown.iconKind, .recording)
        XCTAssertEqual(shown.status, "NeedsAttention")
        XCTAssertEqual(shown.headline, "Paused until resumed; Recording: ffmpeg, obs")
        XCTAssertEqual(shown.indicator, "RECORDING: ffmpeg, obs")
        XCTAssertEqual(shown.iconName, "media-record")
        let long = look(.protecting(rules: 1), recordings: [String(repeating: "x", count: 80)])
        XCTAssertEqual(long.indicator?.count, "RECORDING: ".count + 40)
    }

    /// The bus's menu: actions keep their ids (what a host's click sends back), the state line
    /// and separators get ids of their own, none repeated.
    func testTheBusMenuKeepsTheActionsIds() {
        let menu = look(.protecting(rules: 2)).busMenu
        XCTAssertEqual(Set(menu.map(\.id)).count, menu.count)
        XCTAssertEqual(menu.first { $0.label == "Pause 10 minutes" }?.id, Int32(TrayAction.pauseTenMinutes.rawValue))
        XCTAssertEqual(menu.first { $0.label == "Resume" }?.enabled, false)
        XCTAssertEqual(menu.first?.kind, .label)
    }

    /// Each look has its colour, transparent around the shield, at any size.
    func testTheIconIsAShieldInTheColourOfTheState() {
        for (icon, colour) in [(PresenceIcon.protecting, 0x2E9E4F), (.paused, 0xE0A000), (.recording, 0xD42A2A), (.off, 0x7A7A7A)] {
            for size in [16, 22, 48] {
                let image = TrayArt.render(icon, width: size, height: size)
                XCTAssertEqual(image[0, 0], 0, "\(icon) \(size): the corner is transparent")
                let filled = image.pixels.filter { $0 == 0xFF00_0000 | UInt32(colour) }.count
                XCTAssertGreaterThan(filled, size * size / 5, "\(icon) \(size): the shield is mostly its colour")
                XCTAssertGreaterThan(image.pixels.filter { $0 == 0xFFFF_FFFF }.count, 0, "\(icon) \(size): its sign is drawn")
            }
        }
        let pixmap = TrayArt.pixmaps(.protecting, sizes: [22])[0]
        XCTAssertEqual(pixmap.argb.count, 22 * 22 * 4)
        let middle = (18 * 22 + 11) * 4
        XCTAssertEqual(Array(pixmap.argb[middle..<middle + 4]), [0xFF, 0x2E, 0x9E, 0x4F], "ARGB in network byte order")
    }
}
