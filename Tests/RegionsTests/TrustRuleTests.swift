// `trust program=NAME`: parsed, refused with its column when written wrong, and without effect under a locked system policy.
import ShotguardBase
import ShotguardRegions
import XCTest

final class TrustRuleTests: XCTestCase {
    func testTrustLinesNameProgramsByNameOrPath() throws {
        let file = try parse("""
            window class=KeePassXC
            trust program=obs            # my own recorder
            trust program="/opt/my recorder/bin/rec"
            """)
        XCTAssertEqual(file.rules.count, 1, "a trust line is no cover")
        XCTAssertEqual(file.trusts.map(\.line), [2, 3])
        XCTAssertEqual(file.trusts.map(\.program), [ProgramName("obs"), ProgramName("/opt/my recorder/bin/rec")])
        XCTAssertEqual(file.trusts.first?.source, "trust program=obs")
        XCTAssertEqual(file.trustedPrograms.map(\.value), ["obs", "/opt/my recorder/bin/rec"])
        XCTAssertTrue(file.refusedTrusts.isEmpty)
    }

    func testTrustErrors() {
        let expected = "expected 'trust program=NAME' (the executable's name, as 'obs') or 'trust program=PATH' (as '/usr/bin/obs')"
        XCTAssertEqual(parseError("trust"), "regions:1:6: 'trust' needs a program (\(expected))")
        XCTAssertEqual(parseError("trust class=obs"), "regions:1:7: unknown word 'class=obs' after 'trust' (\(expected))")
        XCTAssertEqual(parseError("trust obs"), "regions:1:7: unknown word 'obs' after 'trust' (\(expected))")
        XCTAssertEqual(parseError("trust program="), "regions:1:15: empty program after 'program=' (\(expected))")
        XCTAssertEqual(parseError("trust program=bin/obs"),
                       "regions:1:15: a program's path must be absolute (found 'bin/obs'; \(expected))")
        XCTAssertEqual(parseError("trust program=obs program=ffmpeg"),
                       "regions:1:19: 'trust' takes one program a line (found 'program=ffmpeg' after it)")
    }

    /// Under a locked system policy the user's trust lines have no effect; the system's own do.
    func testALockedPolicyRefusesTheUsersTrust() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shotguard-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let system = folder.appendingPathComponent("system").path
        let user = folder.appendingPathComponent("user").path
        try "trust program=/usr/bin/obs\nscreen 10x10+0+0\n".write(toFile: system, atomically: true, encoding: .utf8)
        try "trust program=ffmpeg\n".write(toFile: user, atomically: true, encoding: .utf8)
        let open = try XCTUnwrap(try RegionsPolicy.load(userPath: user, systemPaths: [system]))
        XCTAssertEqual(open.trustedPrograms.map(\.value), ["/usr/bin/obs", "ffmpeg"])
        try "lock\ntrust program=/usr/bin/obs\nscreen 10x10+0+0\n".write(toFile: system, atomically: true, encoding: .utf8)
        let locked = try XCTUnwrap(try RegionsPolicy.load(userPath: user, systemPaths: [system]))
        XCTAssertEqual(locked.trustedPrograms.map(\.value), ["/usr/bin/obs"])
        XCTAssertEqual(locked.refusedTrusts.map(\.line), [1])
        XCTAssertEqual(locked.trusts.first?.origin, .system(path: system, locked: true))
    }

    /// A name is the executable's file name or the kernel's name for the process (cut to 15
    /// bytes); a path is the executable's exact path, and a deleted one is no longer it.
    func testProgramNamesMatchProcesses() {
        func process(_ comm: String, _ executable: String?) -> ProcessDetails {
            ProcessDetails(pid: 9, program: comm, executable: executable.map { Array($0.utf8) }, workingFolder: nil, arguments: [],
                           parentPID: 1, processGroup: 9)
        }
        XCTAssertTrue(ProgramName("obs").matches(process("obs", "/usr/bin/obs")))
        XCTAssertTrue(ProgramName("obs").matches(process("obs-ffmpeg-mux", "/usr/bin/obs")), "by its executable")
        XCTAssertTrue(ProgramName("gpu-screen-recorder").matches(process("gpu-screen-reco", nil)), "comm is cut to 15 bytes")
        XCTAssertFalse(ProgramName("obs").matches(process("ffmpeg", "/usr/bin/ffmpeg")))
        XCTAssertTrue(ProgramName("/usr/bin/obs").matches(process("obs", "/usr/bin/obs")))
        XCTAssertFalse(ProgramName("/usr/bin/obs").matches(process("obs", "/tmp/obs")), "a path is the executable's, not a name")
        XCTAssertFalse(ProgramName("/usr/bin/obs").matches(process("obs", "/usr/bin/obs (deleted)")))
        XCTAssertFalse(ProgramName("obs").matches(process("bash", "/tmp/obs (deleted)")))
    }
}
