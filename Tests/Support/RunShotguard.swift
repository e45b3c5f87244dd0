// Runs the built `shotguard` binary with a controlled environment, capturing its output.
import Foundation

/// The environment the tests give a program: PATH, a private HOME with its config folder and a
/// system config folder of its own (`home/xdg`: system policy files go in
/// `home/xdg/shotguard/regions`), a fixed locale, and no DISPLAY, so that no X server, user
/// regions file, system policy or desktop of the machine the tests happen to run on can leak in.
public func testEnvironment(home: URL, path: String? = nil) -> [String: String] {
    [
        "PATH": path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        "HOME": home.path,
        "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
        "XDG_CONFIG_DIRS": home.appendingPathComponent("xdg").path,
        "LC_ALL": "C.UTF-8",
        "TERM": "xterm",
    ]
}

/// Runs the built `shotguard` executable in `directory` (`home` when nil) with
/// `testEnvironment(home:)` plus `environment`, where a nil value removes the variable.
public func runShotguard(
    _ arguments: [String], home: URL, stdin: [UInt8]? = nil, environment: [String: String?] = [:],
    in directory: URL? = nil, file: StaticString = #filePath, line: UInt = #line
) throws -> RunResult {
    var variables = testEnvironment(home: home)
    for (name, value) in environment { variables[name] = value }
    return try runProgram(try shotguardBinary(file: file, line: line), arguments, environment: variables, stdin: stdin,
                          in: directory ?? home, file: file, line: line)
}
