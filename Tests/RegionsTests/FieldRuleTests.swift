// `field` rules: parsing role=, name~ and window matches, and resolving them against listed fields.

import XCTest
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

final class FieldRuleParseTests: XCTestCase {
    func testRolesNamesAndWindowMatches() throws {
        let password = try rule("field role=password")
        XCTAssertEqual(password.target, .field)
        XCTAssertEqual(password.field?.roles, [.password])
        XCTAssertNil(password.field?.name)
        XCTAssertTrue(password.matches.isEmpty)

        let card = try rule(#"field role=entry,text name~"(?i)card number" class=firefox 50%x100%+0+0 fill=pixelate:8"#)
        XCTAssertEqual(card.field?.roles, [.entry, .text])
        XCTAssertEqual(card.field?.name?.source, "(?i)card number")
        XCTAssertEqual(card.matches.map(\.description), ["class=firefox"])
        XCTAssertNotNil(card.geometry)
        XCTAssertEqual(card.fill, .pixelate(blockSize: 8))

        // name~ alone considers every role.
        XCTAssertEqual(try rule("field name~PIN").field?.roles, Set(FieldRole.allCases))
        XCTAssertEqual(try parse("field role=password\nwindow class=a\n").fieldRoles, [.password])
        XCTAssertEqual(try parse("window class=a\n").fieldRoles, [])
    }

    func testErrors() {
        XCTAssertEqual(parseError("field"),
                       "regions:1:1: a field rule needs role= (password, text, entry) or name~, as in 'field role=password'")
        XCTAssertEqual(parseError("field class=a"),
                       "regions:1:1: a field rule needs role= (password, text, entry) or name~, as in 'field role=password'")
        XCTAssertEqual(parseError("field role=secret"),
                       "regions:1:12: unknown role 'secret' (expected one of password, text, entry, or several joined by commas)")
        XCTAssertEqual(parseError("field role="), "regions:1:12: empty value after 'role=' (expected role=password, text, entry)")
        XCTAssertEqual(parseError("field name~(a"), "regions:1:13: bad regular expression '(a': missing closing parenthesis")
        XCTAssertEqual(parseError("field name~a name~b"), "regions:1:14: duplicate 'name~' (a field rule takes at most one)")
        XCTAssertEqual(parseError("window class=a role=password"),
                       "regions:1:16: unknown word 'role=password' (expected class=, instance=, title=, title~, type=, a geometry WxH+X+Y or fill=)")
        XCTAssertEqual(parseError("screen role=password"),
                       "regions:1:8: unknown word 'role=password' (expected class=, instance=, title=, title~, type=, a geometry WxH+X+Y or fill=)")
    }
}

final class FieldResolveTests: XCTestCase {
    private let login = WindowInfo(id: 7, className: "Login", instance: "login", title: "Sign in",
                                   frame: Rect(x: 100, y: 100, width: 400, height: 300), isViewable: true)
    private let cover = WindowInfo(id: 9, className: "Notes", instance: "notes", title: "Notes",
                                   frame: Rect(x: 300, y: 250, width: 400, height: 300), isViewable: true)
    private let secret = AccessibleField(role: .password, name: "Password", rect: Rect(x: 120, y: 200, width: 200, height: 30),
                                         application: "login")
    private let user = AccessibleField(role: .text, name: "User name", rect: Rect(x: 120, y: 150, width: 200, height: 30),
                                       application: "login")
    private let lower = AccessibleField(role: .password, name: "PIN", rect: Rect(x: 320, y: 300, width: 100, height: 30),
                                        application: "notes")

    private func context(_ fields: AccessibleFields) -> ScreenContext {
        ScreenContext(width: 640, height: 480, windows: [login, cover], fields: fields)
    }

    private func hits(_ rules: String, _ fields: AccessibleFields) throws -> [RegionHit] {
        try parse(rules).hits(against: context(fields))
    }

    func testPasswordFieldsAtTheirExtentsWithTheirWindow() throws {
        let found = try hits("field role=password fill=#ff00ff", .available([user, secret, lower]))
        XCTAssertEqual(found, [
            RegionHit(line: 1, fill: .solid(0xFF00FF), rect: secret.rect, windowID: 7, field: secret),
            // The topmost window at the field's centre shows it.
            RegionHit(line: 1, fill: .solid(0xFF00FF), rect: lower.rect, windowID: 9, field: lower),
        ])
    }

    func testNamesWindowMatchesAndGeometry() throws {
        let fields = AccessibleFields.available([user, secret, lower])
        XCTAssertEqual(try hits("field name~(?i)^user", fields).map(\.rect), [user.rect])
        XCTAssertEqual(try hits("field role=password class=notes", fields).map(\.rect), [lower.rect])
        XCTAssertEqual(try hits("field role=password title=Nothing", fields).map(\.rect), [])
        XCTAssertEqual(try hits("field role=password class=login 50x10-0+0", fields).map(\.rect),
                       [Rect(x: 270, y: 200, width: 50, height: 10)])
        // Clipped to the screen.
        let edge = AccessibleField(role: .password, name: "", rect: Rect(x: 600, y: 470, width: 100, height: 30), application: "x")
        XCTAssertEqual(try hits("field role=password", .available([edge])).map(\.rect), [Rect(x: 600, y: 470, width: 40, height: 10)])
    }

    func testWithoutAccessibilityAFieldRuleHitsNothing() throws {
        XCTAssertEqual(try hits("field role=password", .unavailable(reason: "no bus")), [])
        XCTAssertEqual(try hits("field role=password", .notQueried), [])
        XCTAssertEqual(try hits("field role=password\nscreen 10x10+0+0", .unavailable(reason: "no bus")).map(\.line), [2])
    }

    func testAFieldInNoWindowMeetsNoWindowMatchButStillAPlainRule() throws {
        let loose = AccessibleField(role: .password, name: "", rect: Rect(x: 10, y: 10, width: 50, height: 20), application: "x")
        XCTAssertEqual(try hits("field role=password", .available([loose])).map(\.windowID), [nil])
        XCTAssertEqual(try hits("field role=password class=login", .available([loose])), [])
    }
}
