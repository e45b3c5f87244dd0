// Values for the decision tests: moments, snapshots, candidates, screen reads — no X server.
@testable import ShotguardAgent
import ShotguardImaging
import ShotguardRegions
import ShotguardScreen

enum Fixture {
    /// A moment `seconds` into the test (monotonic 1000 + s, wall 1.8e9 + s).
    static func at(_ seconds: Double) -> Moment { Moment(monotonic: 1000 + seconds, wall: 1_800_000_000 + seconds) }

    static func snapshot(at seconds: Double, windows: [WindowInfo] = [], active: UInt? = nil, width: Int = 64,
                         height: Int = 48) -> Snapshot {
        Snapshot(root: PixelBuffer(width: width, height: height),
                 context: ScreenContext(width: width, height: height, windows: windows, activeWindowID: active), time: at(seconds))
    }

    static func file(_ name: String, naming: Naming = .strong, evidence: Evidence = .none, at seconds: Double = 0) -> Candidate {
        .file(BytePath("/shots/\(name)"), naming: naming, key: "file:\(name)", evidence: evidence, at: at(seconds))
    }

    static func clipboard(owner: UInt = 0x600001, program: String? = nil, evidence: Evidence = .none, at seconds: Double = 0) -> Candidate {
        let process = program.map { ProcessIdentity(pid: 4242, program: $0, parentPID: 100, processGroup: 4242) }
        let offer = ClipboardOffer(image: [1, 2, 3], imageTargets: ["image/png"], targets: [],
                                   owner: ClipboardOwner(window: owner, description: "xclip", process: process, selectionTime: 77))
        return .clipboard(offer, key: "clipboard:\(owner)", evidence: evidence, at: at(seconds))
    }

    /// A protected rectangle a read can hold.
    static let vaultHit = RegionHit(line: 1, fill: .black, rect: Rect(x: 10, y: 10, width: 40, height: 30), windowID: 9)

    /// A read by `program`; by default it held the vault's protected pixels.
    static func read(by program: String, pid: Int32? = 300, group: Int32? = 300, parent: Int32? = 100, area: Rect? = nil,
                     at seconds: Double, protected: [RegionHit] = [vaultHit]) -> ScreenReadRecord {
        ScreenReadRecord(request: "ShmGetImage", program: program, pid: pid, parentPID: parent, processGroup: group, area: area,
                         time: at(seconds), client: 0x400000, protected: protected)
    }
}
