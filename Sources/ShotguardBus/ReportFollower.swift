// The client side of the agent's Reported signal: each report the running agent writes, as it comes.
import CSystemdBus
import Glibc

/// Subscribes to `Reported` from whatever owns `org.shotguard.Agent1` (an agent restarted by its
/// unit is followed too) and keeps what arrives until `take()`. Drive it like the agent drives
/// its bus: poll `bus.fileDescriptor` for `bus.pollEvents` until `bus.deadline`, then `bus.process()`.
public final class ReportFollower {
    public let bus: SessionBus
    private var slot: OpaquePointer?
    private var arrived: [(id: String, report: String)] = []
    /// A report's JSON is a few kilobytes; one far larger did not come from the agent.
    static let reportLimit = 1 << 20

    /// Subscribes on `bus`; throws `.noOwner`-like `noAgent` when no agent runs now.
    public init(bus: SessionBus) throws(AgentClient.Failure) {
        self.bus = bus
        let running: Bool
        do throws(BusError) { running = try bus.nameHasOwner(AgentInterface.busName) } catch { throw .bus(error) }
        guard running else { throw .noAgent }
        do throws(BusError) {
            let connection = try bus.connection()
            var slot: OpaquePointer?
            let userdata = Unmanaged.passUnretained(self).toOpaque()
            try checked(sg_sd_bus_match_signal_async(connection, &slot, AgentInterface.busName, AgentInterface.objectPath,
                                                     AgentInterface.name, AgentInterface.reported.name, Self.signal,
                                                     Self.installed, userdata), "cannot follow \(AgentInterface.name).Reported")
            // The match is in place once the bus has it: a report after init returns is not missed.
            _ = try bus.nameHasOwner(AgentInterface.busName)
            self.slot = slot
        } catch {
            throw .bus(error)
        }
    }

    deinit { if let slot { sg_sd_bus_slot_unref(slot) } }

    /// The reports that arrived since the last call, oldest first.
    public func take() -> [(id: String, report: String)] {
        defer { arrived.removeAll() }
        return arrived
    }

    /// Without this callback sd-bus treats a refused match as fatal to the connection.
    private static let installed: sd_bus_message_handler_t = { _, _, _ in 0 }

    private static let signal: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let follower = Unmanaged<ReportFollower>.fromOpaque(userdata).takeUnretainedValue()
        let signal = BusMessage(borrowing: message)
        // A malformed signal is dropped: it did not come from an agent of this version.
        guard let id = try? signal.readString(), let report = try? signal.readString(), report.utf8.count <= reportLimit else { return 0 }
        follower.arrived.append((String(id.prefix(256)), report))
        return 0
    }
}
