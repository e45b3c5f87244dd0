// The agent's object as introspection shows it, and as shotguard(1) documents it.
import Foundation
import ShotguardBase
import ShotguardBus
import ShotguardTestSupport
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif

final class AgentIntrospectionTests: XCTestCase {
    /// The members of one interface in introspection XML: name → [(argument name, type, direction)].
    private final class Members: NSObject, XMLParserDelegate {
        let interface: String
        var inside = false
        var current: String?
        var members: [String: [String]] = [:]
        var kinds: [String: String] = [:]

        init(interface: String) { self.interface = interface }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            switch name {
            case "interface": inside = attributes["name"] == interface
            case "method", "signal", "property":
                guard inside else { return }
                current = attributes["name"]
                kinds[attributes["name"] ?? ""] = name
                members[attributes["name"] ?? ""] = []
            case "arg":
                if inside, let current {
                    members[current]?.append("\(attributes["direction"] ?? "out") \(attributes["type"] ?? "?") "
                        + (attributes["name"] ?? "?"))
                }
            default: break
            }
        }
    }

    func testIntrospectionShowsEveryMethodAndSignalWithNamedArguments() throws {
        let bus = try PrivateBus(self)
        let agent = try ServedAgent(on: bus)
        let introspect = try runServing("gdbus", ["introspect", "--session", "--xml", "--dest", AgentInterface.busName,
                                                  "--object-path", AgentInterface.objectPath],
                                        serving: [agent.bus], environment: bus.environment())
        XCTAssertEqual(introspect.exitStatus, 0, introspect.stderrText)
        let parser = XMLParser(data: Data(introspect.stdout))
        let members = Members(interface: AgentInterface.name)
        parser.delegate = members
        XCTAssertTrue(parser.parse(), introspect.stdoutText)

        var expected: [String: [String]] = [:]
        for method in AgentInterface.methods {
            expected[method.name] = method.input.map { "in \($0.type) \($0.name)" } + method.output.map { "out \($0.type) \($0.name)" }
        }
        for signal in AgentInterface.signals { expected[signal.name] = signal.output.map { "out \($0.type) \($0.name)" } }
        XCTAssertEqual(members.members, expected, introspect.stdoutText)
        XCTAssertEqual(Set(members.kinds.filter { $0.value == "signal" }.keys), Set(AgentInterface.signals.map(\.name)))
        XCTAssertEqual(members.members["Pause"], ["in d seconds", "out d until"])
        for standard in ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Properties"] {
            XCTAssertTrue(introspect.stdoutText.contains("interface name=\"\(standard)\""), standard)
        }
        XCTAssertEqual(agent.control.calls, [], "introspection asks the agent nothing")
    }

    /// shotguard(1) documents the interface as the service registers it: under BUS INTERFACE,
    /// a tagged paragraph for each member, written as `Pause(d seconds) → (d until)`.
    func testManPageDocumentsEveryMember() throws {
        let page = try renderedManPage()
        guard let start = page.firstIndex(of: "BUS INTERFACE") else {
            return XCTFail("shotguard(1) has no BUS INTERFACE section")
        }
        let section = page[(start + 1)...].prefix { $0.isEmpty || $0.hasPrefix(" ") }.joined(separator: "\n")
        for word in [AgentInterface.busName, AgentInterface.objectPath, AgentInterface.refusedError,
                     AgentInterface.reloadFailedError, AgentInterface.unavailableError] {
            XCTAssertTrue(section.contains(word), "BUS INTERFACE names \(word)")
        }
        for form in AgentInterface.methods.map(\.signature) + AgentInterface.signals.map(\.signalSignature) {
            XCTAssertTrue(section.contains("       \(form)\n"), "BUS INTERFACE has a paragraph for \(form)")
        }
        for key in ["state", "pausedUntil", "whyOff", "rules", "sources", "recordAvailable", "display", "version",
                    "lastReportId", "lastReportTime", "lastReportOutcome"] {
            XCTAssertTrue(section.contains(key), "BUS INTERFACE describes the Status key \(key)")
        }
    }

    /// man/shotguard.1 rendered by mandoc as plain text, one paragraph per line.
    private func renderedManPage() throws -> [String] {
        var checkout = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { checkout.deleteLastPathComponent() }
        let page = checkout.appendingPathComponent("man/shotguard.1").path
        guard programExists("mandoc") else {
            XCTFail("mandoc is not installed (Debian package mandoc; scripts/install-deps.sh installs it)")
            return []
        }
        let render = try PipedProcess("mandoc", ["-Tutf8", "-O", "width=400", page],
                                      environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                                                    "LC_ALL": "C.UTF-8"])
        render.drainToEnd()
        XCTAssertEqual(render.wait(), 0, render.stderrText)
        return render.stdoutText.replacing(/.\x{08}/, with: "").split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }
}
