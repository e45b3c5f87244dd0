// Where the tests find the checkout's files and the `shotguard` binary built alongside them.
import Foundation
import XCTest

/// The checkout that holds this file (Tests/Support/Repository.swift).
public let repository: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url
}()

/// A file of the checkout, e.g. `man/shotguard.1`.
public func repositoryFile(_ path: String) -> URL { repository.appendingPathComponent(path) }

/// The `shotguard` executable built alongside these tests.
///
/// SwiftPM puts the test bundle and the executables in one products folder. On macOS the
/// bundle is a `.xctest` folder inside it; on Linux `Bundle(for:)` answers the products folder
/// itself (the bundle is a plain executable there, and this module is linked into it).
/// `.build/debug` of the checkout is the fallback for a default build folder.
public func shotguardBinary(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
    let bundle = Bundle(for: BinaryLocator.self).bundleURL
    let products = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    let candidates = [products.appendingPathComponent("shotguard"), repositoryFile(".build/debug/shotguard")]
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        let message = "the shotguard binary was not built (looked in \(candidates.map(\.path).joined(separator: ", "))); "
            + "build with --build-tests"
        XCTFail(message, file: file, line: line)
        throw FixtureError(message)
    }
    return found
}

/// A class to ask `Bundle(for:)` where the test bundle is.
private final class BinaryLocator {}
