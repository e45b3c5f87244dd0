// Reading regions files from disk: missing files, directories, size cap, UTF-8 and syntax errors.

import Foundation
import XCTest
import ShotguardRegions
import ShotguardImaging

final class LoadTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("regions-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private func write(_ bytes: [UInt8], named name: String = "regions") throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func loadError(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> RegionsError? {
        do {
            _ = try RegionsFile.load(path: path)
            XCTFail("expected \(path) to fail to load", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testLoadsAFile() throws {
        let path = try write(Array("# mine\nwindow class=KeePassXC\nscreen 300x28-0+0 fill=#1e1e1e\n".utf8))
        let file = try RegionsFile.load(path: path)
        XCTAssertEqual(file.path, path)
        XCTAssertEqual(file.rules.map(\.line), [2, 3])
        XCTAssertEqual(file.rules[1].fill, .solid(0x1E1E1E))
    }

    func testMissingFileNamesThePathAndTheReason() {
        let path = directory.appendingPathComponent("absent").path
        let error = loadError(path)
        XCTAssertEqual(error?.description, "\(path): cannot read regions file: No such file or directory")
        XCTAssertNil(error?.line)
    }

    func testDirectory() {
        XCTAssertEqual(loadError(directory.path)?.description,
                       "\(directory.path): cannot read regions file: Is a directory")
    }

    func testNotARegularFile() {
        XCTAssertEqual(loadError("/dev/null")?.description, "/dev/null: cannot read regions file: not a regular file")
    }

    func testSizeCap() throws {
        let line = Array("# padding to reach the size limit\n".utf8)
        var bytes: [UInt8] = []
        while bytes.count + line.count <= RegionsFile.maximumFileSize { bytes += line }
        bytes += [UInt8](repeating: UInt8(ascii: "#"), count: RegionsFile.maximumFileSize - bytes.count)
        XCTAssertEqual(bytes.count, 1 << 20)
        XCTAssertEqual(try RegionsFile.load(path: try write(bytes, named: "exact")).rules.count, 0)

        let path = try write(bytes + [UInt8(ascii: "\n")], named: "big")
        XCTAssertEqual(loadError(path)?.description,
                       "\(path): the regions file is too large (1048577 bytes or more; the limit is 1 MiB)")
    }

    func testInvalidUTF8NamesTheLineAndColumn() throws {
        let path = try write(Array("screen\n# caf".utf8) + [0xE9] + Array("\nscreen\n".utf8))
        XCTAssertEqual(loadError(path)?.description, "\(path):2:6: the regions file is not valid UTF-8 text (save it as UTF-8)")
        // Columns count characters, as parse errors do: "é" before the bad byte is one.
        let second = try write(Array("window title=é ".utf8) + [0xFF], named: "second")
        XCTAssertEqual(loadError(second)?.description,
                       "\(second):1:16: the regions file is not valid UTF-8 text (save it as UTF-8)")
    }

    func testSyntaxErrorNamesTheFile() throws {
        let path = try write(Array("screen\nscreen fill=blurr\n".utf8))
        XCTAssertEqual(loadError(path)?.description,
                       "\(path):2:13: unknown fill 'blurr' (expected black, #rrggbb or pixelate[:N])")
    }
}
