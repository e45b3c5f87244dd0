// The systemd user unit, the XDG autostart entry, and `make install` / `make uninstall`.
import Foundation
import ShotguardTestSupport
import XCTest

final class PackagingTests: XCTestCase {
    /// Every file `make install` writes, relative to DESTDIR, for a PREFIX, with its mode.
    static func installedFiles(prefix: String) -> [String: Int] {
        [
            "\(prefix)/bin/shotguard": 0o755,
            "\(prefix)/share/man/man1/shotguard.1": 0o644,
            "\(prefix)/share/man/man5/shotguard-regions.5": 0o644,
            "\(prefix)/share/bash-completion/completions/shotguard": 0o644,
            "\(prefix)/share/zsh/site-functions/_shotguard": 0o644,
            "\(prefix)/share/fish/vendor_completions.d/shotguard.fish": 0o644,
            "\(prefix)/lib/systemd/user/shotguard.service": 0o644,
            "/etc/xdg/autostart/shotguard.desktop": 0o644,
        ]
    }

    /// The source in the checkout of each installed file, by its name.
    static let sources = [
        "shotguard.1": "man/shotguard.1",
        "shotguard-regions.5": "man/shotguard-regions.5",
        "shotguard.fish": "completions/shotguard.fish",
        "_shotguard": "completions/_shotguard",
        "shotguard.desktop": "packaging/shotguard.desktop",
    ]

    func testInstallThenUninstallWithPrefixUsrLocal() throws { try checkInstall(prefix: "/usr/local") }
    func testInstallThenUninstallWithPrefixUsr() throws { try checkInstall(prefix: "/usr") }

    func testServiceUnitHasItsKeys() throws {
        let unit = try String(contentsOf: repositoryFile("packaging/shotguard.service"), encoding: .utf8)
        let keys = Set(unit.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
        for line in ["[Unit]", "Documentation=man:shotguard(1) man:shotguard-regions(5)", "PartOf=graphical-session.target",
                     "After=graphical-session.target", "[Service]", "ExecStart=/usr/local/bin/shotguard watch",
                     "ExecReload=/bin/kill -HUP $MAINPID", "Restart=on-failure", "RestartPreventExitStatus=2", "[Install]",
                     "WantedBy=graphical-session.target"] {
            XCTAssertTrue(keys.contains(line), "packaging/shotguard.service has the line \(line)")
        }
        XCTAssertTrue(keys.contains { $0.hasPrefix("Description=") }, "packaging/shotguard.service has a Description")
    }

    /// `systemd-analyze verify` on the unit as installed, with ExecStart pointed at the built
    /// binary (the installed path does not exist here) and the man pages of Documentation= on
    /// MANPATH. Containers may lack systemd: then this one check is skipped.
    func testSystemdAnalyzeVerifiesTheUnit() throws {
        guard let analyze = findTool("systemd-analyze") else {
            throw XCTSkip("systemd-analyze is not installed (Debian package systemd)")
        }
        let folder = try TemporaryFolder(self, label: "unit").url
        let manual = folder.appendingPathComponent("man")
        for (section, page) in [("man1", "shotguard.1"), ("man5", "shotguard-regions.5")] {
            let target = manual.appendingPathComponent(section)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: repositoryFile("man/\(page)"), to: target.appendingPathComponent(page))
        }
        let runtime = folder.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        let unit = folder.appendingPathComponent("shotguard.service")
        let text = try String(contentsOf: repositoryFile("packaging/shotguard.service"), encoding: .utf8)
        try text.replacingOccurrences(of: "/usr/local/bin/shotguard", with: try shotguardBinary().path)
            .write(to: unit, atomically: true, encoding: .utf8)

        var environment = testEnvironment(home: folder)
        environment["MANPATH"] = manual.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["SYSTEMD_PAGER"] = ""
        let result = try runProgram(analyze, ["--user", "verify", unit.path], environment: environment)
        XCTAssertEqual(result.status, 0, "systemd-analyze --user verify: \(result.stderr)")
        XCTAssertEqual(result.stdoutText + result.stderr, "", "systemd-analyze --user verify reports problems")
    }

    func testDesktopEntryHasItsKeys() throws {
        let entry = try String(contentsOf: repositoryFile("packaging/shotguard.desktop"), encoding: .utf8)
        let lines = entry.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "[Desktop Entry]")
        for line in ["Type=Application", "Exec=shotguard watch", "NoDisplay=true", "X-GNOME-Autostart-enabled=true"] {
            XCTAssertTrue(lines.contains(line), "packaging/shotguard.desktop has the line \(line)")
        }
        for key in ["Name=", "Comment="] {
            XCTAssertTrue(lines.contains { $0.hasPrefix(key) }, "packaging/shotguard.desktop has \(key)")
        }
        // Every desktop that follows XDG autostart should start the agent, not a chosen few.
        XCTAssertFalse(lines.contains { $0.hasPrefix("OnlyShowIn=") || $0.hasPrefix("NotShowIn=") })
    }

    /// A failure, not a skip, without the validator: scripts/install-deps.sh installs it.
    func testDesktopFileValidateAcceptsTheEntry() throws {
        let validate = try requireTool("desktop-file-validate", package: "desktop-file-utils")
        let result = try runProgram(validate, [repositoryFile("packaging/shotguard.desktop").path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertEqual(result.stdoutText + result.stderr, "", "desktop-file-validate reports problems")
    }

    // MARK: make install

    /// `make install PREFIX=... DESTDIR=...` writes exactly the expected files with their modes,
    /// copies of the checkout's (the unit with ExecStart under PREFIX), and leaves other files
    /// alone; `make uninstall` with the same arguments removes exactly those files.
    private func checkInstall(prefix: String) throws {
        let make = try requireTool("make", package: "make")
        let destination = try TemporaryFolder(self, label: "destdir").url
        let binary = try shotguardBinary()
        // A file that belongs to someone else, beside where shotguard goes.
        let bystander = destination.appendingPathComponent(String(prefix.dropFirst()) + "/bin/other")
        try FileManager.default.createDirectory(at: bystander.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("other".utf8).write(to: bystander)

        // SWIFT=false: the test installs the binary it was given and never starts a release build.
        let arguments = ["-C", repository.path, "PREFIX=\(prefix)", "DESTDIR=\(destination.path)",
                         "BINARY=\(binary.path)", "SWIFT=false"]
        let install = try runProgram(make, ["install"] + arguments, environment: testEnvironment(home: destination))
        XCTAssertEqual(install.status, 0, "make install: \(install.stdoutText)\(install.stderr)")

        var expected = Self.installedFiles(prefix: prefix)
        expected["/" + String(prefix.dropFirst()) + "/bin/other"] = 0o644
        XCTAssertEqual(try files(under: destination).keys.sorted(), expected.keys.sorted(), "the files make install wrote")
        for (path, mode) in try files(under: destination) where expected[path] != nil && !path.hasSuffix("/other") {
            XCTAssertEqual(String(mode, radix: 8), String(expected[path]!, radix: 8), "mode of \(path)")
        }
        func installed(_ path: String) throws -> Data { try Data(contentsOf: destination.appendingPathComponent(path)) }
        XCTAssertEqual(try installed("\(prefix)/bin/shotguard"), try Data(contentsOf: binary), "the installed binary")
        XCTAssertEqual(try installed("\(prefix)/share/bash-completion/completions/shotguard"),
                       try Data(contentsOf: repositoryFile("completions/shotguard.bash")))
        for path in Self.installedFiles(prefix: prefix).keys {
            let name = URL(fileURLWithPath: path).lastPathComponent
            guard let source = Self.sources[name] else { continue }
            XCTAssertEqual(try installed(path), try Data(contentsOf: repositoryFile(source)), "\(path) is a copy of \(source)")
        }
        let unit = String(decoding: try installed("\(prefix)/lib/systemd/user/shotguard.service"), as: UTF8.self)
        XCTAssertTrue(unit.split(separator: "\n").contains("ExecStart=\(prefix)/bin/shotguard watch"), unit)
        let source = try String(contentsOf: repositoryFile("packaging/shotguard.service"), encoding: .utf8)
        XCTAssertEqual(unit.replacingOccurrences(of: "ExecStart=\(prefix)/bin/", with: "ExecStart=/usr/local/bin/"), source,
                       "the installed unit differs from packaging/shotguard.service only in ExecStart")

        let uninstall = try runProgram(make, ["uninstall"] + arguments, environment: testEnvironment(home: destination))
        XCTAssertEqual(uninstall.status, 0, "make uninstall: \(uninstall.stdoutText)\(uninstall.stderr)")
        XCTAssertEqual(try files(under: destination).keys.sorted(), ["/" + String(prefix.dropFirst()) + "/bin/other"],
                       "make uninstall removes what make install wrote, and nothing else")
    }

    /// The regular files under `folder`, as absolute paths inside it, with their permission bits.
    private func files(under folder: URL) throws -> [String: Int] {
        var found: [String: Int] = [:]
        let base = folder.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return found
        }
        for case let url as URL in walker where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            let path = url.resolvingSymlinksInPath().path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            found[String(path.dropFirst(base.count))] = (attributes[.posixPermissions] as? Int ?? 0) & 0o7777
        }
        return found
    }
}
