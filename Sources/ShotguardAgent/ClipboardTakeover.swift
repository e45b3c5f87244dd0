// Guard's clipboard takeover on top of the X11 layer's clipboard server.
import ShotguardBase
import ShotguardX11

/// Adapts `ClipboardServer` to what guard needs: take CLIPBOARD now, provide the image later.
final class ClipboardTakeover: ClipboardGuardian {
    let server: ClipboardServer
    private let log: Log

    init(server: ClipboardServer, log: Log) {
        self.server = server
        self.log = log
    }

    func takeOver() -> Bool {
        do throws(X11Error) {
            try server.takeOwnership(now: monotonicNow())
            return true
        } catch {
            log.error("guard: cannot take the clipboard: \(error.message)")
            return false
        }
    }

    func provide(_ images: [(target: String, bytes: [UInt8])]) {
        server.provide(images, now: monotonicNow())
    }

    var isPending: Bool { server.state == .pending }

    /// Logs what happened to the served image since the last call (called every loop turn).
    func logEvents() {
        for event in server.takeEvents() {
            switch event {
            case .lost(let owner):
                log.verbose("guard: another client took the clipboard (\(owner.map { "0x" + String($0, radix: 16) } ?? "none"))")
            default:
                log.verbose("guard: clipboard \(event)")
            }
        }
    }
}
