// The agent's object on the session bus: answers Status, Pause, Resume and Reload through an
// AgentControl, and emits the agent's signals.
import CSystemdBus
import Glibc

/// `org.shotguard.Agent1` at `/org/shotguard/Agent1`, owning the well-known name
/// `org.shotguard.Agent1` (see `AgentInterface`). Introspectable: sd-bus answers
/// org.freedesktop.DBus.Introspectable, Peer and Properties for the object.
///
/// The method handlers are C callbacks; each gets this object back through the userdata
/// pointer, unretained: the object outlives the registration, which its deinit removes.
/// The session bus admits only the user's own connections, so every method is open to them.
public final class AgentBusService {
    private let bus: SessionBus
    private weak var control: AgentControl?
    private let vtable: BusVTable
    private var slot: OpaquePointer?
    private var ownsName = false

    /// Registers the object on `bus`, then asks for the name. Throws `.nameTaken` when another
    /// connection owns it (an agent of another display on the same session bus).
    public init(bus: SessionBus, control: AgentControl) throws(BusError) {
        self.bus = bus
        self.control = control
        vtable = BusVTable(methods: [(AgentInterface.status, Self.statusHandler), (AgentInterface.pause, Self.pauseHandler),
                                     (AgentInterface.resume, Self.resumeHandler), (AgentInterface.reload, Self.reloadHandler),
                                     (AgentInterface.sendReports, Self.sendReportsHandler)],
                           signals: AgentInterface.signals)
        let connection = try bus.connection()
        var slot: OpaquePointer?
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        try checked(sg_sd_bus_add_object_vtable(connection, &slot, AgentInterface.objectPath, AgentInterface.name,
                                             vtable.entries, userdata), "cannot register \(AgentInterface.objectPath)")
        self.slot = slot
        let result = sg_sd_bus_request_name(connection, AgentInterface.busName, 0)
        if result == -EEXIST {
            sg_sd_bus_slot_unref(slot)
            self.slot = nil
            throw .nameTaken(AgentInterface.busName)
        }
        if result < 0 {
            sg_sd_bus_slot_unref(slot)
            self.slot = nil
            throw .call("cannot own \(AgentInterface.busName) on the session bus", errno: -result)
        }
        ownsName = true
    }

    deinit {
        // Unregistering first: no handler can reach this object once it is gone.
        if let slot { sg_sd_bus_slot_unref(slot) }
        if ownsName, let connection = try? bus.connection() {
            _ = sg_sd_bus_release_name_async(connection, nil, AgentInterface.busName, nil, nil)
        }
    }

    // MARK: signals (the agent calls these; each is queued and written by process())

    /// A screenshot was reported: its report id and what guard did ("redacted 2 areas").
    public func screenshotReported(id: String, outcome: String) {
        emit(AgentInterface.screenshotReported) { (message) throws(BusError) in
            try message.append(id)
            try message.append(outcome)
        }
    }

    /// A report was written: its id and its JSON, for `shotguard reports follow` and scripts.
    public func reported(id: String, report: String) {
        emit(AgentInterface.reported) { (message) throws(BusError) in
            try message.append(id)
            try message.append(report)
        }
    }

    /// Guard set a screenshot's original aside (`shotguard quarantine restore ID` puts it back).
    public func fileQuarantined(id: String, path: String) {
        emit(AgentInterface.fileQuarantined) { (message) throws(BusError) in
            try message.append(id)
            try message.append(path)
        }
    }

    /// A program started or stopped reading the screen repeatedly; `geometry` as WxH+X+Y, when known.
    public func recording(started: Bool, program: String, pid: Int32, geometry: String?) {
        emit(started ? AgentInterface.recordingStarted : AgentInterface.recordingStopped) { (message) throws(BusError) in
            try message.append(program)
            try message.append(UInt32(clamping: max(0, pid)))
            if started { try message.append(geometry ?? "") }
        }
    }

    /// Protection paused until `until` (seconds since the epoch), or until resumed when nil. Call
    /// it whenever protection pauses, whatever asked for it.
    public func paused(until: Double?) {
        emit(AgentInterface.paused) { (message) throws(BusError) in try message.append(until ?? 0) }
    }

    /// Protection resumed: call it whenever a pause ends, by Resume or by running out.
    public func resumed() {
        emit(AgentInterface.resumed) { (_) throws(BusError) in }
    }

    /// Signals are best effort: a lost bus loses them, and the agent goes on.
    private func emit(_ member: BusMember, _ arguments: (BusMessage) throws(BusError) -> Void) {
        guard let connection = try? bus.connection() else { return }
        do throws(BusError) {
            let message = try BusMessage.signal(connection, path: AgentInterface.objectPath, interface: AgentInterface.name,
                                                member: member.name)
            try arguments(message)
            try message.send(on: connection)
        } catch {
            return
        }
    }

    // MARK: method calls

    private static func service(_ userdata: UnsafeMutableRawPointer?) -> AgentBusService? {
        guard let userdata else { return nil }
        return Unmanaged<AgentBusService>.fromOpaque(userdata).takeUnretainedValue()
    }

    /// Replies to `call` with what `body` appends, or with the error it throws.
    private func answer(_ call: OpaquePointer?, _ replyError: UnsafeMutablePointer<sd_bus_error>?,
                        _ body: (BusMessage, BusMessage, AgentControl) throws(MethodError) -> Void) -> Int32 {
        guard let call, let connection = try? bus.connection() else { return -ENOTCONN }
        let request = BusMessage(borrowing: call)
        guard let control else {
            return MethodError(AgentInterface.unavailableError, "the agent is stopping").set(replyError)
        }
        do throws(MethodError) {
            let reply: BusMessage
            do throws(BusError) {
                reply = try request.methodReturn()
            } catch {
                throw MethodError(error)
            }
            try body(request, reply, control)
            do throws(BusError) {
                try reply.send(on: connection)
            } catch {
                throw MethodError(error)
            }
            return 1
        } catch {
            return error.set(replyError)
        }
    }

    private static let statusHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let service = service(userdata) else { return -ENOTCONN }
        return service.answer(call, error) { (_, reply, control) throws(MethodError) in
            do throws(BusError) { try control.status().write(to: reply) } catch { throw MethodError(error) }
        }
    }

    private static let pauseHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let service = service(userdata) else { return -ENOTCONN }
        return service.answer(call, error) { (request, reply, control) throws(MethodError) in
            let seconds: Double
            do throws(BusError) { seconds = try request.readDouble() } catch { throw MethodError(error) }
            guard seconds.isFinite, seconds >= 0, seconds <= AgentInterface.longestPause else {
                throw MethodError("org.freedesktop.DBus.Error.InvalidArgs",
                                  "Pause takes 0 (until Resume) or a number of seconds up to "
                                      + "\(Int(AgentInterface.longestPause)), not \(seconds)")
            }
            switch control.pause(seconds: seconds) {
            case .paused(let until):
                do throws(BusError) { try reply.append(until ?? 0) } catch { throw MethodError(error) }
            case .refused(let why):
                throw MethodError(AgentInterface.refusedError, why)
            }
        }
    }

    private static let resumeHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let service = service(userdata) else { return -ENOTCONN }
        return service.answer(call, error) { (_, reply, control) throws(MethodError) in
            let wasPaused = control.resume()
            do throws(BusError) { try reply.append(wasPaused) } catch { throw MethodError(error) }
        }
    }

    private static let sendReportsHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let service = service(userdata) else { return -ENOTCONN }
        return service.answer(call, error) { (request, reply, control) throws(MethodError) in
            do throws(BusError) {
                let ids = try request.readStrings(limit: 10_000).map { String($0.prefix(256)) }
                let answer = control.sendReports(ids)
                try reply.append(answer.scheduled)
                try reply.append(answer.unknown)
            } catch {
                throw MethodError(error)
            }
        }
    }

    private static let reloadHandler: sd_bus_message_handler_t = { call, userdata, error in
        guard let service = service(userdata) else { return -ENOTCONN }
        return service.answer(call, error) { (_, reply, control) throws(MethodError) in
            switch control.reload() {
            case .reloaded(let summary):
                do throws(BusError) { try reply.append(summary) } catch { throw MethodError(error) }
            case .failed(let why):
                throw MethodError(AgentInterface.reloadFailedError, why)
            }
        }
    }
}

/// The D-Bus error a method call is answered with.
private struct MethodError: Error {
    let name: String
    let message: String

    init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    init(_ error: BusError) {
        self.init("org.freedesktop.DBus.Error.Failed", error.description)
    }

    /// Sets the error sd-bus replies with (it copies both strings) and returns its errno.
    func set(_ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        sg_sd_bus_error_set(error, name, message)
    }
}
