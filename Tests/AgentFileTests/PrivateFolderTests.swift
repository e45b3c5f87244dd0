// Private folders: created 0700, every component checked, links into shared places refused.
import Foundation
@testable import ShotguardAgent
import ShotguardTestSupport
import XCTest

final class PrivateFolderTests: XCTestCase {
    func testMissingFoldersAreCreatedPrivate() throws {
        let root = try TemporaryFolder(self)
        let made = try UserFolders.preparePrivateFolder(root.at("state/shotguard/quarantine"))
        XCTAssertEqual(made, root.at("state/shotguard/quarantine"))
        for name in ["state", "state/shotguard", "state/shotguard/quarantine"] {
            var status = stat()
            XCTAssertEqual(lstat(root.at(name), &status), 0)
            XCTAssertEqual(status.st_mode & 0o777, 0o700, name)
        }
    }

    func testARelativePathIsTakenFromTheCurrentFolder() throws {
        let root = try TemporaryFolder(self)
        let previous = FileManager.default.currentDirectoryPath
        defer { XCTAssertEqual(chdir(previous), 0) }
        XCTAssertEqual(chdir(root.path), 0)
        let real = try XCTUnwrap(realpath(root.path, nil).map { String(cString: $0) })
        XCTAssertEqual(try UserFolders.preparePrivateFolder("rel"), real + "/rel")
        XCTAssertEqual(try UserFolders.preparePrivateFolder("./a//b/"), real + "/a/b")
        var status = stat()
        XCTAssertEqual(lstat(root.at("rel"), &status), 0, "created in the current folder")
    }

    func testAParentLinkedIntoAWorldWritableFolderIsRefused() throws {
        let root = try TemporaryFolder(self)
        let shared = try root.folder("shared", mode: 0o777)
        symlink(shared, root.at("state"))
        XCTAssertThrowsError(try UserFolders.preparePrivateFolder(root.at("state/shotguard/reports"))) { error in
            XCTAssertEqual("\(error)", "cannot use \(root.at("state/shotguard/reports")) as a private folder: "
                + "\(shared): other users can write to it (mode 0777; expected 0755 or stricter)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: shared + "/shotguard"), "nothing made in the shared folder")
    }

    func testAParentOwnedByAnotherUserIsRefused() throws {
        let root = try TemporaryFolder(self)
        let theirs = try root.folder("theirs", mode: 0o755)
        XCTAssertEqual(chown(theirs, 65534, 65534), 0, "the tests run as root to hand a folder to another user")
        symlink(theirs, root.at("state"))
        XCTAssertThrowsError(try UserFolders.preparePrivateFolder(root.at("state/reports"))) { error in
            XCTAssertTrue("\(error)".hasSuffix("\(theirs): it is owned by uid 65534 (expected yours or root's)"), "\(error)")
        }
    }

    func testTheFolderItselfMustBePrivateAndNotALink() throws {
        let root = try TemporaryFolder(self)
        try root.folder("open", mode: 0o755)
        XCTAssertThrowsError(try UserFolders.preparePrivateFolder(root.at("open"))) { error in
            XCTAssertEqual("\(error)", "cannot use \(root.at("open")) as a private folder: its mode is 0755 "
                + "(expected 0700: no access for others)")
        }
        try root.folder("real")
        symlink(root.at("real"), root.at("link"))
        XCTAssertThrowsError(try UserFolders.preparePrivateFolder(root.at("link"))) { error in
            XCTAssertTrue("\(error)".hasSuffix("it is a symbolic link (expected a real folder)"), "\(error)")
        }
    }

    func testALinkToAPrivateFolderOfMineIsFollowed() throws {
        let root = try TemporaryFolder(self)
        try root.folder("elsewhere/state")
        symlink(root.at("elsewhere/state"), root.at("state"))
        XCTAssertNoThrow(try UserFolders.preparePrivateFolder(root.at("state/shotguard")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.at("elsewhere/state/shotguard")))
    }

    func testTheLockFolderWithoutARuntimeFolderIsTheStateFolderNotTmp() throws {
        let root = try TemporaryFolder(self)
        let saved = (getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }, getenv("XDG_STATE_HOME").map { String(cString: $0) })
        defer {
            if let runtime = saved.0 { setenv("XDG_RUNTIME_DIR", runtime, 1) }
            if let state = saved.1 { setenv("XDG_STATE_HOME", state, 1) } else { unsetenv("XDG_STATE_HOME") }
        }
        unsetenv("XDG_RUNTIME_DIR")
        setenv("XDG_STATE_HOME", root.at("state"), 1)
        XCTAssertEqual(InstanceLock.folder(), root.at("state/shotguard"))
        setenv("XDG_RUNTIME_DIR", root.at("run"), 1)
        XCTAssertEqual(InstanceLock.folder(), root.at("run/shotguard"))
    }
}

extension PrivateFolderTests {
    func testAGroupWritableParentIsRefusedUnlessTheGroupIsTheUsersOwn() throws {
        let root = try TemporaryFolder(self)
        let shared = try root.folder("shared", mode: 0o775)
        XCTAssertEqual(chown(shared, getuid(), 100), 0, "group 100 ('users') has other members, or may")
        XCTAssertThrowsError(try UserFolders.preparePrivateFolder(shared + "/reports")) { error in
            XCTAssertTrue("\(error)".hasSuffix("other users can write to it (mode 0775; expected 0755 or stricter)"), "\(error)")
        }
        let own = try root.folder("own", mode: 0o775)
        XCTAssertEqual(chown(own, getuid(), getgid()), 0)
        XCTAssertNoThrow(try UserFolders.preparePrivateFolder(own + "/reports"), "a user-private group, as with umask 002")
    }
}
