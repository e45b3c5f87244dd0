// `shotguard reports list|purge` on spools of reports as the agent writes them: one JSON array, newest first, purge by age.
import Foundation
import ShotguardTestSupport
import XCTest

final class ReportsCommandTests: XCTestCase {
    private var sandbox: Sandbox!
    private let spool = ".local/state/shotguard/reports"

    override func setUpWithError() throws { sandbox = try Sandbox(self) }

    /// A report folder as the agent writes one (report.json in its schema 4, image.png when
    /// kept), under the default spool; its folder's modification time set `age` seconds back.
    @discardableResult
    private func report(_ id: String, time: String, source: String = "file", original: String? = "/home/u/Pictures/scrot.png",
                        rectangles: Int = 2, guardJSON: String = #"{"file":"rewritten","clipboard":"unchanged"}"#,
                        imageKept: Bool = true, age: Double = 0, in folder: String? = nil) throws -> String {
        let base = folder ?? spool
        let redactions = (0..<rectangles).map { #"{"line":\#($0 + 1),"geometry":"10x10+\#($0)+0","x":\#($0),"y":0,"width":10,"height":10,"fill":"black"}"# }
        let path = imageKept ? "\"\(sandbox.path("\(base)/\(id)/image.png"))\"" : "null"
        let json = #"{"type":"screenshot","schema":4,"id":"\#(id)","time":"\#(time)","signals":[{"kind":"file","time":"\#(time)","detail":"x"}],"#
            + #""image":{"source":"\#(source)","path":\#(path),"# + (original.map { #""original":"\#($0)","# } ?? "")
            + #""width":640,"height":400},"alignment":{"method":"exact","geometry":"640x400+0+0","window":null,"monitor":null},"#
            + #""evidence":["a screenshot program read the screen"],"redactions":[\#(redactions.joined(separator: ","))],"#
            + #""activeWindow":null,"screen":{"width":640,"height":400},"monitors":[],"guard":\#(guardJSON),"shield":null,"#
            + #""host":"h","shotguard":"0.1.0","note":null}"#
        try sandbox.write("\(base)/\(id)/report.json", text: json + "\n")
        if imageKept { try sandbox.write("\(base)/\(id)/image.png", [0x89, 0x50, 0x4E, 0x47]) }
        try backdate("\(base)/\(id)", by: age)
        return sandbox.path("\(base)/\(id)")
    }

    private func backdate(_ name: String, by seconds: Double) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -seconds)], ofItemAtPath: sandbox.path(name))
    }

    private func listJSON(_ extra: [String] = []) throws -> [[String: Any]] {
        let result = try sandbox.run(["reports", "list", "--json"] + extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines.count, 2, "one line and its end: \(result.stdoutText)")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [[String: Any]], result.stdoutText)
    }

    private func names(in folder: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: sandbox.path(folder)))
    }

    /// One convention for --json: a listing is one JSON array, `[]` when there is nothing, here
    /// newest first with what each report says.
    func testListJSONIsOneArrayNewestFirst() throws {
        XCTAssertEqual(try sandbox.run(["reports", "list", "--json"]).stdoutText, "[]\n", "no spool yet: an empty array")
        let older = try report("20261201-101010-001", time: "2026-12-01T09:10:10.001Z")
        let newer = try report("20261201-111010-002", time: "2026-12-01T10:10:10.002Z", source: "clipboard", original: nil,
                               rectangles: 0, guardJSON: #"{"clipboard":"unchanged"}"#, imageKept: false)
        let items = try listJSON()
        XCTAssertEqual(items.map { $0["id"] as? String }, ["20261201-111010-002", "20261201-101010-001"])
        let first = try XCTUnwrap(items.first), second = try XCTUnwrap(items.last)
        XCTAssertEqual(first["time"] as? String, "2026-12-01T10:10:10.002Z")
        XCTAssertEqual(first["source"] as? String, "clipboard")
        XCTAssertEqual(first["rectangles"] as? Int, 0)
        XCTAssertTrue(first["image"] is NSNull, "a report without image.png has a null image")
        XCTAssertTrue(first["original"] is NSNull)
        XCTAssertEqual(first["guard"] as? [String: String], ["clipboard": "unchanged"])
        XCTAssertEqual(first["report"] as? String, newer + "/report.json")
        XCTAssertEqual(second["image"] as? String, older + "/image.png")
        XCTAssertEqual(second["original"] as? String, "/home/u/Pictures/scrot.png")
        XCTAssertEqual(second["rectangles"] as? Int, 2)
        XCTAssertEqual(second["guard"] as? [String: String], ["file": "rewritten", "clipboard": "unchanged"])
    }

    func testListShowsOneLinePerReportAndWhyOneCannotBeRead() throws {
        XCTAssertEqual(try sandbox.run(["reports", "list"]).stdoutText, "no reports in \(sandbox.path(spool))\n")
        try report("20261201-101010-001", time: "2026-12-01T09:10:10.001Z", guardJSON: "null")
        try sandbox.write("\(spool)/20261201-121010-003/report.json", text: "{\"id\":")
        try sandbox.write("\(spool)/.20261201-131010-004.partial/report.json", text: "{}")
        try sandbox.write("\(spool)/notes.txt", text: "mine")
        let result = try sandbox.run(["reports", "list"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, [
            "20261201-101010-001  2026-12-01T09:10:10.001Z  file  2 rectangles  no guard  image kept  /home/u/Pictures/scrot.png",
            "20261201-121010-003  unreadable: its report.json is not a JSON object; look in \(sandbox.path(spool))/20261201-121010-003",
            "",
        ])
        let items = try listJSON()
        XCTAssertEqual(items.last?["error"] as? String, "its report.json is not a JSON object")
        XCTAssertEqual(items.last?["folder"] as? String, sandbox.path("\(spool)/20261201-121010-003"))
    }

    /// A report.json that is a link is not followed: it could point anywhere.
    func testAReportJSONThatIsALinkIsNotFollowed() throws {
        let elsewhere = try report("20261201-101010-001", time: "2026-12-01T09:10:10.001Z", in: "elsewhere")
        try FileManager.default.createDirectory(atPath: sandbox.path("\(spool)/20261201-111010-001"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("\(spool)/20261201-111010-001/report.json"),
                                                   withDestinationPath: elsewhere + "/report.json")
        let item = try XCTUnwrap(try listJSON().first)
        XCTAssertEqual(item["id"] as? String, "20261201-111010-001")
        XCTAssertTrue((item["error"] as? String)?.hasPrefix("cannot read its report.json: ") ?? false, "\(item)")
    }

    /// `purge --older-than` removes the reports older than the duration, by their folder's
    /// age as the agent's --keep-for does, and nothing else; `purge` alone removes every report.
    func testPurgeOlderThanRemovesOnlyOlderReports() throws {
        try report("20261201-101010-001", time: "2026-12-01T09:10:10.001Z", age: 3 * 3600)
        try report("20261201-111010-002", time: "2026-12-01T10:10:10.002Z", imageKept: false, age: 2 * 3600 + 60)
        try report("20261201-121010-003", time: "2026-12-01T11:10:10.003Z", age: 3600)
        try report("20261201-131010-004", time: "2026-12-01T12:10:10.004Z")
        try sandbox.write("\(spool)/notes.txt", text: "mine")
        try backdate("\(spool)/notes.txt", by: 10 * 86_400)

        let purged = try sandbox.run(["reports", "purge", "--older-than", "2h"])
        XCTAssertEqual(purged.status, 0, purged.stderr)
        XCTAssertEqual(purged.stdout, [])
        XCTAssertEqual(purged.stderr, "deleted 2 reports from \(sandbox.path(spool))\n")
        XCTAssertEqual(try names(in: spool), ["20261201-121010-003", "20261201-131010-004", "notes.txt"])
        XCTAssertEqual(try listJSON().compactMap { $0["id"] as? String }, ["20261201-131010-004", "20261201-121010-003"])

        let all = try sandbox.run(["reports", "purge"])
        XCTAssertEqual(all.stderr, "deleted 2 reports from \(sandbox.path(spool))\n")
        XCTAssertEqual(try names(in: spool), ["notes.txt"], "only report folders go")
    }

    func testSpoolOptionNamesAnotherFolder() throws {
        try report("20261201-101010-001", time: "2026-12-01T09:10:10.001Z", in: "other")
        XCTAssertEqual(try listJSON().count, 0)
        XCTAssertEqual(try listJSON(["--spool", "other"]).compactMap { $0["id"] as? String }, ["20261201-101010-001"])
        XCTAssertEqual(try sandbox.run(["reports", "purge", "--spool", sandbox.path("other")]).stderr,
                       "deleted 1 report from \(sandbox.path("other"))\n")
        XCTAssertEqual(try names(in: "other"), [])
    }

    func testBadInputIsAUsageErrorOrAFailureThatSaysWhy() throws {
        assertFailure(try sandbox.run(["reports", "purge", "--older-than", "30"]), status: 2,
                      prefix: "shotguard: reports purge: --older-than: '30' is not a duration", mentions: ["7d, 12h or 30m"])
        assertFailure(try sandbox.run(["reports", "list", "extra"]), status: 2, prefix: "shotguard: reports list: takes no arguments")
        assertFailure(try sandbox.run(["reports"]), status: 2, prefix: "shotguard: reports needs a command",
                      mentions: ["expected follow, list, purge or send", "shotguard reports --help"])
        assertFailure(try sandbox.run(["reports", "show"]), status: 2, prefix: "shotguard: unknown reports command 'show'")
        try sandbox.write("a-file", text: "")
        assertFailure(try sandbox.run(["reports", "list", "--spool", "a-file"]), status: 1,
                      prefix: "shotguard: reports list: a-file is not a folder")
    }

    func testReportsHelpShowsBothCommands() throws {
        let result = try sandbox.run(["reports", "--help"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for usage in ["Usage: shotguard reports list", "Usage: shotguard reports purge"] {
            XCTAssertTrue(result.stdoutText.contains(usage), result.stdoutText)
        }
    }
}
