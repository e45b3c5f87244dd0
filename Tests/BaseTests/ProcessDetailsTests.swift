// /proc as ProcessDetails reads it: real child processes, real open files, and hostile stat and cmdline text.
import Foundation
import Glibc
import ShotguardBase
import XCTest

final class ProcessDetailsTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sg-proc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// A child started here: its program, executable, folder, arguments, parent and group.
    /// posix_spawn returns once the child has begun to exec, before the kernel has set its new
    /// name and command line; the child prints its own command line (tail follows it and stays),
    /// so that once it is read the exec has finished.
    func testDetailsOfAChild() throws {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        defer { close(ends[0]) }
        let child: ChildProcess
        do {
            defer { close(ends[1]) }
            child = try ChildProcess("/bin/sh", ["-c", "exec tail -n +1 -f /proc/self/cmdline >/dev/fd/\(ends[1])"],
                                     keepDescriptors: [ends[1]])
        }
        defer { child.stop() }
        let expected = Array("tail\0-n\0+1\0-f\0/proc/self/cmdline\0".utf8)
        var printed: [UInt8] = []
        var waiting = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        // Bounded for a broken system only: tail prints at once.
        while printed.count < expected.count, poll(&waiting, 1, 10_000) == 1 {
            var chunk = [UInt8](repeating: 0, count: 256)
            let count = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            printed += chunk[0..<count]
        }
        XCTAssertEqual(Array(printed.prefix(expected.count)), expected, "tail printed its command line")

        let details = try XCTUnwrap(ProcessDetails.of(pid: child.pid))
        XCTAssertEqual(details.pid, child.pid)
        XCTAssertEqual(details.program, "tail")
        let executable = try XCTUnwrap(details.executable.map { String(decoding: $0, as: UTF8.self) })
        XCTAssertEqual(executable, URL(fileURLWithPath: "/usr/bin/tail").resolvingSymlinksInPath().path)
        XCTAssertEqual(details.workingFolder.map { String(decoding: $0, as: UTF8.self) },
                       URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path)
        XCTAssertEqual(details.arguments, ["tail", "-n", "+1", "-f", "/proc/self/cmdline"])
        XCTAssertEqual(details.parentPID, getpid())
        XCTAssertEqual(details.processGroup, getpgrp())

        // setsid runs in the child before its exec, so the group is its own from the start.
        let leader = try ChildProcess("sleep", ["60"], newSession: true)
        defer { leader.stop() }
        XCTAssertEqual(ProcessDetails.of(pid: leader.pid)?.processGroup, leader.pid)
    }

    func testNoDetailsForAProcessThatIsNotThere() {
        XCTAssertNil(ProcessDetails.of(pid: 0))
        XCTAssertNil(ProcessDetails.of(pid: -1))
        XCTAssertNil(ProcessDetails.of(pid: Int32.max))
    }

    /// The name in parentheses is the process's own: spaces and ')' in it do not move the fields.
    func testStatFieldsAfterTheLastParenthesis() {
        XCTAssertEqual(ProcessDetails.parseStat(Array("1234 (a) b) c (d) S 77 88 88 0 -1".utf8)).map { [$0.parent, $0.group] }, [77, 88])
        XCTAssertEqual(ProcessDetails.parseStat(Array("9 (x) R 0 0 0".utf8)).map { [$0.parent, $0.group] }, [0, 0])
        for broken in ["", "1234 (name", "1234 (n) S", "1234 (n) S 77", "1234 (n) S x 88", "1234 (n) S 77 -5",
                       "1234 (n) S 99999999999 1"] {
            XCTAssertNil(ProcessDetails.parseStat(Array(broken.utf8)), broken)
        }
    }

    func testCommandLineSplitsOnNulAndIsBounded() {
        func split(_ text: String) -> [String] { ProcessDetails.splitArguments(Array(text.utf8)) }
        XCTAssertEqual(split("scrot\0/tmp/x.png\0"), ["scrot", "/tmp/x.png"])
        XCTAssertEqual(split("rewritten by itself"), ["rewritten by itself"])
        XCTAssertEqual(split("a\0\0b\0"), ["a", "", "b"])
        XCTAssertEqual(split(""), [])
        XCTAssertEqual(ProcessDetails.splitArguments([0x61, 0xFF, 0x00]), ["a\u{FFFD}"])
        let many = (0..<200).map { "a\($0)" }
        let bounded = split(many.joined(separator: "\0") + "\0")
        XCTAssertEqual(bounded, Array(many.prefix(ProcessDetails.maximumArguments)))
    }

    /// Files this process holds open, in each access mode; the pipe beside them is left out.
    func testOpenFilesWithTheirAccess() throws {
        let paths = ["written", "read", "both"].map { folder.appendingPathComponent($0).path }
        XCTAssertTrue(FileManager.default.createFile(atPath: paths[1], contents: Data([1])))
        XCTAssertTrue(FileManager.default.createFile(atPath: paths[2], contents: Data([2])))
        let written = open(paths[0], O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        let read = open(paths[1], O_RDONLY | O_CLOEXEC)
        let both = open(paths[2], O_RDWR | O_CLOEXEC)
        var pipeEnds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeEnds), 0)
        defer { ([written, read, both] + pipeEnds).forEach { close($0) } }
        XCTAssertTrue([written, read, both].allSatisfy { $0 >= 0 })

        let files = ProcessDetails.openFiles(of: getpid(), limit: 10_000)
        let resolved = paths.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        let ours = files.filter { resolved.contains(String(decoding: $0.path, as: UTF8.self)) }
        XCTAssertEqual(ours, [OpenFile(descriptor: written, path: Array(resolved[0].utf8), access: .write),
                              OpenFile(descriptor: read, path: Array(resolved[1].utf8), access: .read),
                              OpenFile(descriptor: both, path: Array(resolved[2].utf8), access: .readWrite)])
        XCTAssertFalse(files.contains { $0.descriptor == pipeEnds[0] || $0.descriptor == pipeEnds[1] })
        XCTAssertEqual(ProcessDetails.openFiles(of: getpid(), limit: 1).count, 1)
        XCTAssertEqual(ProcessDetails.openFiles(of: Int32.max), [])
    }

    func testAccessModeFromFdinfo() {
        func access(_ text: String) -> OpenFile.Access? { ProcessDetails.access(fromInfo: Array(text.utf8)) }
        XCTAssertEqual(access("pos:\t0\nflags:\t0100001\nmnt_id:\t25\n"), .write)
        XCTAssertEqual(access("pos:\t0\nflags:\t02100002\n"), .readWrite)
        XCTAssertEqual(access("flags:\t0100000\n"), .read)
        XCTAssertNil(access("pos:\t0\n"))
        XCTAssertNil(access("flags:\tnot octal\n"))
        XCTAssertNil(access("flags:\t03\n"), "O_ACCMODE 3 is no access mode")
    }

    /// A pidfd is quiet while the process runs and readable once it has exited.
    func testPidfdBecomesReadableWhenTheProcessExits() throws {
        let child = try ChildProcess("sleep", ["60"])
        let descriptor = try XCTUnwrap(pidfdOpen(child.pid), "pidfd_open needs Linux 5.3")
        defer { close(descriptor) }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&waiting, 1, 0), 0)
        kill(child.pid, SIGTERM)
        // Bounded for a broken kernel only: the exit makes the descriptor readable.
        XCTAssertEqual(poll(&waiting, 1, 10_000), 1)
        XCTAssertEqual(child.waitForExit(), 128 + SIGTERM)
        XCTAssertNil(pidfdOpen(0))
        XCTAssertNil(pidfdOpen(Int32.max))
    }
}
