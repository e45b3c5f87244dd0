// The rules in force: the regions file, followed as it is created, edited, replaced or removed, and the fields its rules need.
import Glibc
import ShotguardAccessibility
import ShotguardBase
import ShotguardRegions
import ShotguardScreen

/// Owns the regions file the agent protects with. It follows the file through inotify on its
/// folder (within a second of any change, no SIGHUP needed), keeps the last good rules when a
/// new version is invalid or was emptied mid-edit, and keeps the field watcher in step with the
/// roles the rules name.
final class RulesInForce {
    /// `--regions FILE`, or the default path (where a missing file means no rules yet).
    let path: String
    let isDefaultPath: Bool
    private(set) var regions: RegionsFile?
    /// Keeps the fields of `field` rules current; nil while no rule names a field.
    private(set) var fieldWatcher: FieldWatcher?
    private let log: Log
    private let follower: FileFollower?
    /// When a change seen on the file is read (editors write in steps: wait for them).
    private var reloadAt: Double?
    /// A pause (`shotguard pause`): until this moment, or until resumed when `untilResume`.
    private(set) var pause: (until: Moment?, untilResume: Bool)?

    /// A change is read this long after the last event about the file.
    static let settle = 0.2
    /// How long start-up waits for the first list of fields, so that the first screenshot is
    /// already covered; a bus that answers later still fills the list when it does.
    static let firstFieldsWait = 5.0

    init(path: String?, log: Log) throws(AgentError) {
        self.path = UserFolders.absolute(path ?? RegionsFile.defaultPath)
        isDefaultPath = path == nil
        self.log = log
        follower = FileFollower(path: BytePath(self.path), log: log)
        regions = try Self.load(self.path, missingIsError: !isDefaultPath)
        if regions?.hasUserFile != true {
            log.warning("no regions file at \(self.path): only \(regions?.systemPaths.isEmpty ?? true ? "" : "the system policy and ")"
                + "windows that ask for protection are covered until it is written (the agent follows it; "
                + "'shotguard windows' lists what to name)")
        }
    }

    /// Whether there is anything but the windows that ask for protection: a user's file, or a
    /// system policy.
    var hasFiles: Bool { regions.map { $0.hasUserFile || !$0.systemPaths.isEmpty } ?? false }

    /// The system policy's lock, when a system file says `lock`.
    var lock: PolicyLock? { regions?.lock }

    /// The rules that apply now: none while protection is paused.
    var inForce: RegionsFile? { pause == nil ? regions : nil }

    var isPaused: Bool { pause != nil }

    /// Pauses protection for `seconds` (0: until `resume`) from `now`; the moment it ends.
    func pause(seconds: Double, at now: Moment) -> Moment? {
        let until = seconds > 0 ? now.adding(seconds) : nil
        pause = (until, until == nil)
        return until
    }

    /// Ends a pause; false when there was none.
    @discardableResult
    func resume() -> Bool {
        defer { pause = nil }
        return pause != nil
    }

    /// Ends a pause whose time has come; true when it did.
    func endPauseIfDue(at now: Moment) -> Bool {
        guard let until = pause?.until, now.monotonic >= until.monotonic else { return false }
        pause = nil
        return true
    }

    /// The rules by kind of target, for the status.
    var countsByKind: [String: Int] {
        var counts: [String: Int] = [:]
        for rule in regions?.rules ?? [] { counts[rule.isAllow ? "allow" : rule.target.rawValue, default: 0] += 1 }
        return counts
    }

    /// The file's folder is watched through this descriptor (nil when it cannot be).
    var fileDescriptor: Int32? { follower?.fileDescriptor }

    /// The next time a change is due to be read, or a pause ends.
    var deadline: Double? { [reloadAt, pause?.until?.monotonic].compactMap { $0 }.min() }

    /// Reads the follower's events: a change to the file plans a reload after `settle`.
    func handleEvents(at now: Double) {
        guard let follower, follower.readChanged() else { return }
        reloadAt = now + Self.settle
    }

    /// Reloads when a change is due; true when the rules changed.
    func reloadIfDue(at now: Double) -> Bool {
        guard let due = reloadAt, now >= due else { return false }
        reloadAt = nil
        return reload(reason: "changed")
    }

    /// Reads the file again (a change, SIGHUP, or `Reload` on the bus). The new rules replace
    /// the old only when the file is valid; an emptied file that had rules keeps them (an
    /// editor truncates before it writes) until it is written again. True when the rules changed.
    @discardableResult
    func reload(reason: String) -> Bool {
        var status = stat()
        let exists = lstat(path, &status) == 0
        if exists, status.st_size == 0, let regions, regions.hasUserFile, !regions.rules.isEmpty {
            log.warning("\(path) is empty: kept the previous \(RulesSummary.describe(regions)) until it is written again")
            log.events.say("rules-kept", [("path", .string(path)), ("why", .string("empty")), ("rules", .number(regions.rules.count))])
            return false
        }
        do throws(AgentError) {
            let loaded = try Self.load(path, missingIsError: false)
            regions = loaded
            watchFields()
            let line = loaded?.hasUserFile == true
                ? "\(reason == "SIGHUP" ? "reloaded" : "read") \(path): protecting with \(summary)"
                : "\(path) was removed: only \(hasFiles ? "the system policy and " : "")windows that ask for protection are "
                    + "covered until it is written again"
            if loaded?.hasUserFile != true { log.warning(line) } else { log.info(line) }
            sayRules(loaded?.hasUserFile != true ? "removed" : reason == "SIGHUP" ? "reloaded" : "read")
            return true
        } catch {
            log.error("kept the previous rules: \(error.message)")
            sayKept()
            return false
        }
    }

    /// Reads the file again for a caller that wants the answer (the bus's `Reload`): the new
    /// summary, or the error that kept the old rules.
    func reloadAnswer() -> Result<String, AgentError> {
        do throws(AgentError) {
            let loaded = try Self.load(path, missingIsError: false)
            regions = loaded
            watchFields()
            let summary = self.summary
            log.info("reloaded \(path): protecting with \(summary)")
            sayRules("reloaded")
            return .success(summary)
        } catch {
            log.error("kept the previous rules: \(error.message)")
            sayKept()
            return .failure(error)
        }
    }

    /// The rules now in force, on the event stream: how they came (`read` after a change seen,
    /// `reloaded` on SIGHUP or the bus, `removed` with the file), how many, of which kinds.
    private func sayRules(_ state: String) {
        let kinds = countsByKind.sorted { $0.key < $1.key }.map { ($0.key, JSON.number($0.value)) }
        log.events.say("rules", [("state", .string(state)), ("path", .string(path)), ("rules", .number(regions?.rules.count ?? 0)),
                                 ("kinds", .object(kinds))])
    }

    /// A new version that did not parse: the rules in force stay.
    private func sayKept() {
        log.events.say("rules-kept", [("path", .string(path)), ("why", .string("invalid")), ("rules", .number(regions?.rules.count ?? 0))])
    }

    /// One line saying what is protected now.
    var summary: String {
        guard let regions, hasFiles else { return "no rules (no regions file); windows that ask for protection are covered" }
        return RulesSummary.describe(regions) + (regions.systemPaths.isEmpty ? "" : " (system policy: \(regions.systemPaths.joined(separator: ", "))"
            + (regions.lock != nil ? ", locked" : "") + ")")
    }

    /// The system policy files (`$XDG_CONFIG_DIRS/shotguard/regions`), then the user's file;
    /// with neither, no rules — windows that ask for protection (`_SHOTGUARD_PROTECT`) are still
    /// covered.
    private static func load(_ path: String, missingIsError: Bool) throws(AgentError) -> RegionsFile? {
        do throws(RegionsError) {
            return try RegionsPolicy.load(userPath: missingIsError ? path : nil, defaultUserPath: path)
                ?? RegionsFile(path: path, rules: [], hasUserFile: false)
        } catch {
            throw AgentError(message: error.description, isUsage: true)
        }
    }

    /// Starts (or retargets) the field watcher for the roles the rules name; stops it when
    /// none does. Says once what the accessibility bus gave, or why it gave nothing.
    func watchFields() {
        let roles = regions?.fieldRoles ?? []
        guard !roles.isEmpty else {
            fieldWatcher?.stop()
            fieldWatcher = nil
            return
        }
        if let fieldWatcher {
            fieldWatcher.update(roles: roles)
            return
        }
        let watcher = FieldWatcher(roles: roles)
        fieldWatcher = watcher
        let status = watcher.waitForFirstQuery(seconds: Self.firstFieldsWait)
        switch status.fields {
        case .unavailable(let reason):
            log.warning(reason)
            log.events.say("fields", [("state", .string("unavailable")), ("showing", .null)])
        case .notQueried:
            log.warning("the accessibility bus did not answer within \(Int(Self.firstFieldsWait)) s: "
                + "field rules hit nothing until it does")
            log.events.say("fields", [("state", .string("no-answer")), ("showing", .null)])
        case .available(let fields):
            let roleNames = roles.sorted().map(\.rawValue).joined(separator: ", ")
            log.info("fields: \(fields.count) showing (\(roleNames)) through the accessibility bus, "
                + "listed in \(JSON.fixed(status.lastQueryMilliseconds, digits: 1)) ms; kept current from its events")
            log.events.say("fields", [("state", .string("available")), ("showing", .number(fields.count))])
        }
    }

    /// Puts the watcher's last list of fields into `context`: no D-Bus call at event time.
    func addFields(to context: inout ScreenContext) {
        guard let fieldWatcher else { return }
        context.fields = fieldWatcher.status.fields
    }

    func stop() { fieldWatcher?.stop() }
}

/// What a set of rules protects, in a few words: `3 rules: 2 windows, 1 field`.
enum RulesSummary {
    static func describe(_ regions: RegionsFile) -> String {
        let count = regions.rules.count
        guard count > 0 else { return "no rules" }
        var kinds: [(String, Int)] = []
        for rule in regions.rules {
            let kind = rule.isAllow ? "allow" : rule.target.rawValue
            if let index = kinds.firstIndex(where: { $0.0 == kind }) { kinds[index].1 += 1 } else { kinds.append((kind, 1)) }
        }
        let parts = kinds.map { "\($0.1) \($0.0)\($0.1 == 1 || $0.0 == "allow" ? "" : "s")" }
        return "\(count) rule\(count == 1 ? "" : "s"): " + parts.joined(separator: ", ") + trust(regions)
    }

    /// `; trusting obs (nothing is covered for it)`, and the user's trust lines a locked policy refuses.
    static func trust(_ regions: RegionsFile) -> String {
        var text = ""
        let trusted = regions.trustedPrograms.map(\.value)
        if !trusted.isEmpty { text += "; trusting \(trusted.joined(separator: ", ")) (nothing is covered for \(trusted.count == 1 ? "it" : "them"))" }
        if let lock = regions.lock, !regions.refusedTrusts.isEmpty {
            let lines = regions.refusedTrusts.map { "line \($0.line): \($0.source)" }.joined(separator: ", ")
            text += "; refused (\(lines)): the system policy \(lock.path) is locked, so recordings are covered whoever makes them"
        }
        return text
    }
}
