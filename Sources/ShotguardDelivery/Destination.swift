// Where reports go, as `watch --report-to` names it: a Sentry project, a webhook, or a command.
import Glibc
import ShotguardBase
import ShotguardImaging

/// One reporter's destination. Each queued report keeps the `spec` (and header file) of every
/// destination it is for, so a report queued for a service goes there even if a later agent
/// runs with other options; the header file is read at each attempt, never copied.
public enum Destination: Sendable, Equatable {
    /// `sentry:DSN`: one envelope per report to the DSN's project.
    case sentry(SentryDSN)
    /// `https://…` or `http://…`: one multipart/form-data POST per report, with the headers of
    /// the file, when one is given.
    case webhook(url: String, headerFile: String?)
    /// `exec:CMD`: `/bin/sh -c CMD` with SHOTGUARD_IMAGE and SHOTGUARD_REPORT; exit 0 is delivered.
    case command(String)

    /// Parses `--report-to TEXT`; `headerFile` (`--report-header-file`, absolute) goes with webhooks.
    public static func parse(_ text: String, headerFile: String? = nil) throws(DestinationError) -> Destination {
        if text.hasPrefix("sentry:") {
            return .sentry(try SentryDSN.parse(String(text.dropFirst("sentry:".count))))
        }
        if text.hasPrefix("exec:") {
            let command = String(text.dropFirst("exec:".count))
            guard !command.allSatisfy({ $0 == " " }) else {
                throw DestinationError(text: text, reason: "exec: needs a command after it (exec:'notify-send done')")
            }
            return .command(command)
        }
        if text.hasPrefix("https://") || text.hasPrefix("http://") {
            try checkURL(text)
            return .webhook(url: text, headerFile: headerFile)
        }
        throw DestinationError(text: text, reason: "expected sentry:DSN, an https:// (or http://) URL, or exec:COMMAND")
    }

    /// A URL libcurl can take, with a host: no spaces or control characters.
    static func checkURL(_ text: String) throws(DestinationError) {
        let rest = text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard rest.count == 3, case let host = rest[2].prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" }), !host.isEmpty,
              !host.hasPrefix("@") else {
            throw DestinationError(text: text, reason: "the URL has no host (expected https://HOST/PATH)")
        }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw DestinationError(text: text, reason: "the URL has spaces or control characters")
        }
    }

    /// What is stored with a queued report, parsed back by `parse`.
    public var spec: String {
        switch self {
        case .sentry(let dsn): return "sentry:" + dsn.text
        case .webhook(let url, _): return url
        case .command(let command): return "exec:" + command
        }
    }

    public var headerFile: String? {
        if case .webhook(_, let file) = self { return file }
        return nil
    }

    /// A short name for logs and lists that shows no secret: `sentry HOST project N`,
    /// `webhook HOST`, `exec`.
    public var label: String {
        switch self {
        case .sentry(let dsn): return "sentry \(dsn.host) project \(dsn.projectID)"
        case .webhook(let url, _):
            let host = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).dropFirst(2).first ?? ""
            // user:password@ before the host is a secret.
            return "webhook " + String(host.split(separator: "@").last ?? host)
        case .command: return "exec"
        }
    }
}

/// A `--report-to` that cannot be used, and why.
public struct DestinationError: Error, CustomStringConvertible, Sendable {
    public let text: String
    public let reason: String

    public var description: String { "--report-to '\(text.escapingControlCharacters())': \(reason)" }
}
