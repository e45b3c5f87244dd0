// Runs a program where one shared library cannot be loaded: for what shotguard loads only on first use.
import Foundation
import XCTest

/// The file the dynamic linker loads for `soname`, as this process maps it once loaded.
public func sharedLibraryFile(_ soname: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    _ = try XCTUnwrap(dlopen(soname, RTLD_NOW), "cannot load \(soname), which this test needs", file: file, line: line)
    // Read to its end: /proc files have no size for a reader to go by.
    let maps = String(decoding: try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/maps"), file: file, line: line)
        .readDataToEndOfFile(), as: UTF8.self)
    let mapped = try XCTUnwrap(maps.split(separator: "\n").first { $0.contains("/\(soname)") },
                               "\(soname) is loaded but not in /proc/self/maps", file: file, line: line)
    return String(mapped[try XCTUnwrap(mapped.firstIndex(of: "/"), file: file, line: line)...])
}

/// Runs `executable` in a user and mount namespace of its own where `soname`'s file is empty
/// (bound over by /dev/null), as on a system without that library: the dynamic linker finds
/// the file and refuses it. Nothing outside the namespace changes.
public func runWithoutLibrary(_ soname: String, _ executable: URL, _ arguments: [String], environment: [String: String],
                              file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
    let unshare = try requireTool("unshare", package: "util-linux", file: file, line: line)
    let library = try sharedLibraryFile(soname, file: file, line: line)
    var environment = environment
    environment["PATH"] = environment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let script = "mount --bind /dev/null \"$0\" && exec \"$@\""
    return try runProgram(unshare, ["--user", "--map-root-user", "--mount", "/bin/sh", "-c", script, library, executable.path]
                              + arguments, environment: environment, file: file, line: line)
}
