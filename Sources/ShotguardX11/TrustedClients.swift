// Which readers a rule trusts to see everything (`trust program=obs`), judged once per client.
import ShotguardBase

/// The programs trusted by the rules, and what each reading client was judged: a client's
/// process is looked at its first read or watch, and the answer kept until it disconnects (the
/// server then gives its id to another client) or the trusted programs change. A client
/// whose process cannot be told is not trusted. Pure.
struct TrustedClients {
    var programs: [ProgramName] = [] {
        didSet { judged = [:] }
    }
    private var judged: [UInt32: Bool] = [:]
    /// Processes kept to judge again when the programs change.
    private var processes: [UInt32: ProcessDetails] = [:]

    /// Whether `client`, whose process is `process` (as /proc shows it now), is trusted.
    mutating func judge(_ client: UInt32, process: ProcessDetails?) -> Bool {
        if let known = judged[client] { return known }
        if let process { processes[client] = process }
        let trusted = (process ?? processes[client]).map { process in programs.contains { $0.matches(process) } } ?? false
        judged[client] = trusted
        return trusted
    }

    /// Whether `client` is trusted, judged again from its process when the programs changed.
    mutating func isTrusted(_ client: UInt32) -> Bool { judge(client, process: nil) }

    mutating func forget(_ client: UInt32) {
        judged[client] = nil
        processes[client] = nil
    }
}
