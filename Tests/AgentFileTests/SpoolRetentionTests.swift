// Spool retention: the newest N reports stay, the oldest go first, nothing else is touched.
import Foundation
@testable import ShotguardAgent
import ShotguardTestSupport
import XCTest

final class SpoolRetentionTests: XCTestCase {
    private func spool(_ root: TemporaryFolder, keep: Int) throws -> SpoolReporter {
        var options = AgentOptions()
        options.spoolFolder = root.at("spool")
        options.keepReports = keep
        return try SpoolReporter(options: options)
    }

    func testTheOldestReportsAreRemovedBeyondKeep() throws {
        let root = try TemporaryFolder(self)
        let reporter = try spool(root, keep: 2)
        try root.folder("spool/notes")  // not a report: stays
        for second in 1...4 {
            _ = try reporter.write([1, 2, 3], json: "{}", id: "20261129-14070\(second)-120")
        }
        XCTAssertEqual(SpoolRetention(folder: reporter.folder, keep: 2).reportNames(),
                       ["20261129-140703-120", "20261129-140704-120"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.at("spool/notes")))
    }

    func testAReportHoldingAFileNamedInInvalidUTF8IsStillRemoved() throws {
        let root = try TemporaryFolder(self)
        let reporter = try spool(root, keep: 1)
        _ = try reporter.write(nil, json: "{}", id: "20261129-140701-000")
        let odd: [CChar] = Array((root.at("spool/20261129-140701-000/") + "x").utf8CString.dropLast()) + [-1, 0]
        XCTAssertGreaterThanOrEqual(creat(odd, 0o600), 0)
        _ = try reporter.write(nil, json: "{}", id: "20261129-140702-000")
        XCTAssertEqual(SpoolRetention(folder: reporter.folder, keep: 1).reportNames(), ["20261129-140702-000"])
    }

    func testReportIDs() {
        XCTAssertTrue(SpoolRetention.isReportID("20261129-140703-120"))
        XCTAssertTrue(SpoolRetention.isReportID("20261129-140703-120-2"))
        XCTAssertFalse(SpoolRetention.isReportID(".20261129-140703-120.partial"))
        XCTAssertFalse(SpoolRetention.isReportID("holiday"))
    }
}
