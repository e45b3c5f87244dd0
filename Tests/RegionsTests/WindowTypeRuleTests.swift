// `type=`: EWMH window types as a window match, alone or with the other matches.

import XCTest
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

final class WindowTypeRuleTests: XCTestCase {
    private func window(_ id: UInt, _ className: String, types: [WindowType], x: Int) -> WindowInfo {
        WindowInfo(id: id, className: className, instance: className, title: "", frame: Rect(x: x, y: 0, width: 50, height: 50),
                   isViewable: true, types: types, isOverrideRedirect: types.contains(.notification))
    }

    private var context: ScreenContext {
        ScreenContext(width: 640, height: 480, windows: [
            window(1, "Slack", types: [.normal], x: 0), window(2, "Dunst", types: [.notification], x: 100),
            window(3, "Slack", types: [.notification], x: 200), window(4, "Gimp", types: [.utility, .dialog], x: 300),
            window(5, "Firefox", types: [.popup], x: 400), window(6, "Firefox", types: [], x: 500),
        ])
    }

    private func ids(_ rules: String) throws -> [UInt?] { try parse(rules).hits(against: context).map(\.windowID) }

    func testTypesMatchAloneAndCombined() throws {
        XCTAssertEqual(try ids("window type=notification"), [2, 3])
        XCTAssertEqual(try ids("window type=notification class=slack"), [3])
        XCTAssertEqual(try ids("window type=dialog"), [4], "any of the window's types")
        XCTAssertEqual(try ids("window type=menu,dropdown,popup"), [5])
        XCTAssertEqual(try ids("window type=normal"), [1], "a window with no type is no type's")
    }

    func testParsedForms() throws {
        let rule = try rule("window type=popup,dropdown class=x")
        XCTAssertEqual(rule.matches.map(\.description), ["type=dropdown,popup", "class=x"])
        XCTAssertEqual(WindowType.popup.atomName, "_NET_WM_WINDOW_TYPE_POPUP_MENU")
        XCTAssertEqual(WindowType.dropdown.atomName, "_NET_WM_WINDOW_TYPE_DROPDOWN_MENU")
        XCTAssertEqual(WindowType.notification.atomName, "_NET_WM_WINDOW_TYPE_NOTIFICATION")
        XCTAssertEqual(WindowType.dnd.atomName, "_NET_WM_WINDOW_TYPE_DND")
    }

    /// EWMH: a managed window without the property is normal (a transient one a dialog); an
    /// override-redirect one without it has no type.
    func testEffectiveTypesOfAWindowWithoutTheProperty() {
        XCTAssertEqual(WindowType.effective(listed: [], isTransient: false, isOverrideRedirect: false), [.normal])
        XCTAssertEqual(WindowType.effective(listed: [], isTransient: true, isOverrideRedirect: false), [.dialog])
        XCTAssertEqual(WindowType.effective(listed: [], isTransient: false, isOverrideRedirect: true), [])
        XCTAssertEqual(WindowType.effective(listed: [.tooltip], isTransient: true, isOverrideRedirect: false), [.tooltip])
    }

    func testErrorsNameTheColumnAndTheTypes() {
        let types = "normal, dialog, utility, toolbar, splash, menu, dropdown, popup, tooltip, notification, combo, dnd, dock, desktop"
        XCTAssertEqual(parseError("window type=notifcation"),
                       "regions:1:13: unknown window type 'notifcation' (expected one of \(types), or several joined by commas)")
        XCTAssertEqual(parseError("window type=menu,,popup"),
                       "regions:1:18: unknown window type '' (expected one of \(types), or several joined by commas)")
        XCTAssertEqual(parseError("window type="),
                       #"regions:1:13: empty value after 'type=' (expected type=TYPE, or type="TYPE WITH SPACES")"#)
        XCTAssertEqual(parseError("screen type=menu"),
                       "regions:1:8: a screen rule takes no class=/instance=/title matches (found 'type=menu')")
    }
}
