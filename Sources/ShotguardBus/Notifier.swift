// Desktop notifications (org.freedesktop.Notifications, Desktop Notifications Specification 1.2)
// sent without ever waiting: one call in flight, a burst folded into one notification.
import CSystemdBus
import Glibc

/// A button on a notification: `key` comes back when the user chooses `label`.
public struct NotificationAction: Sendable, Equatable {
    public let key: String
    public let label: String

    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// Shows the agent's notifications through the session's notification server.
///
/// Every notification replaces the previous one (the `replaces_id` the server returned), so a
/// burst of screenshots shows one notification, updated. At most one call is in flight: what
/// is asked meanwhile waits, and only the newest waiting one is sent. With no notification
/// server on the bus nothing is shown and nothing fails; a server that appears later is used.
public final class Notifier {
    public static let service = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    /// Called with an action's key when the user chooses it on the current notification.
    public var actionInvoked: ((String) -> Void)?
    /// The id of the notification on screen (0 before the first).
    public private(set) var notificationID: UInt32 = 0
    /// Whether nothing waits to be sent and no call is in flight.
    public var isIdle: Bool { inFlight == nil && waiting == nil }

    private let bus: SessionBus
    private let appName: String
    private let expireMilliseconds: Int32
    /// The server's capabilities (`body-markup`, `actions`…), once asked; nil until then.
    private var capabilities: Set<String>?
    private var waiting: NotificationText?
    private var inFlight: OpaquePointer?
    private var actionMatch: OpaquePointer?

    /// Notifications as `appName`, each shown for `expireMilliseconds` unless the user acts.
    public init(bus: SessionBus, appName: String = "shotguard", expireMilliseconds: Int32 = 6000) {
        self.bus = bus
        self.appName = appName
        self.expireMilliseconds = expireMilliseconds
    }

    deinit {
        // Releasing the slots cancels their callbacks: none can reach this object afterwards.
        if let inFlight { sg_sd_bus_slot_unref(inFlight) }
        if let actionMatch { sg_sd_bus_slot_unref(actionMatch) }
    }

    /// Shows (or updates) the notification. Returns at once; the bus carries it as the agent's
    /// loop processes the connection.
    public func notify(summary: String, body: String, actions: [NotificationAction] = []) {
        waiting = NotificationText(summary: summary, body: body, actions: actions)
        if !actions.isEmpty { watchActions() }
        sendNext()
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func notifier(_ userdata: UnsafeMutableRawPointer?) -> Notifier? {
        userdata.map { Unmanaged<Notifier>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Asks for the capabilities first (whether the body is markup), then sends what waits.
    private func sendNext() {
        guard inFlight == nil, let text = waiting else { return }
        guard let connection = try? bus.connection() else {
            // The bus is gone: nothing can be shown, and nothing should wait for it.
            waiting = nil
            return
        }
        do throws(BusError) {
            let message: BusMessage
            let callback: sd_bus_message_handler_t
            if let capabilities {
                message = try BusMessage.methodCall(connection, destination: Self.service, path: Self.path,
                                                    interface: Self.service, member: "Notify", autoStart: true)
                try text.write(to: message, appName: appName, replacing: notificationID, expire: expireMilliseconds,
                               capabilities: capabilities)
                callback = Self.notifyReply
                waiting = nil
            } else {
                message = try BusMessage.methodCall(connection, destination: Self.service, path: Self.path,
                                                    interface: Self.service, member: "GetCapabilities", autoStart: true)
                callback = Self.capabilitiesReply
            }
            var slot: OpaquePointer?
            try checked(sg_sd_bus_call_async(connection, &slot, message.pointer, callback, userdata, 0), "Notify")
            inFlight = slot
        } catch {
            waiting = nil
        }
    }

    /// The call in flight is answered: forget its slot.
    private func finishCall() {
        if let inFlight { sg_sd_bus_slot_unref(inFlight) }
        inFlight = nil
    }

    private static let capabilitiesReply: sd_bus_message_handler_t = { reply, userdata, _ in
        guard let notifier = notifier(userdata), let reply else { return 0 }
        notifier.finishCall()
        let message = BusMessage(borrowing: reply)
        guard sg_sd_bus_message_is_method_error(reply, nil) == 0,
              let names = try? message.readStrings(limit: 64) else {
            // No server (or a broken one): nothing is shown, and the next notification asks again.
            notifier.waiting = nil
            return 0
        }
        notifier.capabilities = Set(names)
        notifier.sendNext()
        return 0
    }

    private static let notifyReply: sd_bus_message_handler_t = { reply, userdata, _ in
        guard let notifier = notifier(userdata), let reply else { return 0 }
        notifier.finishCall()
        let message = BusMessage(borrowing: reply)
        if sg_sd_bus_message_is_method_error(reply, nil) == 0, let id = try? message.readUInt32() {
            notifier.notificationID = id
        } else {
            // The server went away: ask the next one for its capabilities, replace nothing.
            notifier.notificationID = 0
            notifier.capabilities = nil
        }
        notifier.sendNext()
        return 0
    }

    /// Subscribes to ActionInvoked once, before the first notification with actions is sent
    /// (the bus applies the match before that call, both coming from this connection).
    private func watchActions() {
        guard actionMatch == nil, let connection = try? bus.connection() else { return }
        var slot: OpaquePointer?
        let result = sg_sd_bus_match_signal_async(connection, &slot, Self.service, Self.path, Self.service, "ActionInvoked",
                                               Self.actionSignal, Self.matchInstalled, userdata)
        if result >= 0 { actionMatch = slot }
    }

    /// Without this callback sd-bus treats a refused match as fatal to the connection.
    private static let matchInstalled: sd_bus_message_handler_t = { _, _, _ in 0 }

    private static let actionSignal: sd_bus_message_handler_t = { signal, userdata, _ in
        guard let notifier = notifier(userdata), let signal else { return 0 }
        let message = BusMessage(borrowing: signal)
        guard let id = try? message.readUInt32(), let key = try? message.readString() else { return 0 }
        if id != 0, id == notifier.notificationID { notifier.actionInvoked?(String(key.prefix(256))) }
        return 0
    }
}
