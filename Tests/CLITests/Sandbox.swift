// A fresh folder per test: the child's home, its config folder, and the files a run reads and writes.
import Foundation
import ShotguardImaging
import XCTest

/// A temporary folder that is the child's `HOME` (with `XDG_CONFIG_HOME` at `home/.config`)
/// and its working folder. Removed when the test ends.
struct Sandbox {
    let home: URL

    init(_ test: XCTestCase) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let home = home
        test.addTeardownBlock { try? FileManager.default.removeItem(at: home) }
    }

    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    /// Writes `bytes` to `name` (creating folders) and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = home.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url.path
    }

    @discardableResult
    func write(_ name: String, text: String) throws -> String { try write(name, Array(text.utf8)) }

    /// Writes `image` as a PNG to `name` and returns its path.
    @discardableResult
    func write(_ name: String, png image: PixelBuffer) throws -> String {
        try write(name, try PNGEncoder.encode(image, destination: name))
    }

    func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: home.appendingPathComponent(name))) }

    /// Decodes the PNG at `name`.
    func image(_ name: String) throws -> PixelBuffer { try PNGDecoder.decode(try bytes(name), source: name) }

    /// Every file and folder under the sandbox, hidden ones included, as relative paths.
    func contents() -> Set<String> {
        Set(FileManager.default.enumerator(atPath: home.path)?.allObjects as? [String] ?? [])
    }

    /// Runs `shotguard` with this sandbox as home and working folder.
    func run(_ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String?] = [:],
             file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        try runShotguard(arguments, home: home, stdin: stdin, environment: environment, file: file, line: line)
    }
}
