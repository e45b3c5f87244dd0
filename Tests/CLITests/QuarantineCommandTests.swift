// `shotguard quarantine list|restore`: JSON as one array, unreadable entries shown, restores exact.
import Foundation
import Glibc
import ShotguardBase
import ShotguardTestSupport
import XCTest

final class QuarantineCommandTests: XCTestCase {
    private var sandbox: Sandbox!

    override func setUpWithError() throws { sandbox = try Sandbox(self) }

    /// An entry as the agent writes one, under the sandbox's state folder.
    @discardableResult
    private func entry(_ id: String, pathBytes: [UInt8], original: [UInt8], time: String = "2026-12-01T10:10:10.000Z",
                       json: String? = nil) throws -> String {
        let folder = ".local/state/shotguard/quarantine/\(id)"
        try sandbox.write("\(folder)/original.png", original)
        let hex = pathBytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let text = json ?? #"{"id":"\#(id)","time":"\#(time)","path":"shot","pathHex":"\#(hex)","reason":"was not found on the screen","size":\#(original.count),"file":"original.png"}"#
        try sandbox.write("\(folder)/entry.json", text: text + "\n")
        return sandbox.path(folder)
    }

    /// The names in the sandbox's folder `name`, as bytes.
    private func names(in name: String) throws -> Set<[UInt8]> {
        guard let directory = opendir(sandbox.path(name)) else { throw FixtureError("opendir \(name)") }
        defer { closedir(directory) }
        var names: Set<[UInt8]> = []
        while let item = readdir(directory) {
            let bytes = withUnsafeBytes(of: item.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes != [0x2E], bytes != [0x2E, 0x2E] { names.insert(bytes) }
        }
        return names
    }

    /// One convention for --json: a listing is one JSON array, `[]` when empty (it printed
    /// nothing when empty and one object per line otherwise).
    func testListJSONIsOneArray() throws {
        XCTAssertEqual(try sandbox.run(["quarantine", "list", "--json"]).stdoutText, "[]\n")
        try entry("20261201-101010-001-1", pathBytes: Array(sandbox.path("a.png").utf8), original: [1, 2])
        try entry("20261201-101011-001-1", pathBytes: Array(sandbox.path("b.png").utf8), original: [3])
        let result = try sandbox.run(["quarantine", "list", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [[String: Any]])
        XCTAssertEqual(items.map { $0["id"] as? String }, ["20261201-101010-001-1", "20261201-101011-001-1"])
        XCTAssertEqual(items.first?["time"] as? String, "2026-12-01T10:10:10.000Z", "ISO 8601, as in reports")
        XCTAssertEqual(result.lines.count, 2, "one line and its end")
    }

    /// Regression: an entry whose entry.json could not be read was left out of the list, so its
    /// original (what the rules were meant to hide) stayed on disk unseen.
    func testAnUnreadableEntryIsListedWithWhy() throws {
        try entry("20261201-101010-001-1", pathBytes: Array(sandbox.path("a.png").utf8), original: [1])
        let folder = try entry("20261201-101012-001-1", pathBytes: [], original: [2], json: "{\"id\":")
        let text = try sandbox.run(["quarantine", "list"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdoutText.contains("20261201-101012-001-1  unreadable: its entry.json is not a JSON object; look in \(folder)"),
                      text.stdoutText)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try sandbox.run(["quarantine", "list", "--json"]).stdout))
                                 as? [[String: Any]])
        XCTAssertEqual(json.last?["error"] as? String, "its entry.json is not a JSON object")
        XCTAssertEqual(json.last?["folder"] as? String, folder)
        XCTAssertEqual(try sandbox.run(["quarantine", "purge"]).status, 0)
        XCTAssertEqual(try names(in: ".local/state/shotguard/quarantine"), [], "purge removes the unreadable entry too")
    }

    /// Regression: a name that is not UTF-8 was restored as another file, with U+FFFD in its name.
    func testRestoreWritesTheExactPathBytes() throws {
        let name: [UInt8] = Array("Screenshot ".utf8) + [0xFF, 0xFE] + Array(".png".utf8)
        try FileManager.default.createDirectory(atPath: sandbox.path("shots"), withIntermediateDirectories: true)
        try entry("20261201-101010-001-1", pathBytes: Array(sandbox.path("shots/").utf8) + name, original: [4, 5, 6])
        let result = try sandbox.run(["quarantine", "restore", "20261201-101010-001-1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("Screenshot \\xff\\xfe.png"), "the name is shown escaped: \(result.stderr)")
        XCTAssertEqual(try names(in: "shots"), [name])
        let fd = (Array(sandbox.path("shots/").utf8) + name + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) }
        }
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertEqual(try FileDescriptor(fd, name: "restored").readAll(limit: 100), [4, 5, 6])
    }

    /// A file at the path written after the entry is kept (exit 1, naming --force); --force
    /// replaces it; -o onto a FIFO is refused (exit 2).
    func testRestoreKeepsANewerFileUnlessForcedAndRefusesAFIFO() throws {
        let path = sandbox.path("shot.png")
        try entry("20261201-101010-001-1", pathBytes: Array(path.utf8), original: [7, 7])
        try sandbox.write("shot.png", text: "newer")
        let refused = try sandbox.run(["quarantine", "restore", "20261201-101010-001-1"])
        assertFailure(refused, status: 1, prefix: "shotguard: \(path) was modified at", mentions: ["--force", "nothing was restored"])
        XCTAssertEqual(try sandbox.bytes("shot.png"), Array("newer".utf8))
        XCTAssertEqual(try sandbox.run(["quarantine", "restore", "--force", "20261201-101010-001-1"]).status, 0)
        XCTAssertEqual(try sandbox.bytes("shot.png"), [7, 7])

        let fifo = sandbox.path("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let onFIFO = try sandbox.run(["quarantine", "restore", "20261201-101010-001-1", "-o", fifo])
        assertFailure(onFIFO, status: 2, prefix: "shotguard: quarantine restore -o '\(fifo)' is a FIFO")
    }
}
