// The command line's side of the agent's interface: Status, Pause, Resume and Reload, each a call
// that waits for its reply.
import Glibc

/// Calls the running agent over the session bus. Every call throws `.noAgent` when no agent
/// owns `org.shotguard.Agent1`.
public final class AgentClient {
    public enum Failure: Error, CustomStringConvertible, Sendable {
        /// Nobody owns the agent's name on this bus.
        case noAgent
        /// The agent refused the call; the sentence says why.
        case refused(String)
        /// The agent owns its name but did not answer within the timeout (its loop is stuck).
        case noAnswer(String, seconds: Double)
        /// The bus, or the agent's reply, failed.
        case bus(BusError)

        public var description: String {
            switch self {
            case .noAgent: return "no shotguard agent runs on the session bus"
            case .refused(let why): return why
            case .noAnswer(let method, let seconds):
                return "the shotguard agent did not answer \(method) within \(Int(seconds.rounded(.up))) s"
            case .bus(let error): return error.description
            }
        }
    }

    public let bus: SessionBus
    private let timeout: Double

    /// A client on `bus`; each call waits at most `timeout` seconds for the agent.
    public init(bus: SessionBus, timeout: Double = 5) {
        self.bus = bus
        self.timeout = timeout
    }

    public func status() throws(Failure) -> AgentStatus {
        let reply = try call(AgentInterface.status) { (_) throws(BusError) in }
        do throws(BusError) {
            return try AgentStatus(reading: reply)
        } catch {
            throw .bus(error)
        }
    }

    /// Pauses for `seconds` (0: until Resume); returns when it ends (seconds since the epoch),
    /// or nil for until Resume.
    public func pause(seconds: Double) throws(Failure) -> Double? {
        let reply = try call(AgentInterface.pause) { (message) throws(BusError) in try message.append(seconds) }
        do throws(BusError) {
            let until = try reply.readDouble()
            guard until.isFinite, until >= 0 else { throw .malformed("Pause answered \(until)") }
            return until > 0 ? until : nil
        } catch {
            throw .bus(error)
        }
    }

    /// Ends a pause; false when protection was not paused.
    public func resume() throws(Failure) -> Bool {
        let reply = try call(AgentInterface.resume) { (_) throws(BusError) in }
        do throws(BusError) { return try reply.readBool() } catch { throw .bus(error) }
    }

    /// Reloads the regions file; returns the agent's summary of the rules now in force.
    public func reload() throws(Failure) -> String {
        let reply = try call(AgentInterface.reload) { (_) throws(BusError) in }
        do throws(BusError) { return String(try reply.readString().prefix(4096)) } catch { throw .bus(error) }
    }

    /// Asks the agent to try queued reports again now (every waiting one for no ids); returns the
    /// ids it will try and those it does not know.
    public func sendReports(_ ids: [String]) throws(Failure) -> (scheduled: [String], unknown: [String]) {
        let reply = try call(AgentInterface.sendReports) { (message) throws(BusError) in try message.append(ids) }
        do throws(BusError) {
            let scheduled = try reply.readStrings(limit: 100_000).map { String($0.prefix(256)) }
            let unknown = try reply.readStrings(limit: 100_000).map { String($0.prefix(256)) }
            return (scheduled, unknown)
        } catch {
            throw .bus(error)
        }
    }

    private func call(_ member: BusMember, _ arguments: (BusMessage) throws(BusError) -> Void) throws(Failure) -> BusMessage {
        do throws(BusError) {
            let message = try BusMessage.methodCall(try bus.connection(), destination: AgentInterface.busName,
                                                    path: AgentInterface.objectPath, interface: AgentInterface.name,
                                                    member: member.name)
            try arguments(message)
            return try bus.call(message, method: member.name, timeout: timeout)
        } catch {
            if error.isNoOwner { throw .noAgent }
            if case .reply(_, let name, let message) = error,
               name == AgentInterface.refusedError || name == AgentInterface.reloadFailedError {
                throw .refused(message)
            }
            if case .call(_, let code) = error, code == ETIMEDOUT {
                throw .noAnswer(member.name, seconds: timeout)
            }
            throw .bus(error)
        }
    }
}
