// What `watch --report-to` and its companions ask of report delivery.
import ShotguardDelivery

/// The reporters that hand reports to a bug pipeline, and the queue that carries them.
public struct DeliveryOptions: Sendable {
    /// `--report-to` (repeatable): Sentry projects, webhooks, commands.
    public var destinations: [Destination] = []
    /// `--report-ask`: a report leaves only when the user asks (the notification's action, or
    /// `shotguard reports send ID`).
    public var ask = false
    /// `--report-queue`, `--report-queue-size`, `--report-queue-for`.
    public var bounds = QueueBounds.standard

    /// `$XDG_STATE_HOME/shotguard/outbox` (else `~/.local/state/shotguard/outbox`): the queue.
    public static var outboxFolder: String { UserFolders.stateFolder() + "/outbox" }

    public init() {}
}
