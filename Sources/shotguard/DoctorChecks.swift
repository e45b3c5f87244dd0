// The checks of `shotguard doctor`: each asks the X server, the session bus, the agent or the
// machine one question and says whether protection holds there.
import Glibc
import ShotguardAgent
import ShotguardBase
import ShotguardBus
import ShotguardImaging
import ShotguardRegions
import ShotguardText
import ShotguardX11

struct DoctorChecks {
    let regionsPath: String?

    func run() -> DoctorReport {
        var checks: [DoctorItem] = []
        if let wayland = getenv("WAYLAND_DISPLAY").map({ String(cString: $0) }), !wayland.isEmpty {
            checks.append(DoctorItem(name: "session", state: .hole, detail: "a Wayland session (\(wayland)): native Wayland "
                + "windows and the compositor's screenshots are not seen", fix: "log in to an X11 session"))
        }
        let display: Display?
        do throws(X11Error) {
            display = try Display()
        } catch {
            display = nil
            checks.append(DoctorItem(name: "X display", state: .hole, detail: error.message,
                                     fix: "run shotguard in the X session (DISPLAY set)"))
        }
        if let display { checks += server(display) }
        let bus = sessionBus(&checks)
        if let display { checks += desktop(display, bus: bus) }
        let regions = rules(display, &checks)
        checks += accessibility(display, bus: bus, regions: regions)
        checks.append(ocr(regions))
        checks += agent(display)
        checks += helpers()
        checks.append(holdHelper())
        let name = display?.name ?? (getenv("DISPLAY").map { String(cString: $0) } ?? "none")
        return DoctorReport(display: name, checks: checks, programs: programs(record: display?.hasExtension("RECORD") ?? false))
    }

    /// RECORD, X-Resource, MIT-SHM, Composite, and the compositing manager.
    private func server(_ display: Display) -> [DoctorItem] {
        var items: [DoctorItem] = []
        let libraries = Display.sensingLibrariesFailure
        if !display.hasExtension("RECORD") {
            items.append(DoctorItem(name: "RECORD", state: .hole, detail: "the X server has no RECORD: screen reads, recordings "
                + "and the program behind a screenshot are not seen", fix: "use an X server with RECORD (Xorg has it; Xvfb "
                + "unless started with -extension RECORD)"))
        } else if let libraries {
            items.append(DoctorItem(name: "RECORD", state: .hole, detail: libraries, fix: "install libxtst6 and libxres1"))
        } else {
            items.append(DoctorItem(name: "RECORD", state: .covered, detail: "screen reads are seen as the server runs them"))
        }
        items.append(display.hasExtension("X-Resource")
            ? DoctorItem(name: "X-Resource", state: .covered, detail: "the program behind each read is named")
            : DoctorItem(name: "X-Resource", state: .hole, detail: "the X server has no X-Resource: a read's program cannot be named, "
                + "nor followed to its file", fix: "use an X server with X-Resource (Xorg and Xvfb have it)"))
        items.append(display.hasExtension("MIT-SHM") && display.isLocalSocket
            ? DoctorItem(name: "MIT-SHM", state: .covered, detail: "the agent grabs the screen through shared memory")
            : DoctorItem(name: "MIT-SHM", state: .note, detail: "no shared memory (a remote display?): grabs use XGetImage, slower"))
        items.append(display.hasExtension("Composite")
            ? DoctorItem(name: "Composite", state: .covered, detail: "a window's pixmap named by a reader is traced to the window")
            : DoctorItem(name: "Composite", state: .note, detail: "no Composite: no compositing manager can run, nor read windows' pixmaps"))
        // TigerVNC's Xvnc is the X server and the VNC server at once: it sends its own frame buffer.
        if display.hasExtension("VNC-EXTENSION") {
            items.append(DoctorItem(name: "remote desktop", state: .hole, detail: "this display is a VNC server's (Xvnc): what it "
                + "shows goes to every viewer without a request the agent could see", fix: "protect windows from the viewer's "
                + "side, or share through x11vnc on a local display (its reads are seen)"))
        }
        if let owner = display.selectionOwner("_NET_WM_CM_S0") {
            let name = display.program(ofWindow: owner) ?? "a compositing manager"
            items.append(DoctorItem(name: "compositing manager", state: .note, detail: "\(name): the shield paints its covers "
                + "into the screen and past the manager's overlay window as it maps them, so they show before its next frame"))
        } else {
            items.append(DoctorItem(name: "compositing manager", state: .covered, detail: "none: shield covers show the moment they map"))
        }
        return items
    }

    /// The session bus; nil (a hole) without one.
    private func sessionBus(_ checks: inout [DoctorItem]) -> SessionBus? {
        do throws(BusError) {
            let bus = try SessionBus.user()
            checks.append(DoctorItem(name: "session bus", state: .covered, detail: "status, pause, notifications and the tray's menu reach the agent"))
            return bus
        } catch {
            checks.append(DoctorItem(name: "session bus", state: .hole, detail: "\(error): 'shotguard status', pause, "
                + "notifications and StatusNotifierItem trays cannot reach the agent",
                fix: "start the X session with a D-Bus session bus (dbus-user-session, or dbus-run-session in ~/.xinitrc)"))
            return nil
        }
    }

    /// The notification server and the tray.
    private func desktop(_ display: Display, bus: SessionBus?) -> [DoctorItem] {
        var items: [DoctorItem] = []
        if let bus {
            let notifications = (try? bus.provides(Notifier.service)) ?? false
            items.append(notifications
                ? DoctorItem(name: "notifications", state: .covered, detail: "a notification server shows what the agent did")
                : DoctorItem(name: "notifications", state: .note, detail: "no notification server: the agent's notifications are "
                    + "not shown", fix: "install one (dunst, xfce4-notifyd)"))
        }
        let xembed = display.selectionOwner("_NET_SYSTEM_TRAY_S0").map { display.program(ofWindow: $0) ?? "a tray" }
        let watcher = bus.flatMap { try? $0.isOwned(StatusNotifierItem.watcherName) } ?? false
        if let xembed {
            items.append(DoctorItem(name: "tray", state: .covered, detail: "\(xembed) shows the agent's icon (XEmbed)"
                + (watcher ? "; a StatusNotifierItem host runs too" : "")))
        } else if watcher {
            items.append(DoctorItem(name: "tray", state: .covered, detail: "a StatusNotifierItem host shows the agent's icon"))
        } else {
            items.append(DoctorItem(name: "tray", state: .note, detail: "no tray: the agent's state shows only in 'shotguard status' "
                + "(the recording mark still shows)"))
        }
        return items
    }

    /// The regions file and system policy, and what the rules hit now.
    private func rules(_ display: Display?, _ checks: inout [DoctorItem]) -> RegionsFile? {
        let regions: RegionsFile?
        do throws(RegionsError) {
            regions = try RegionsPolicy.load(userPath: regionsPath)
        } catch {
            checks.append(DoctorItem(name: "rules", state: .hole, detail: error.description,
                                     fix: "fix that line (shotguard-regions(5)); the agent keeps its last good rules or does not start"))
            return nil
        }
        guard let regions, !regions.coverRules.isEmpty else {
            checks.append(DoctorItem(name: "rules", state: .hole, detail: "no rules: nothing is protected",
                                     fix: "shotguard regions add --pick (or --preset keepassxc; --list-presets)"))
            return regions
        }
        var detail = "\(regions.rules.count) rule\(regions.rules.count == 1 ? "" : "s") in \(regions.path)"
        if let display {
            let resolutions = regions.resolve(against: display.screenContext())
            let idle = resolutions.filter { $0.rule.target != .text && !$0.rule.isAllow && $0.hits.isEmpty }.map { String($0.rule.line) }
            let hits = resolutions.flatMap(\.hits).count
            detail += "; \(hits) rectangle\(hits == 1 ? "" : "s") covered now"
                + (idle.isEmpty ? "" : "; line\(idle.count == 1 ? "" : "s") \(idle.joined(separator: ", ")) hit nothing now")
        }
        checks.append(DoctorItem(name: "rules", state: .covered, detail: detail))
        if !regions.systemPaths.isEmpty {
            checks.append(DoctorItem(name: "system policy", state: .note, detail: regions.systemPaths.joined(separator: ", ")
                + (regions.lock != nil ? ": locked (no pause, no --no-guard)" : "")))
        } else {
            checks.append(DoctorItem(name: "system policy", state: .note, detail: "none"))
        }
        return regions
    }

    /// The accessibility bus, which `field` rules need.
    private func accessibility(_ display: Display?, bus: SessionBus?, regions: RegionsFile?) -> [DoctorItem] {
        let present = (display?.advertisesAccessibilityBus ?? false) || ((try? bus?.isOwned("org.a11y.Bus")) ?? false) == true
        let needed = regions?.rules.contains { $0.target == .field } ?? false
        if present { return [DoctorItem(name: "accessibility bus", state: .covered, detail: "field rules find password fields")] }
        return [DoctorItem(name: "accessibility bus", state: needed ? .hole : .note,
                           detail: "none" + (needed ? ": field rules hit nothing" : " (only field rules need it)"),
                           fix: needed ? "install at-spi2-core; Qt: QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1; Chromium: --force-renderer-accessibility" : nil)]
    }

    /// Tesseract and its English model, which `text` rules need.
    private func ocr(_ regions: RegionsFile?) -> DoctorItem {
        let needed = regions?.hasTextRules ?? false
        guard let missing = OCRCheck.unavailable() else {
            return DoctorItem(name: "Tesseract", state: .covered, detail: "text rules can read screenshots (English model)")
        }
        return DoctorItem(name: "Tesseract", state: needed ? .hole : .note,
                          detail: missing.reason + (needed ? "; screenshots with text rules are set aside" : " (only text rules need it)"),
                          fix: needed ? "apt install libtesseract5 tesseract-ocr-eng" : nil)
    }

    /// The running agent, its settings, and the display it watches.
    private func agent(_ display: Display?) -> [DoctorItem] {
        var items: [DoctorItem] = []
        switch AgentConnection.status() {
        case .noAgent(let why), .failed(let why):
            items.append(DoctorItem(name: "agent", state: .hole, detail: why,
                                    fix: "systemctl --user enable --now shotguard.service (or shotguard watch)"))
        case .agent(let status):
            let sources = status.sources.joined(separator: ", ")
            switch status.protection {
            case .protecting:
                items.append(DoctorItem(name: "agent", state: .covered, detail: "protecting display \(status.display) (\(sources))"))
            case .paused(let until):
                items.append(DoctorItem(name: "agent", state: .hole, detail: until.map { "paused until \(StatusReport.clock($0))" }
                    ?? "paused until resumed", fix: "shotguard resume"))
            case .off(let why):
                items.append(DoctorItem(name: "agent", state: .hole, detail: "not protecting: \(why)",
                                        fix: "shotguard regions add --pick"))
            }
            if let display, !status.display.isEmpty, status.display != display.name {
                items.append(DoctorItem(name: "agent display", state: .hole, detail: "the agent watches \(status.display), not "
                    + "\(display.name)", fix: "start the agent in this session (shotguard autostart)"))
            }
        }
        items.append(settings())
        return items
    }

    /// Programs reading the screen past the X server now (NvFBC, DRM/KMS helpers).
    private func helpers() -> [DoctorItem] {
        CaptureHelpersRunning.now().map { helper in
            DoctorItem(name: "capture helper", state: .note, detail: "\(helper.program) (pid \(helper.pid)) reads the screen past the "
                + "X server (\(helper.means)): the agent covers every protected area while it runs")
        }
    }

    /// The optional hold helper (root): other programs' opens of a screenshot wait for guard.
    private func holdHelper() -> DoctorItem {
        let path = OpenersHold.defaultPath
        guard let why = OpenersHold.unreachable(at: path) else {
            return DoctorItem(name: "hold helper", state: .covered, detail: "shotguard-hold at \(path): other programs' opens of a "
                + "screenshot wait until guard has redacted it")
        }
        return DoctorItem(name: "hold helper", state: .note, detail: "not reachable (\(why)): a copy made the moment a screenshot "
            + "is written (scrot f && cp f g) can keep its protected pixels for a tenth of a second",
            fix: "sudo systemctl enable --now shotguard-hold.service (a system-wide install puts it there)")
    }

    /// What agent.conf sets, as the agent reads it.
    private func settings() -> DoctorItem {
        do throws(CLIError) {
            let config = try AgentConfig.read(path: nil, spec: WatchCommand.spec)
            let set = config.entries.map(\.option.long)
            return DoctorItem(name: "agent settings", state: .note, detail: set.isEmpty ? "none in \(config.path) (watch's defaults)"
                : "\(config.path): " + Array(Set(set)).sorted().joined(separator: ", "))
        } catch {
            return DoctorItem(name: "agent settings", state: .hole, detail: error.message,
                              fix: "fix that line (shotguard-agent.conf(5)); the agent does not start with it")
        }
    }

    /// The capture programs installed, and whether the agent sees them.
    private func programs(record: Bool) -> [DoctorItem] {
        CaptureProgram.known.filter { programExists($0.program) }.map { program, seen in
            switch seen {
            case .reads:
                return record ? DoctorItem(name: program, state: .covered, detail: "its reads are seen (RECORD), its images guarded")
                    : DoctorItem(name: program, state: .hole, detail: "its reads are not seen without RECORD",
                                 fix: "an X server with RECORD (see above)")
            case .tool:
                return DoctorItem(name: program, state: .covered, detail: "its window, file and clipboard image are followed")
            case .unseen(let why):
                return DoctorItem(name: program, state: .hole, detail: why,
                                  fix: "its captures cannot be covered: close protected windows before using it, or remove it")
            case .note(let what):
                return DoctorItem(name: program, state: .note, detail: what)
            }
        }
    }
}
