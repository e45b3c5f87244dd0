// A private dbus-daemon per test: a session bus that nothing else uses, with no service files, so
// no call can start a real notification server or service manager.
import Foundation
import Glibc
import ShotguardBase
import XCTest

/// A `dbus-daemon` of the session type on a socket in a temporary folder. Its configuration
/// has no service folders (no activation) and lets every connection own any name.
public final class PrivateBus {
    public let folder: URL
    public let address: String
    private let daemon: ChildProcess

    public init(_ test: XCTestCase, file: StaticString = #filePath, line: UInt = #line) throws {
        guard programExists("dbus-daemon") else {
            XCTFail("dbus-daemon is not installed (Debian package dbus-daemon; scripts/install-deps.sh installs it)",
                    file: file, line: line)
            throw POSIXError(.ENOENT)
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(folder.path)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        do {
            daemon = try ChildProcess("dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--nopidfile",
                                                      "--print-address=\(ends[1])"],
                                      keepDescriptors: [ends[1]], output: .discard)
        } catch {
            close(ends[1])
            throw error
        }
        close(ends[1])
        // The address is printed once the daemon listens: the bus is ready when it arrives.
        var printed: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !printed.contains(UInt8(ascii: "\n")) {
            let count = read(ends[0], &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            printed += buffer[0..<count]
        }
        let text = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("unix:") else {
            XCTFail("dbus-daemon printed no address ('\(text)')", file: file, line: line)
            throw POSIXError(.EIO)
        }
        address = text
        let folder = folder
        let daemon = daemon
        test.addTeardownBlock {
            daemon.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Stops the daemon now (the bus goes away under its connections).
    public func stop() { daemon.stop() }

    /// An environment for a program on this bus: PATH, a home folder, the bus, nothing else.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": folder.path,
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
            "XDG_RUNTIME_DIR": folder.path,
            "DBUS_SESSION_BUS_ADDRESS": address,
            "LC_ALL": "C.UTF-8",
            "TZ": "UTC",
        ]
        for (name, value) in extra { environment[name] = value }
        return environment
    }
}
