// The fake servers of Tests/Scripts (a notification server, a user manager) started on a private
// bus, and the calls they recorded, one JSON line each.
import Foundation
import Glibc
import ShotguardBase
import XCTest

/// The path of `name` in Tests/Scripts.
public func testScript(_ name: String) -> String { repositoryFile("Tests/Scripts/\(name)").path }

/// Starts the fake server `script` (python3-gi) on `bus` and returns it once it printed
/// `{"ready": true}`, that is once it owns its name: a call made after this reaches it. For a
/// test that serves a bus connection of its own meanwhile, see the bus tests' `startFake`.
public func startFakeServer(_ script: String, _ arguments: [String] = [], on bus: PrivateBus,
                            file: StaticString = #filePath, line: UInt = #line) throws -> PipedProcess {
    let fake = try PipedProcess("/usr/bin/python3", [testScript(script)] + arguments, environment: bus.environment())
    readOutput(of: [fake], file: file, line: line) { fake.stdoutText.contains("\"ready\": true") || fake.isFinished }
    guard !fake.isFinished else {
        let message = "\(script) stopped: \(fake.stderrText) (Debian packages python3-gi, gir1.2-glib-2.0)"
        XCTFail(message, file: file, line: line)
        throw FixtureError(message)
    }
    return fake
}

/// Reads `programs`' output as it comes until `done` holds. The limit only keeps a broken test
/// from hanging (a failure that shows the output so far): a test never waits on time.
@discardableResult
public func readOutput(of programs: [PipedProcess], limit: Double = 60, file: StaticString = #filePath, line: UInt = #line,
                       until done: () -> Bool) -> Bool {
    let end = monotonicNow() + limit
    while !done() {
        let left = end - monotonicNow()
        guard left > 0 else {
            XCTFail("still waiting after \(Int(limit)) s; output so far:\n"
                + programs.map { "\($0.label):\n\($0.stdoutText)\($0.stderrText)" }.joined(separator: "\n"), file: file, line: line)
            return false
        }
        var fds = programs.flatMap { $0.openDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } }
        _ = poll(&fds, nfds_t(fds.count), Int32((min(left, 1.0) * 1000).rounded(.up)))
        for program in programs { program.drain() }
    }
    return true
}

/// The JSON lines a fake server printed, one object each.
public func records(of fake: PipedProcess) -> [[String: Any]] {
    fake.drain()
    return fake.stdoutText.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
}
