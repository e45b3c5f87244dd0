// A fresh folder per test: the child's home, its config folder, and the files a run reads and writes.
import Foundation
import ShotguardImaging
import XCTest

/// A temporary folder that is the child's `HOME` (with `XDG_CONFIG_HOME` at `home/.config`)
/// and its working folder. Removed when the test ends.
public struct Sandbox {
    public let folder: TemporaryFolder

    public init(_ test: XCTestCase) throws {
        folder = try TemporaryFolder(test, label: "cli")
    }

    public var home: URL { folder.url }

    public func path(_ name: String) -> String { folder.at(name) }

    /// Writes `bytes` to `name` (creating folders) and returns its path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String { try folder.file(name, bytes) }

    @discardableResult
    public func write(_ name: String, text: String) throws -> String { try write(name, Array(text.utf8)) }

    /// Writes `image` as a PNG to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, png image: PixelBuffer) throws -> String {
        try write(name, try PNGEncoder.encode(image, destination: name))
    }

    public func bytes(_ name: String) throws -> [UInt8] { try folder.bytes(name) }

    /// The bytes of the file at the absolute `path`.
    public func bytes(at path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Decodes the PNG at `name`.
    public func image(_ name: String) throws -> PixelBuffer { try PNGDecoder.decode(try bytes(name), source: name) }

    /// Every file and folder under the sandbox, hidden ones included, as relative paths.
    public func contents() -> Set<String> {
        Set(FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
    }

    /// Runs `shotguard` with this sandbox as home and working folder.
    public func run(_ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String?] = [:],
                    file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        try runShotguard(arguments, home: home, stdin: stdin, environment: environment, file: file, line: line)
    }
}
