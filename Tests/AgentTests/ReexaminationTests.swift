// A file examined again for a read learnt late is judged by that read alone, not by the event it joins.
import Foundation
@testable import ShotguardAgent
import ShotguardBase
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen
import ShotguardTestSupport
import XCTest

final class ReexaminationTests: XCTestCase {
    /// A photo copied into a watched folder and left; a moment later a read is heard and the
    /// shield's key is pressed (or a tool window shown): the photo, examined again in that
    /// event, is left as it was. Taken into that event afresh, the event's evidence would make
    /// a photo that cannot be placed a screenshot, set aside while rules cover something.
    func testAPhotoExaminedAgainIsNotJudgedByTheEventItJoins() throws {
        let folder = try TemporaryFolder(label: "reexamine")
        var photo = PixelBuffer(width: 200, height: 150)
        for y in 0..<photo.height {
            for x in 0..<photo.width { photo[x, y] = 0xFF00_0000 | UInt32((x * 5 + y * 11) % 256) << 16 | UInt32((x * y) % 256) << 8 | 0x30 }
        }
        let path = BytePath(folder.at("holiday.png"))
        let bytes = try PNGEncoder.encode(photo, destination: path.description)
        try Data(bytes).write(to: URL(fileURLWithPath: path.description))

        let vault = WindowInfo(id: 9, className: "Vault", instance: "vault", title: "Vault", frame: Rect(x: 100, y: 100, width: 200, height: 120),
                               isViewable: true)
        let now = Moment(monotonic: 10, wall: 1_800_000_000)
        let screen = Snapshot(root: PixelBuffer(width: 640, height: 400, fill: 0xFF30_60A0),
                              context: ScreenContext(width: 640, height: 400, windows: [vault]), time: now)
        var event = CaptureEvent(id: "20270115-080000-000", snapshot: screen)
        event.toolName = "flameshot"
        let rules = try RegionsFile.parse("window class=Vault\n", path: "regions")
        var reads = ReadHistory()
        reads.add(ScreenReadRecord(request: "GetImage", program: "client 0x1200000", pid: nil, area: Rect(x: 0, y: 0, width: 640, height: 400),
                                   time: now, client: 0x1200000,
                                   protected: [RegionHit(line: 1, fill: .black, rect: vault.frame, windowID: vault.id)]))
        let handler = CandidateHandler(fileGuard: nil, clipboardGuard: nil)
        func judge(judgements: Int) -> HandlingResult {
            var candidate = Candidate.file(path, naming: .weak, key: "file:holiday", evidence: .none, at: now)
            candidate.judgements = judgements
            return handler.handle(candidate, in: CandidateHandler.Context(event: event, rules: rules, contextNow: { screen.context },
                                                                          reads: reads, sensing: true, now: now))
        }
        let again = judge(judgements: 1)
        guard case .left = again.outcome else { return XCTFail("examined again: \(again.outcome.kind), \(again.lines)") }
        XCTAssertEqual(again.leftBecause, .notScreenshot)
        // The control: taken into the tool window's event afresh, it would be a screenshot.
        let afresh = judge(judgements: 0)
        guard case .screenshotUnplaced = afresh.outcome else { return XCTFail("afresh: \(afresh.outcome.kind)") }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path.description)), Data(bytes), "the photo is as it was")
    }
}
