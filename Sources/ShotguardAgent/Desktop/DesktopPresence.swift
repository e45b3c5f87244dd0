// The agent's state on the desktop: the tray icon (XEmbed, and StatusNotifierItem when a host
// runs) and the recording mark, shown from a PresenceState and answering the menu's choices.
import Glibc
import ShotguardBase
import ShotguardBus
import ShotguardX11

/// Shows a `PresenceState` in every way the desktop has: the XEmbed icon and its menu and the
/// recording mark (its own X connection), and the StatusNotifierItem on the session bus. While a
/// StatusNotifierItem host shows the item, the XEmbed icon stands aside, so a panel that
/// speaks both shows one icon. Missing pieces (no tray, no host, no bus) show nothing and fail
/// nothing.
final class DesktopPresence {
    private let windows: PresenceWindows?
    private var item: StatusNotifierItem?
    private let tray: Bool
    private let log: Log
    private var shown: PresenceState?
    private var docked = false

    init(tray: Bool, indicator: Bool, log: Log) {
        self.tray = tray
        self.log = log
        guard tray || indicator else {
            windows = nil
            return
        }
        do throws(X11Error) {
            windows = try PresenceWindows(displayName: nil, tray: tray, indicator: indicator)
        } catch {
            log.warning("no tray icon or recording mark: \(error.message)")
            windows = nil
        }
    }

    /// Puts the item on `bus` (a StatusNotifierItem host may show it from now on).
    func attach(to bus: SessionBus, chosen: @escaping (TrayAction) -> Void) {
        guard tray, item == nil else { return }
        let look = PresenceLook(shown ?? PresenceState(protection: .off(why: "starting")), clock: Self.clock)
        do throws(BusError) {
            let item = try StatusNotifierItem(bus: bus, look: Self.busLook(look))
            item.chosen = { id in TrayAction(rawValue: Int(id)).map(chosen) }
            item.registrationChanged = { [weak self] registered in
                self?.windows?.trayWanted = !registered
                self?.log.verbose(registered ? "tray: shown by a StatusNotifierItem host" : "tray: no StatusNotifierItem host")
                self?.say()
            }
            self.item = item
        } catch {
            log.verbose("no StatusNotifierItem on the session bus: \(error)")
        }
    }

    /// The bus is gone: so is the item (the XEmbed icon shows again).
    func detach() {
        item = nil
        windows?.trayWanted = true
    }

    /// Shows `state`, when it differs from what is shown.
    func show(_ state: PresenceState) {
        guard state != shown else { return }
        shown = state
        let look = PresenceLook(state, clock: Self.clock)
        if let windows {
            let icon = look.iconKind
            windows.setIcon { TrayArt.render(icon, width: $0, height: $1) }
            windows.setMenu(look.menu.map { line in
                switch line.kind {
                case .state: return PresenceMenuItem(label: line.label, enabled: false)
                case .separator: return PresenceMenuItem(label: "", enabled: false, isSeparator: true)
                case .action(let action): return PresenceMenuItem(label: line.label, enabled: line.enabled, tag: action.rawValue)
                }
            })
            windows.setRecording(look.indicator)
        }
        item?.update(Self.busLook(look))
        say()
    }

    /// The X connection's descriptor for the loop.
    var descriptor: LoopDescriptor? {
        guard let windows, windows.fileDescriptor >= 0 else { return nil }
        return LoopDescriptor(fd: windows.fileDescriptor, events: Int16(POLLIN)) { _ in }
    }

    /// Handles the X connection's events; returns the menu's choices.
    func process(now: Double) -> [TrayAction] {
        guard let windows else { return [] }
        let chosen = windows.process(now: now).compactMap { TrayAction(rawValue: $0) }
        if windows.isDocked != docked { say() }
        return chosen
    }

    /// Says what is shown on the event stream (tests wait on it: the icon docked, its look).
    private func say() {
        guard let shown else { return }
        docked = windows?.isDocked ?? false
        let look = PresenceLook(shown, clock: Self.clock)
        log.events.say("presence", [("icon", .string(look.iconKind.rawValue)), ("status", .string(look.status)),
                                    ("docked", .bool(docked)), ("item", .bool(item?.isRegistered ?? false)),
                                    ("indicator", look.indicator.map { .string($0) } ?? .null)])
    }

    private static func busLook(_ look: PresenceLook) -> TrayLook {
        TrayLook(status: look.status, iconName: look.iconName, pixmaps: TrayArt.pixmaps(look.iconKind), title: "shotguard",
                 toolTipTitle: "shotguard", toolTipText: look.headline, menu: look.busMenu)
    }

    /// `14:05`, local time.
    static func clock(_ wall: Double) -> String {
        let time = CalendarTime(wall)
        return "\(CalendarTime.pad(time.hour)):\(CalendarTime.pad(time.minute))"
    }
}
