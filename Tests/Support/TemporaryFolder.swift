// A fresh private folder for a test or one run, with helpers to make files and folders in it.
import Foundation
import XCTest

/// A new folder (mode 0700) under the system's temporary folder, named `shotguard-LABEL-UUID`.
/// Made with a test case, it is removed when the test ends; otherwise the caller calls `remove`.
public struct TemporaryFolder: Sendable {
    public let path: String

    public init(label: String = "test") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    /// A folder removed when `test` ends.
    public init(_ test: XCTestCase, label: String = "test") throws {
        try self.init(label: label)
        let folder = self
        test.addTeardownBlock { folder.remove() }
    }

    public var url: URL { URL(fileURLWithPath: path) }

    /// The path of `name` inside the folder.
    public func at(_ name: String) -> String { path + "/" + name }

    /// Makes the folder `name` (and its parents) with `mode` exactly, whatever the umask.
    @discardableResult
    public func folder(_ name: String, mode: Int = 0o700) throws -> String {
        try FileManager.default.createDirectory(atPath: at(name), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: mode])
        chmod(at(name), mode_t(mode))  // the umask narrowed it
        return at(name)
    }

    /// Writes `bytes` to `name`, making its folders, and returns its path.
    @discardableResult
    public func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = URL(fileURLWithPath: at(name))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The bytes of the file `name`.
    public func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: at(name)))) }

    /// Removes the folder and everything in it. Tests may leave folders another user owns or
    /// that are not writable: those are given back to this user and opened first.
    public func remove() {
        // SHOTGUARD_KEEP_TEST_FOLDERS=1 keeps them, to look at what a failing test left.
        if getenv("SHOTGUARD_KEEP_TEST_FOLDERS") != nil { return }
        for entry in (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? [] {
            chown(at(entry), getuid(), getgid())
        }
        chmod(path, 0o700)
        try? FileManager.default.removeItem(atPath: path)
    }
}
