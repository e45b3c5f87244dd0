// A fresh folder per test, removed when the test ends, with helpers to make files and folders.
import Foundation
import XCTest

/// A temporary folder (mode 0700) for one test.
struct TemporaryFolder {
    let path: String

    init(_ test: XCTestCase) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-agent-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let path = path
        test.addTeardownBlock {
            // Make everything removable first: tests may leave folders another user owns.
            _ = try? FileManager.default.subpathsOfDirectory(atPath: path).map { chown(path + "/" + $0, getuid(), getgid()) }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    func at(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func folder(_ name: String, mode: Int = 0o700) throws -> String {
        try FileManager.default.createDirectory(atPath: at(name), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: mode])
        chmod(at(name), mode_t(mode))  // the umask narrowed it
        return at(name)
    }

    @discardableResult
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: at(name)))
        return at(name)
    }
}
