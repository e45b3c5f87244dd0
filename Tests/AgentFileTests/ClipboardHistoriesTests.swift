// Clipboard history programs found among this user's processes, from a /proc of the test's own.
import Foundation
@testable import ShotguardAgent
import ShotguardTestSupport
import XCTest

final class ClipboardHistoriesTests: XCTestCase {
    /// A folder laid out as /proc: PID/comm and PID/cmdline as the kernel writes them.
    private func process(_ pid: Int, comm: String, cmdline: [String] = [], environment: [String]? = ["DISPLAY=:0"],
                         in proc: TemporaryFolder) throws {
        try proc.folder("\(pid)")
        try proc.file("\(pid)/comm", Array((comm + "\n").utf8))
        try proc.file("\(pid)/cmdline", cmdline.flatMap { Array($0.utf8) + [0] })
        if let environment { try proc.file("\(pid)/environ", environment.flatMap { Array($0.utf8) + [0] }) }
    }

    /// By name, on this display: diodon runs on another one; copyq's environment could not be read.
    func testHistoryProgramsOfTheUserAreFoundByName() throws {
        let proc = try TemporaryFolder(self)
        try process(812, comm: "parcellite", environment: ["HOME=/home/u", "DISPLAY=:0.0", "LANG=C"], in: proc)
        try process(90, comm: "copyq", environment: nil, in: proc)
        try process(91, comm: "diodon", environment: ["DISPLAY=:1"], in: proc)
        try process(77, comm: "bash", in: proc)
        try process(1501, comm: "wrapper-2.0", cmdline: ["/usr/lib/x86_64-linux-gnu/xfce4/panel/wrapper-2.0",
                                                          "/usr/lib/x86_64-linux-gnu/xfce4/panel/plugins/libclipman.so", "12"], in: proc)
        try process(1502, comm: "wrapper-2.0", cmdline: ["/usr/lib/x86_64-linux-gnu/xfce4/panel/wrapper-2.0", "libweather.so"], in: proc)
        try proc.folder("self")
        try proc.file("uptime", Array("1.0 1.0\n".utf8))
        let found = ClipboardHistories.running(on: ":0", procRoot: proc.path, uid: getuid())
        XCTAssertEqual(found, [ClipboardHistories.Found(program: "copyq", pid: 90, keeps: .images),
                               ClipboardHistories.Found(program: "parcellite", pid: 812, keeps: .text),
                               ClipboardHistories.Found(program: "xfce4-clipman", pid: 1501, keeps: .images)])
    }

    func testAnotherUsersProcessesAreNotLookedAt() throws {
        let proc = try TemporaryFolder(self)
        try process(300, comm: "greenclip", in: proc)
        XCTAssertEqual(ClipboardHistories.running(on: ":0", procRoot: proc.path, uid: getuid() &+ 1), [])
    }

    func testDisplaysAreTheSameByLocalHostAndNumber() {
        XCTAssertTrue(ClipboardHistories.sameDisplay(":0", ":0.0"))
        XCTAssertTrue(ClipboardHistories.sameDisplay("unix:3", ":3"))
        XCTAssertTrue(ClipboardHistories.sameDisplay("unix/:90", ":90"))
        XCTAssertFalse(ClipboardHistories.sameDisplay(":1", ":10"))
        XCTAssertFalse(ClipboardHistories.sameDisplay("localhost:10", ":10"), "TCP through ssh is another server")
    }

    func testTheWarningSaysWhatTheHistoryKeeps() {
        XCTAssertNil(ClipboardHistories.warning([]))
        let text = ClipboardHistories.warning([.init(program: "parcellite", pid: 812, keeps: .text)]) ?? ""
        XCTAssertTrue(text.hasPrefix("a clipboard history runs: parcellite (pid 812): it keeps text only"), text)
        let images = ClipboardHistories.warning([.init(program: "parcellite", pid: 812, keeps: .text),
                                                 .init(program: "copyq", pid: 90, keeps: .images)]) ?? ""
        XCTAssertTrue(images.contains("parcellite (pid 812), copyq (pid 90)"), images)
        XCTAssertTrue(images.contains("may keep original screenshots"), images)
    }
}
