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

    func release(reason: String) {
        server.release(reason: reason, now: monotonicNow())
    }

    /// Logs what happened to the served image since the last call (called every loop turn).
    func logEvents() {
        for event in server.takeEvents() {
            switch event {
            case .lost(let owner):
                log.verbose("guard: another client took the clipboard (\(owner.map { hexID($0) } ?? "none"))")
            case .served(let target, let requestor, let bytes, let incremental):
                log.verbose("guard: served \(target) (\(bytes) bytes\(incremental ? ", INCR" : "")) to \(hexID(requestor))")
            case .refused(let target, let requestor, let reason):
                log.verbose("guard: refused \(target) to \(hexID(requestor)): \(reason)")
            case .transferAbandoned(let requestor):
                log.verbose("guard: abandoned an INCR transfer to \(hexID(requestor)): it made no progress")
            case .handedOff(let manager, let saved):
                log.verbose("guard: the clipboard manager \(hexID(manager)) \(saved ? "saved" : "did not save") the image")
            }
        }
    }
}
