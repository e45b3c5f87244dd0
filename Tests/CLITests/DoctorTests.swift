// `shotguard doctor` on servers with and without RECORD, with and without a session bus: the hole
// named each time, with its fix, and the exit status.
import Foundation
import ShotguardBase
import ShotguardScene
import ShotguardTestSupport
import XCTest

final class DoctorTests: XCTestCase {
    /// The line of `name` in doctor's screen, and the fix line after it if any.
    private func line(_ name: String, in output: String) -> (state: String, text: String, fix: String?)? {
        let lines = output.split(separator: "\n").map(String.init)
        guard let index = lines.firstIndex(where: { $0.dropFirst(11).hasPrefix(name + " ") }) else { return nil }
        let state = lines[index].dropFirst(2).prefix { $0 != " " }
        let fix = index + 1 < lines.count && lines[index + 1].trimmingCharacters(in: .whitespaces).hasPrefix("fix: ")
            ? lines[index + 1].trimmingCharacters(in: .whitespaces) : nil
        return (String(state), lines[index], fix)
    }

    private func doctor(_ server: VirtualDisplay, bus: PrivateBus?, json: Bool = false) throws -> RunResult {
        let home = try TemporaryFolder(self, label: "doctor").url
        var environment: [String: String?] = ["DISPLAY": server.name]
        if let bus { environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        return try runShotguard(["doctor"] + (json ? ["--json"] : []), home: home, environment: environment)
    }

    func testWithoutRecordTheHoleIsNamedWithItsFix() throws {
        let server = try startPrivateServer(width: 320, height: 200, withoutExtensions: ["RECORD"])
        defer { server.stop() }
        let bus = try PrivateBus(self)
        let result = try doctor(server, bus: bus)
        XCTAssertEqual(result.status, 1, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.hasPrefix("shotguard doctor: display \(server.name): "), result.stdoutText)
        let record = try XCTUnwrap(line("RECORD", in: result.stdoutText), result.stdoutText)
        XCTAssertEqual(record.state, "HOLE", record.text)
        XCTAssertTrue(record.text.contains("the X server has no RECORD"), record.text)
        XCTAssertTrue(record.fix?.contains("an X server with RECORD") ?? false, "\(record)")
        XCTAssertEqual(line("session bus", in: result.stdoutText)?.state, "covered", result.stdoutText)
        // scrot is installed here: without RECORD its reads are not seen.
        XCTAssertEqual(line("scrot", in: result.stdoutText)?.state, "HOLE", result.stdoutText)

        let json = try doctor(server, bus: bus, json: true)
        XCTAssertEqual(json.status, 1)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any])
        let checks = try XCTUnwrap(object["checks"] as? [[String: Any]])
        let entry = try XCTUnwrap(checks.first { $0["name"] as? String == "RECORD" })
        XCTAssertEqual(entry["state"] as? String, "hole")
        XCTAssertNotNil(entry["fix"] as? String)
        XCTAssertGreaterThan(object["holes"] as? Int ?? 0, 0)
        XCTAssertEqual((object["unseen"] as? [Any])?.count, 6, "the capture paths no X11 client can see")
    }

    func testWithRecordAndABusThoseAreCoveredAndTheMissingAgentIsTheHole() throws {
        let server = try startPrivateServer(width: 320, height: 200)
        defer { server.stop() }
        let bus = try PrivateBus(self)
        let result = try doctor(server, bus: bus)
        XCTAssertEqual(result.status, 1, "no agent runs: \(result.stdoutText)")
        for name in ["RECORD", "X-Resource", "session bus"] {
            XCTAssertEqual(line(name, in: result.stdoutText)?.state, "covered", "\(name): \(result.stdoutText)")
        }
        let agent = try XCTUnwrap(line("agent", in: result.stdoutText), result.stdoutText)
        XCTAssertEqual(agent.state, "HOLE")
        XCTAssertTrue(agent.fix?.contains("systemctl --user enable --now shotguard.service") ?? false, "\(agent)")
        XCTAssertEqual(line("rules", in: result.stdoutText)?.state, "HOLE", "no regions file: \(result.stdoutText)")
        XCTAssertTrue(result.stdoutText.contains("capture paths no X11 client can see"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("browser tab sharing"), result.stdoutText)
    }

    func testWithoutASessionBusTheHoleIsNamedWithItsFix() throws {
        let server = try startPrivateServer(width: 320, height: 200)
        defer { server.stop() }
        let result = try doctor(server, bus: nil)
        XCTAssertEqual(result.status, 1, result.stdoutText)
        let bus = try XCTUnwrap(line("session bus", in: result.stdoutText), result.stdoutText)
        XCTAssertEqual(bus.state, "HOLE", bus.text)
        XCTAssertTrue(bus.text.contains("no session bus"), bus.text)
        XCTAssertTrue(bus.fix?.contains("D-Bus session bus") ?? false, "\(bus)")
        XCTAssertEqual(line("RECORD", in: result.stdoutText)?.state, "covered", result.stdoutText)
    }
}
