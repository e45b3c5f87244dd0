// Desktop programs run as a session runs them: a session bus of their own, a home in the sandbox, one process group.
import Foundation
import ShotguardBase
import ShotguardTestSupport
import XCTest

/// A long-running program of a desktop session (xfsettingsd, Parcellite), started under
/// `dbus-run-session` with its home in the sandbox, leading a process group of its own, so that
/// `stop` ends everything it started: the bus and what the bus activated (xfconfd). Without a
/// bus of their own, GLib programs would autolaunch one that outlives the test.
final class SessionProgram {
    let child: ChildProcess
    /// The session bus's address, for the programs run beside it (`run`).
    let busAddress: String
    private let sandbox: Sandbox
    private let display: String

    /// `package`: the Debian package that has the program, for the message when it is missing.
    init(_ command: [String], package: String, sandbox: Sandbox, display: String) throws {
        try Self.require(command[0], package: package)
        try Self.require("dbus-run-session", package: "dbus-daemon")
        self.sandbox = sandbox
        self.display = display
        let addressFile = try sandbox.write("session/\(command[0]).bus", [])
        let changes = try FileChanges([addressFile])
        // The shell writes the bus's address where the test reads it, then becomes the program.
        let script = #"printf '%s\n' "$DBUS_SESSION_BUS_ADDRESS" > "$0"; exec "$@""#
        child = try ChildProcess("/usr/bin/dbus-run-session", ["--", "/bin/sh", "-c", script, addressFile] + command,
                                 environment: Self.environment(sandbox, display: display), output: .standardError,
                                 newSession: true)
        var address = ""
        _ = changes.wait(seconds: 10) {
            address = ((try? String(contentsOfFile: addressFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return !address.isEmpty
        }
        guard !address.isEmpty else {
            child.stop()
            throw FixtureError("\(command[0]) did not start under dbus-run-session (Debian packages 'dbus-daemon' and the program's)")
        }
        busAddress = address
    }

    deinit { stop() }

    /// Stops the program, its bus and whatever the bus started (one process group).
    func stop() { child.stop() }

    /// Runs `command` to its end on this session's bus (a screenshot tool), bounded by
    /// `timeout`; its exit status.
    func run(_ command: [String], package: String, seconds: Int = 30) throws -> Int32 {
        try Self.require(command[0], package: package)
        var environment = Self.environment(sandbox, display: display)
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        let tool = try ChildProcess("/usr/bin/timeout", ["\(seconds)"] + command, environment: environment, output: .standardError)
        return tool.waitForExit()
    }

    /// Fails the test, naming the package, when `program` is not installed: never a silent skip.
    static func require(_ program: String, package: String) throws {
        guard programExists(program) else {
            throw FixtureError("\(program) is not installed (Debian package \(package); scripts/install-deps.sh installs it)")
        }
    }

    /// A session's environment with its home in the sandbox: settings in memory (GSettings), no
    /// accessibility bus.
    static func environment(_ sandbox: Sandbox, display: String) -> [String: String] {
        ["DISPLAY": display, "HOME": sandbox.home.path, "XDG_CONFIG_HOME": sandbox.path(".config"),
         "XDG_CACHE_HOME": sandbox.path(".cache"), "XDG_DATA_HOME": sandbox.path(".local/share"),
         "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1"]
    }
}

/// The test scripts (python3-xlib) beside this suite's.
enum TestScripts {
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/\(name)").path
    }

    /// The owner of `selection` once it has one other than `excluded` (XFixes notifications,
    /// bounded by `seconds`); nil when none came.
    static func owner(of selection: String, other excluded: [UInt] = [], seconds: Int = 10, display: String,
                      sandbox: Sandbox) throws -> UInt? {
        let output = try sandbox.write("session/owner.out", [])
        let excludedText = excluded.map { "0x" + String($0, radix: 16) }.joined(separator: " ")
        let waiter = try ChildProcess("/bin/sh", ["-c", "exec /usr/bin/python3 '\(path("selection-owner.py"))' \(selection) \(seconds) "
                                                  + "\(excludedText) > '\(output)'"],
                                      environment: ["DISPLAY": display], output: .standardError)
        guard waiter.waitForExit() == 0 else { return nil }
        let text = try String(contentsOfFile: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return UInt(text.dropFirst(2), radix: 16)
    }
}
