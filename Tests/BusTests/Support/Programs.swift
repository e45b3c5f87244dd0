// The programs the command tests run: the built shotguard, and the fake servers of Tests/Scripts
// started while the test serves a bus connection of its own.
import Foundation
import ShotguardBus
import ShotguardTestSupport
import XCTest

/// The checkout that holds this file (Tests/BusTests/Support/Programs.swift).
let checkout: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url
}()

/// The `shotguard` executable built with these tests (SwiftPM puts it beside the test bundle).
func shotguardBinary(file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let bundle = Bundle(for: ProgramsLocator.self).bundleURL
    let products = bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    let candidates = [products.appendingPathComponent("shotguard"), checkout.appendingPathComponent(".build/debug/shotguard")]
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        XCTFail("the shotguard binary was not built; build with --build-tests", file: file, line: line)
        throw CocoaError(.fileNoSuchFile)
    }
    return found.path
}

private final class ProgramsLocator {}

/// A fake server of Tests/Scripts (python3-gi) on `bus`, once it owns its name, serving `buses`
/// meanwhile (a connection of the test that the server calls at its start).
func startFake(_ script: String, _ arguments: [String] = [], on bus: PrivateBus, serving buses: [SessionBus] = [],
               file: StaticString = #filePath, line: UInt = #line) throws -> PipedProcess {
    let fake = try PipedProcess("/usr/bin/python3", [testScript(script)] + arguments, environment: bus.environment())
    serve(buses, programs: [fake], file: file, line: line) { fake.stdoutText.contains("\"ready\": true") || fake.isFinished }
    XCTAssertFalse(fake.isFinished, "\(script) stopped: \(fake.stderrText) (Debian packages python3-gi, gir1.2-glib-2.0)",
                   file: file, line: line)
    return fake
}
