// The agent as the bus sees it: its status, a pause, a resume, a reload.
import ShotguardBase
import ShotguardBus
import ShotguardImaging
import ShotguardRegions
import ShotguardX11

/// Answers the bus service for the agent. The service holds its control weakly; the agent
/// keeps this adapter, which holds the agent weakly in turn.
final class AgentControlAdapter: AgentControl {
    weak var agent: Agent?

    func status() -> AgentStatus { agent?.busStatus() ?? AgentStatus(protection: .off(why: "the agent is stopping")) }
    func pause(seconds: Double) -> PauseAnswer { agent?.pause(seconds: seconds) ?? .refused("the agent is stopping") }
    func resume() -> Bool { agent?.resumeProtection() ?? false }
    func reload() -> ReloadAnswer { agent?.reloadForBus() ?? .failed("the agent is stopping") }
    func sendReports(_ ids: [String]) -> (scheduled: [String], unknown: [String]) { agent?.outputs.delivery.sendNow(ids) ?? ([], ids) }
}

extension Agent {
    func busStatus() -> AgentStatus {
        let protection: AgentStatus.Protection
        if let pause = rules.pause {
            protection = .paused(until: pause.until?.wall)
        } else if !rules.hasFiles {
            protection = .off(why: "no regions file at \(rules.path) (only windows that ask for protection are covered)")
        } else if rules.regions?.rules.isEmpty ?? true {
            protection = .off(why: "\(rules.path) has no rules (only windows that ask for protection are covered)")
        } else {
            protection = .protecting
        }
        let last = outputs.sink.last.map { AgentStatus.Report(id: $0.id, time: $0.time, outcome: $0.outcome) }
        var status = AgentStatus(protection: protection, rules: rules.countsByKind, sources: sourceNames,
                                 recordAvailable: inputs.sensing != nil, lastReport: last, display: inputs.display.name,
                                 version: options.version)
        status.queue = outputs.delivery.queueStatus
        status.recordings = inputs.sentinelEvents.running.map {
            AgentStatus.Recording(program: $0.program, pid: $0.pid, means: $0.path.name, geometry: $0.area?.description,
                                  since: $0.started.wall, covers: $0.covers, trusted: $0.trusted)
        }
        return status
    }

    /// The sources that are on, as the status lists them.
    var sourceNames: [String] {
        [options.watchFiles ? "files" : nil, options.watchClipboard ? "clipboard" : nil, options.watchTools ? "tool windows" : nil,
         inputs.sensing != nil ? "screen reads" : nil, outputs.shield.isOn ? "shield" : nil].compactMap { $0 }
    }

    func pause(seconds: Double) -> PauseAnswer {
        if let lock = rules.lock { return .refused(lock.refusal(of: "pause")) }
        let until = rules.pause(seconds: seconds, at: inputs.clock.now())
        outputs.shield.pause(true)
        log.info("protection paused " + (until.map { _ in "for \(Int(seconds)) s" } ?? "until resumed"))
        log.events.say("pause", [("state", .string("paused")), ("seconds", until.map { _ in .number(Int(seconds)) } ?? .null)])
        refreshShield()
        outputs.desktop.paused(until: until?.wall)
        return .paused(until: until?.wall)
    }

    func resumeProtection() -> Bool {
        guard rules.resume() else { return false }
        protectionResumed()
        return true
    }

    /// Says that protection is on again and puts the covers back.
    func protectionResumed() {
        outputs.shield.pause(false)
        log.info("protection resumed")
        log.events.say("pause", [("state", .string("resumed")), ("seconds", .null)])
        refreshShield()
        outputs.desktop.resumed()
    }

    func reloadForBus() -> ReloadAnswer {
        switch rules.reloadAnswer() {
        case .success(let summary):
            refreshShield()
            return .reloaded(summary)
        case .failure(let error):
            return .failed(error.message)
        }
    }
}
