// `-o` onto a FIFO, a device, a folder, a socket or a symbolic link is refused, and left as it was.
import Foundation
import Glibc
import ShotguardImaging
import ShotguardTestSupport
import XCTest

final class OutputPathTests: XCTestCase {
    /// Regression: the atomic write renamed a new file over whatever the path named, so as root
    /// `redact … -o /dev/null` replaced the system's /dev/null with a PNG, and a FIFO's reader
    /// never saw a byte. Each command refuses before it reads or captures anything (no display
    /// here), with exit 2 and one line naming the path and what it is.
    func testOutputsThatAreNotRegularFilesAreRefused() throws {
        let sandbox = try Sandbox(self)
        let input = try sandbox.write("in.png", png: Pixels.screenshot(width: 20, height: 10))
        let regions = try sandbox.write("regions", text: "screen 5x5+0+0\n")
        let fifo = sandbox.path("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let folder = sandbox.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let socketPath = sandbox.path("socket")
        let socketFD = try Self.listeningSocket(at: socketPath)
        defer { close(socketFD) }
        let target = try sandbox.write("target.png", text: "kept")
        let link = sandbox.path("link.png")
        XCTAssertEqual(symlink(target, link), 0)

        let outputs: [(path: String, kind: String)] = [
            (fifo, "a FIFO"), ("/dev/null", "a character device"), (folder, "a folder"), (socketPath, "a socket"),
            (link, "a symbolic link"),
        ]
        let commands: [(name: String, arguments: [String])] = [
            ("redact", ["redact", input, "--rect", "2x2+0+0"]), ("capture", ["capture", "--regions", regions]),
            ("regions show", ["regions", "show", "--regions", regions]),
        ]
        for command in commands {
            for output in outputs {
                let result = try sandbox.run(command.arguments + ["-o", output.path])
                assertFailure(result, status: 2, prefix: "shotguard: \(command.name) -o '\(output.path)' is \(output.kind)",
                              mentions: ["regular file or a new name"])
            }
        }
        var status = stat()
        XCTAssertEqual(stat("/dev/null", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFCHR, "/dev/null is still a device")
        for (path, type) in [(fifo, S_IFIFO), (folder, S_IFDIR), (socketPath, S_IFSOCK), (link, S_IFLNK)] {
            XCTAssertEqual(lstat(path, &status), 0)
            XCTAssertEqual(status.st_mode & S_IFMT, type, "\(path) is as it was")
        }
        XCTAssertEqual(try sandbox.bytes("target.png"), Array("kept".utf8))
    }

    /// A regular file is replaced and a new name created, as before; `-o -` is standard output.
    func testRegularFilesAndNewNamesAreWritten() throws {
        let sandbox = try Sandbox(self)
        let input = try sandbox.write("in.png", png: Pixels.screenshot(width: 20, height: 10))
        try sandbox.write("old.png", text: "old")
        for output in ["old.png", "new.png"] {
            let result = try sandbox.run(["redact", input, "--rect", "2x2+0+0", "-o", output])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try sandbox.image(output).width, 20)
        }
        let piped = try sandbox.run(["redact", input, "--rect", "2x2+0+0", "-o", "-"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(Array(piped.stdout.prefix(8)), PNGChunks.signature)
    }

    /// A Unix socket listening at `path`, as a program's control socket would be.
    private static func listeningSocket(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            throw FixtureError("bind \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }
}
