// The systemd user unit, the XDG autostart entry, and `make install` / `make uninstall`.
import Foundation
import Glibc
import ShotguardTestSupport
import XCTest

final class PackagingTests: XCTestCase {
    /// Every file `make install` writes for a system PREFIX, relative to DESTDIR, with its mode.
    static func installedFiles(prefix: String, autostart: Bool = false) -> [String: Int] {
        var files = [
            "\(prefix)/bin/shotguard": 0o755,
            "\(prefix)/share/man/man1/shotguard.1": 0o644,
            "\(prefix)/share/man/man5/shotguard-regions.5": 0o644,
            "\(prefix)/share/man/man5/shotguard-agent.conf.5": 0o644,
            "\(prefix)/share/bash-completion/completions/shotguard": 0o644,
            "\(prefix)/share/zsh/site-functions/_shotguard": 0o644,
            "\(prefix)/share/fish/vendor_completions.d/shotguard.fish": 0o644,
            "\(prefix)/lib/systemd/user/shotguard.service": 0o644,
            "\(prefix)/share/shotguard/shotguard.desktop": 0o644,
            "\(prefix)/share/shotguard/installed": 0o644,
            "\(prefix)/libexec/shotguard/shotguard-hold": 0o755,
            "\(prefix)/share/man/man8/shotguard-hold.8": 0o644,
            "\(prefix)/lib/systemd/system/shotguard-hold.service": 0o644,
        ]
        for preset in presets { files["\(prefix)/share/shotguard/presets/\(preset)"] = 0o644 }
        if autostart { files["/etc/xdg/autostart/shotguard.desktop"] = 0o644 }
        return files
    }

    /// The presets of `regions add --preset`, as the checkout's presets/ holds them.
    static var presets: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: repositoryFile("presets").path)) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// The source in the checkout of each file installed as a plain copy, by its name.
    static let sources = [
        "shotguard.1": "man/shotguard.1",
        "shotguard-regions.5": "man/shotguard-regions.5",
        "shotguard-agent.conf.5": "man/shotguard-agent.conf.5",
        "shotguard-hold.8": "man/shotguard-hold.8",
        "keepassxc": "presets/keepassxc",
        "shotguard.fish": "completions/shotguard.fish",
        "_shotguard": "completions/_shotguard",
    ]

    func testInstallThenUninstallWithPrefixUsrLocal() throws { try checkInstall(prefix: "/usr/local", autostart: false) }
    func testInstallThenUninstallWithPrefixUsrAndAutostart() throws { try checkInstall(prefix: "/usr", autostart: true) }

    func testServiceUnitHasItsKeys() throws {
        let unit = try String(contentsOf: repositoryFile("packaging/shotguard.service"), encoding: .utf8)
        let keys = Set(unit.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
        for line in ["[Unit]", "Documentation=man:shotguard(1) man:shotguard-regions(5)", "PartOf=graphical-session.target",
                     "After=graphical-session.target", "StartLimitIntervalSec=60", "StartLimitBurst=3", "[Service]",
                     "ExecStart=/usr/local/bin/shotguard watch", "ExecReload=/bin/kill -HUP $MAINPID", "Restart=on-failure",
                     "RestartSec=2", "RestartPreventExitStatus=2", "[Install]", "WantedBy=graphical-session.target"] {
            XCTAssertTrue(keys.contains(line), "packaging/shotguard.service has the line \(line)")
        }
        XCTAssertTrue(keys.contains { $0.hasPrefix("Description=") }, "packaging/shotguard.service has a Description")
        // Nothing that needs the graphical target to be reached: a plain X session starts it by hand.
        XCTAssertFalse(keys.contains { $0.hasPrefix("Requires=") || $0.hasPrefix("BindsTo=") || $0.hasPrefix("Requisite=") })
    }

    /// `systemd-analyze verify` on the unit as installed, with ExecStart pointed at the built
    /// binary (the installed path does not exist here) and the man pages of Documentation= on
    /// MANPATH.
    func testSystemdAnalyzeVerifiesTheUnit() throws {
        let analyze = try requireTool("systemd-analyze", package: "systemd")
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
        // The entry starts the unit where a user manager has it, the agent otherwise: never both.
        for line in ["Type=Application", "TryExec=shotguard", "Exec=shotguard autostart", "NoDisplay=true",
                     "X-GNOME-Autostart-enabled=true"] {
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

    /// `make install PREFIX=... DESTDIR=...` builds the release binary (with a stand-in for
    /// swift, so no test builds a release) and installs exactly that one, stripped; writes
    /// exactly the expected files with their modes, copies of the checkout's (the unit and
    /// the entry with shotguard's path under PREFIX); and leaves other files alone. `make
    /// uninstall` with the same arguments removes exactly those files and the folders install
    /// made, but not a folder that was there before.
    private func checkInstall(prefix: String, autostart: Bool) throws {
        let make = try requireTool("make", package: "make")
        let destination = try TemporaryFolder(self, label: "destdir").url
        let relative = String(prefix.dropFirst())
        // A file that belongs to someone else, beside where shotguard goes, and an empty folder
        // that another package made (zsh-common makes site-functions under /usr/local).
        let bystander = destination.appendingPathComponent(relative + "/bin/other")
        try FileManager.default.createDirectory(at: bystander.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("other".utf8).write(to: bystander)
        let zshFolder = destination.appendingPathComponent(relative + "/share/zsh/site-functions")
        try FileManager.default.createDirectory(at: zshFolder, withIntermediateDirectories: true)

        let swift = try FakeSwift(self)
        let arguments = ["-C", repository.path, "PREFIX=\(prefix)", "DESTDIR=\(destination.path)", "SWIFT=\(swift.script.path)",
                         "BINARY=/nonexistent/old/shotguard"] + (autostart ? ["AUTOSTART=1"] : [])
        let install = try runProgram(make, ["install"] + arguments, environment: swift.environment(home: destination))
        XCTAssertEqual(install.status, 0, "make install: \(install.stdoutText)\(install.stderr)")
        XCTAssertEqual(try swift.builds(), ["build -c release --static-swift-stdlib --product shotguard",
                                            "build -c release --static-swift-stdlib --product shotguard-hold"],
                       "make install builds the release, warnings not as errors")

        var expected = Self.installedFiles(prefix: prefix, autostart: autostart)
        expected["/\(relative)/bin/other"] = 0o644
        let found = try files(under: destination)
        XCTAssertEqual(found.keys.sorted(), expected.keys.sorted(), "the files make install wrote")
        for (path, mode) in found where expected[path] != nil && !path.hasSuffix("/other") {
            XCTAssertEqual(String(mode, radix: 8), String(expected[path]!, radix: 8), "mode of \(path)")
        }
        func installed(_ path: String) throws -> Data { try Data(contentsOf: destination.appendingPathComponent(path)) }
        try checkStripped(destination.appendingPathComponent("\(prefix)/bin/shotguard"), builtBy: swift)
        XCTAssertEqual(try installed("\(prefix)/share/bash-completion/completions/shotguard"),
                       try Data(contentsOf: repositoryFile("completions/shotguard.bash")))
        for path in Self.installedFiles(prefix: prefix).keys {
            guard let source = Self.sources[URL(fileURLWithPath: path).lastPathComponent] else { continue }
            XCTAssertEqual(try installed(path), try Data(contentsOf: repositoryFile(source)), "\(path) is a copy of \(source)")
        }
        try checkRewritten(String(decoding: try installed("\(prefix)/lib/systemd/user/shotguard.service"), as: UTF8.self),
                           source: "packaging/shotguard.service", bin: "\(prefix)/bin")
        let helperUnit = String(decoding: try installed("\(prefix)/lib/systemd/system/shotguard-hold.service"), as: UTF8.self)
        XCTAssertTrue(helperUnit.split(separator: "\n").contains("ExecStart=\(prefix)/libexec/shotguard/shotguard-hold"), helperUnit)
        let entry = String(decoding: try installed("\(prefix)/share/shotguard/shotguard.desktop"), as: UTF8.self)
        try checkRewritten(entry, source: "packaging/shotguard.desktop", bin: "\(prefix)/bin")
        if autostart {
            XCTAssertEqual(String(decoding: try installed("/etc/xdg/autostart/shotguard.desktop"), as: UTF8.self), entry)
        }

        let uninstall = try runProgram(make, ["uninstall"] + arguments, environment: swift.environment(home: destination))
        XCTAssertEqual(uninstall.status, 0, "make uninstall: \(uninstall.stdoutText)\(uninstall.stderr)")
        XCTAssertEqual(try files(under: destination).keys.sorted(), ["/\(relative)/bin/other"],
                       "make uninstall removes what make install wrote, and nothing else")
        // The folders the test made before install, and their parents.
        var before: Set<String> = []
        for made in ["/\(relative)/bin", "/\(relative)/share/zsh/site-functions"] {
            var path = made
            while path != "" {
                before.insert(path)
                path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            }
        }
        XCTAssertEqual(try folders(under: destination), before.sorted(),
                       "the folders install made are gone; those that were there before stay")
    }

    /// A DESTDIR that does not exist yet, as dh_prep leaves it for a Debian package, with the
    /// variables debian/rules passes: install walked up past "/" looking for a folder that
    /// existed, forever.
    func testInstallIntoADestdirThatDoesNotExistYet() throws {
        let make = try requireTool("make", package: "make")
        let destination = try TemporaryFolder(self, label: "package").url.appendingPathComponent("debian/shotguard")
        let swift = try FakeSwift(self)
        let install = try runProgram(make, ["-C", repository.path, "install", "PREFIX=/usr", "DESTDIR=\(destination.path)",
                                            "SWIFT=\(swift.script.path)", "STRIP=true", "MANIFEST=",
                                            "ZSHCOMPDIR=/usr/share/zsh/vendor-completions"],
                                     environment: swift.environment(home: destination.deletingLastPathComponent()),
                                     timeout: 60)
        XCTAssertEqual(install.status, 0, "make install: \(install.stdoutText)\(install.stderr)")
        var expected = Self.installedFiles(prefix: "/usr")
        expected["/usr/share/shotguard/installed"] = nil
        expected["/usr/share/zsh/site-functions/_shotguard"] = nil
        expected["/usr/share/zsh/vendor-completions/_shotguard"] = 0o644
        XCTAssertEqual(try files(under: destination).keys.sorted(), expected.keys.sorted(), "no manifest in a package")
        XCTAssertEqual(try Data(contentsOf: destination.appendingPathComponent("usr/bin/shotguard")),
                       try Data(contentsOf: swift.products.appendingPathComponent("shotguard")),
                       "STRIP=true leaves stripping to the packaging")
    }

    /// The Debian package's version is the one `shotguard --version` prints.
    func testDebianChangelogNamesTheBinarysVersion() throws {
        let parse = try requireTool("dpkg-parsechangelog", package: "dpkg-dev")
        let changelog = try runProgram(parse, ["-l", repositoryFile("debian/changelog").path, "-S", "Version"])
        XCTAssertEqual(changelog.status, 0, changelog.stderr)
        let version = try runProgram(try shotguardBinary(), ["--version"])
        XCTAssertEqual("shotguard " + changelog.stdoutText, version.stdoutText)
    }

    /// `PREFIX=~/.local` for one user, run as a user who is not root (nobody, when the tests
    /// run as root): everything lands in the home folder, in the places the user manager and
    /// the session read, and uninstall leaves the home folder as it was.
    func testInstallForOneUserWithoutRoot() throws {
        let make = try requireTool("make", package: "make")
        let home = try TemporaryFolder(self, label: "home").url
        let swift = try FakeSwift(self)
        var source = repository
        if getuid() == 0 {
            // nobody may not enter the checkout (a clone in a private temporary folder): it
            // installs from a copy of what make install reads.
            source = try TemporaryFolder(self, label: "source").url
            for input in ["Makefile", "scripts", "packaging", "man", "completions", "presets"] {
                try FileManager.default.copyItem(at: repositoryFile(input), to: source.appendingPathComponent(input))
            }
        }
        var command = [make.path, "-C", source.path, "PREFIX=~/.local", "SWIFT=\(swift.script.path)", "AUTOSTART=1"]
        if getuid() == 0 {
            let setpriv = try requireTool("setpriv", package: "util-linux")
            let nobody: UInt32 = 65534
            try chown(home, to: nobody)
            try chown(swift.folder, to: nobody)
            try chown(source, to: nobody)
            command = [setpriv.path, "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"] + command
        }
        var environment = swift.environment(home: home)
        environment["XDG_CONFIG_HOME"] = nil
        let install = try runProgram(URL(fileURLWithPath: command[0]), Array(command.dropFirst()) + ["install"],
                                     environment: environment)
        XCTAssertEqual(install.status, 0, "make install: \(install.stdoutText)\(install.stderr)")
        XCTAssertEqual(try files(under: home).keys.sorted(), ([
            "/.config/autostart/shotguard.desktop",
            "/.local/bin/shotguard",
            "/.local/share/bash-completion/completions/shotguard",
            "/.local/share/fish/vendor_completions.d/shotguard.fish",
            "/.local/share/man/man1/shotguard.1",
            "/.local/share/man/man5/shotguard-agent.conf.5",
            "/.local/share/man/man5/shotguard-regions.5",
            "/.local/share/shotguard/installed",
            "/.local/share/shotguard/shotguard.desktop",
            "/.local/share/systemd/user/shotguard.service",
            "/.local/share/zsh/site-functions/_shotguard",
        ] + Self.presets.map { "/.local/share/shotguard/presets/\($0)" }).sorted())
        try checkStripped(home.appendingPathComponent(".local/bin/shotguard"), builtBy: swift)
        let unit = try String(contentsOf: home.appendingPathComponent(".local/share/systemd/user/shotguard.service"),
                              encoding: .utf8)
        let bin = home.resolvingSymlinksInPath().appendingPathComponent(".local/bin").path
        XCTAssertTrue(unit.split(separator: "\n").contains("ExecStart=\(bin)/shotguard watch"), unit)

        // What `systemctl --user enable shotguard.service` makes: a link in the user's configuration.
        let wants = home.appendingPathComponent(".config/systemd/user/graphical-session.target.wants")
        try FileManager.default.createDirectory(at: wants, withIntermediateDirectories: true)
        let link = wants.appendingPathComponent("shotguard.service")
        try FileManager.default.createSymbolicLink(
            atPath: link.path, withDestinationPath: home.appendingPathComponent(".local/share/systemd/user/shotguard.service").path)
        if getuid() == 0 { try chown(home, to: 65534) }

        let uninstall = try runProgram(URL(fileURLWithPath: command[0]), Array(command.dropFirst()) + ["uninstall"],
                                       environment: environment)
        XCTAssertEqual(uninstall.status, 0, "make uninstall: \(uninstall.stdoutText)\(uninstall.stderr)")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: link.path),
                     "make uninstall removes the link enabling the unit made, not to leave it dangling")
        XCTAssertEqual(try folders(under: home),
                       ["/.config", "/.config/systemd", "/.config/systemd/user", "/.config/systemd/user/graphical-session.target.wants"],
                       "the home folder is as it was: the enabled unit's folders, nothing of shotguard's")
    }

    // MARK: helpers

    /// The installed binary is the one the release build made, stripped, and it runs.
    private func checkStripped(_ binary: URL, builtBy swift: FakeSwift, file: StaticString = #filePath, line: UInt = #line) throws {
        let fileTool = try requireTool("file", package: "file", file: file, line: line)
        let described = try runProgram(fileTool, ["-b", binary.path], file: file, line: line).stdoutText
        XCTAssertTrue(described.contains(", stripped"), "file says: \(described)", file: file, line: line)
        let strip = try requireTool("strip", package: "binutils", file: file, line: line)
        let expected = swift.folder.appendingPathComponent("expected")
        let stripped = try runProgram(strip, ["-o", expected.path, swift.products.appendingPathComponent("shotguard").path],
                                      file: file, line: line)
        XCTAssertEqual(stripped.status, 0, stripped.stderr, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: binary), try Data(contentsOf: expected),
                       "the installed binary is the release build's, stripped", file: file, line: line)
        let version = try runProgram(binary, ["--version"], file: file, line: line)
        XCTAssertEqual(version.status, 0, version.stderr, file: file, line: line)
        XCTAssertTrue(version.stdoutText.hasPrefix("shotguard "), version.stdoutText, file: file, line: line)
    }

    /// An installed unit or entry is its source with shotguard's path under `bin` and nothing else changed.
    private func checkRewritten(_ installed: String, source: String, bin: String,
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let original = try String(contentsOf: repositoryFile(source), encoding: .utf8)
        let back = installed.replacingOccurrences(of: "\(bin)/shotguard", with: "/usr/local/bin/shotguard")
        let expected = original.replacingOccurrences(of: "Exec=shotguard", with: "Exec=/usr/local/bin/shotguard")
        XCTAssertEqual(back, expected, "\(source) as installed differs only in shotguard's path", file: file, line: line)
        XCTAssertTrue(installed.contains("\(bin)/shotguard"), installed, file: file, line: line)
    }

    private func chown(_ url: URL, to user: UInt32) throws {
        let walker = FileManager.default.enumerator(atPath: url.path)
        for path in [url.path] + (walker?.allObjects as? [String] ?? []).map({ url.appendingPathComponent($0).path }) {
            guard Glibc.chown(path, user, user) == 0 else { throw CocoaError(.fileWriteNoPermission) }
        }
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

    /// The folders under `folder`, as sorted absolute paths inside it.
    private func folders(under folder: URL) throws -> [String] {
        let base = folder.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey]) else {
            return []
        }
        var found: [String] = []
        for case let url as URL in walker where try url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true {
            found.append(String(url.resolvingSymlinksInPath().path.dropFirst(base.count)))
        }
        return found.sorted()
    }
}

/// Stands in for swift in the install tests: `build ... --show-bin-path` prints its products
/// folder; `build ...` records its arguments and "builds" by copying the debug shotguard there.
/// No test builds a release for real.
struct FakeSwift {
    let folder: URL
    let script: URL
    let products: URL
    private let log: URL

    init(_ test: XCTestCase) throws {
        folder = try TemporaryFolder(test, label: "swift").url
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        script = folder.appendingPathComponent("swift")
        products = folder.appendingPathComponent("release")
        log = folder.appendingPathComponent("builds")
        // A copy beside the script: a build run as another user may not enter the checkout.
        let built = folder.appendingPathComponent("built")
        try FileManager.default.copyItem(at: try shotguardBinary(), to: built)
        try """
            #!/bin/sh
            case " $* " in
                *" --show-bin-path "*) echo "\(products.path)"; exit 0 ;;
            esac
            echo "$*" >> "\(log.path)"
            product=shotguard; previous=
            for argument in "$@"; do [ "$previous" = --product ] && product=$argument; previous=$argument; done
            mkdir -p "\(products.path)" && cp "\(built.path)" "\(products.path)/$product"
            """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    }

    /// The arguments of each build it was asked for.
    func builds() throws -> [String] {
        guard FileManager.default.fileExists(atPath: log.path) else { return [] }
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func environment(home: URL) -> [String: String] { testEnvironment(home: home) }
}
