// A program that read the screen and keeps the pixels, writing an image when the test says (Tests/Scripts/held-reader.py).
import Foundation
import ShotguardImaging
import ShotguardTestSupport
import XCTest

/// Runs held-reader.py: it reads `area` of the screen with one GetImage when started, then
/// carries out the test's commands one at a time (`save PATH`, `annotate PATH X Y`,
/// `copy FROM PATH`, `exit`), each awaited. Stopped when the test ends. `hangsUp`: it closes its
/// connection to the X server right after its read, before saying it read. `naming`: paths on its
/// command line, as a tool names its output (the agent ties what is written there to it).
final class HeldReader {
    private let process: PipedProcess
    private let commands: Int32
    private var done = 0

    var pid: pid_t { process.pid }

    init(_ test: XCTestCase, area: Rect, display: String, hangsUp: Bool = false, naming: [String] = [],
         file: StaticString = #filePath, line: UInt = #line) throws {
        _ = try requireTool("python3", package: "python3", file: file, line: line)
        let folder = try TemporaryFolder(test, label: "held-reader")
        let fifo = folder.at("commands")
        guard mkfifo(fifo, 0o600) == 0 else { throw FixtureError("cannot make the FIFO \(fifo)") }
        // Read and write: opening never blocks, and the reader sees no end of file while it is open.
        commands = open(fifo, O_RDWR | O_CLOEXEC)
        guard commands >= 0 else { throw FixtureError("cannot open the FIFO \(fifo)") }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        process = try PipedProcess("/usr/bin/python3", [testScript("held-reader.py"), String(area.x), String(area.y),
                                                        String(area.width), String(area.height), fifo] + (hangsUp ? ["hang-up"] : []) + naming,
                                   environment: environment)
        let process = self.process
        let commands = self.commands
        test.addTeardownBlock {
            kill(process.pid, SIGKILL)
            _ = process.wait()
            close(commands)
        }
        guard readOutput(of: [process], file: file, line: line, until: { process.stdoutText.contains("read\n") || process.isFinished }),
              process.stdoutText.contains("read\n") else {
            throw FixtureError("held-reader did not read the screen: \(process.stderrText)")
        }
    }

    /// Sends `command` and waits until it is carried out.
    func run(_ command: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = Array((command + "\n").utf8)
        guard write(commands, bytes, bytes.count) == bytes.count else { throw FixtureError("cannot send \(command)") }
        if command == "exit" {
            XCTAssertEqual(process.wait(), 0, process.stderrText, file: file, line: line)
            return
        }
        done += 1
        let expected = done
        let process = self.process
        guard readOutput(of: [process], file: file, line: line, until: {
            process.stdoutText.components(separatedBy: "\ndone ").count - 1 >= expected || process.isFinished
        }), process.stdoutText.components(separatedBy: "\ndone ").count - 1 >= expected else {
            throw FixtureError("held-reader did not carry out \(command): \(process.stderrText)")
        }
    }
}
