// System policy files in $XDG_CONFIG_DIRS: where they are, how they join the user's file, and errors.

import Foundation
import XCTest
import ShotguardRegions

final class PolicyTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("policy-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    /// Writes `text` to `name` under the test's folder (creating folders) and returns its path.
    private func write(_ text: String, _ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func testSystemPathsFollowXDGConfigDirs() {
        XCTAssertEqual(RegionsPolicy.systemPaths(xdgConfigDirs: nil), ["/etc/xdg/shotguard/regions"])
        XCTAssertEqual(RegionsPolicy.systemPaths(xdgConfigDirs: ""), ["/etc/xdg/shotguard/regions"])
        XCTAssertEqual(RegionsPolicy.systemPaths(xdgConfigDirs: "/etc/xdg/site:/etc/xdg/:relative/dir::/etc/xdg"),
                       ["/etc/xdg/site/shotguard/regions", "/etc/xdg/shotguard/regions"], "relative ones ignored, repeats once")
        XCTAssertEqual(RegionsPolicy.systemPaths(xdgConfigDirs: "relative"), ["/etc/xdg/shotguard/regions"])
        XCTAssertEqual(RegionsPolicy.systemPaths(xdgConfigDirs: "/"), ["/shotguard/regions"])
    }

    func testSystemRulesComeFirstAndEveryFileApplies() throws {
        let site = try write("screen 10x10+0+0\nlock\n", "site/shotguard/regions")
        let vendor = try write("window class=Vault\n", "vendor/shotguard/regions")
        let user = try write("allow screen 5x5+0+0\nscreen 1x1+9+9\n", "user/regions")
        let file = try XCTUnwrap(try RegionsPolicy.load(userPath: user, systemPaths: [site, path("none/shotguard/regions"), vendor]))
        XCTAssertEqual(file.rules.map(\.source), ["screen 10x10+0+0", "window class=Vault", "allow screen 5x5+0+0", "screen 1x1+9+9"])
        XCTAssertEqual(file.rules.map(\.origin), [.system(path: site, locked: true), .system(path: vendor, locked: false),
                                                  .user, .user])
        XCTAssertEqual(file.systemPaths, [site, vendor])
        XCTAssertEqual(file.lock, PolicyLock(path: site, line: 2))
        XCTAssertEqual(file.path, user)
        XCTAssertTrue(file.hasUserFile)
        XCTAssertEqual(try RegionsPolicy.lock(systemPaths: [vendor, site]), PolicyLock(path: site, line: 2))
        XCTAssertNil(try RegionsPolicy.lock(systemPaths: [vendor]))
    }

    func testAMissingUserFileLeavesTheSystemRules() throws {
        let site = try write("screen\n", "site/shotguard/regions")
        let missing = path("home/.config/shotguard/regions")
        let file = try XCTUnwrap(try RegionsPolicy.load(userPath: nil, defaultUserPath: missing, systemPaths: [site]))
        XCTAssertFalse(file.hasUserFile)
        XCTAssertEqual(file.path, missing)
        XCTAssertEqual(file.rules.count, 1)
        XCTAssertNil(try RegionsPolicy.load(userPath: nil, defaultUserPath: missing, systemPaths: [path("x/shotguard/regions")]),
                     "no file at all")
        let plain = try XCTUnwrap(try RegionsPolicy.load(userPath: nil, defaultUserPath: try write("screen\n", "u"), systemPaths: []))
        XCTAssertEqual(plain.systemPaths, [])
        XCTAssertEqual(plain.rules.map(\.origin), [.user])
    }

    func testErrorsNameTheFileTheyAreIn() throws {
        let broken = try write("screen\nwindow klass=x\n", "site/shotguard/regions")
        XCTAssertThrowsError(try RegionsPolicy.load(userPath: nil, defaultUserPath: path("none"), systemPaths: [broken])) { error in
            XCTAssertEqual((error as? RegionsError)?.description,
                           "\(broken):2:8: unknown word 'klass=x' (expected class=, instance=, title=, title~, type=, "
                               + "a geometry WxH+X+Y or fill=)")
        }
        XCTAssertThrowsError(try RegionsPolicy.lock(systemPaths: [broken]))
        let folder = path("folder/shotguard/regions")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertThrowsError(try RegionsPolicy.load(userPath: nil, defaultUserPath: path("none"), systemPaths: [folder])) { error in
            XCTAssertEqual((error as? RegionsError)?.description, "\(folder): cannot read regions file: Is a directory")
        }
        let site = try write("screen\n", "ok/shotguard/regions")
        let locking = try write("lock\n", "user-lock")
        XCTAssertThrowsError(try RegionsPolicy.load(userPath: locking, systemPaths: [site])) { error in
            XCTAssertEqual((error as? RegionsError)?.path, locking)
            XCTAssertEqual((error as? RegionsError)?.line, 1)
        }
        XCTAssertThrowsError(try RegionsPolicy.load(userPath: path("named-but-missing"), systemPaths: [site]), "--regions must exist")
    }
}
