// A Sentry DSN (PROTOCOL://PUBLIC_KEY@HOST[:PORT][/PATH]/PROJECT_ID) and the envelope endpoint it names.

/// The parts of a DSN that an envelope needs. A self-hosted Sentry under a path prefix
/// (`https://key@sentry.example.com/sentry/3`) keeps its prefix in front of `/api/`.
public struct SentryDSN: Sendable, Equatable {
    /// The DSN as given.
    public let text: String
    public let scheme: String
    public let publicKey: String
    /// The host, with its port when the DSN has one.
    public let host: String
    /// The path before the project id, without a trailing slash ("" for most DSNs).
    public let pathPrefix: String
    public let projectID: String

    /// `scheme://host[prefix]/api/PROJECT/envelope/`, where envelopes are posted.
    public var envelopeURL: String { "\(scheme)://\(host)\(pathPrefix)/api/\(projectID)/envelope/" }

    /// The X-Sentry-Auth header that authenticates an envelope with the public key.
    public func authHeader(client: String) -> String {
        "X-Sentry-Auth: Sentry sentry_version=7, sentry_key=\(publicKey), sentry_client=\(client)"
    }

    public static func parse(_ text: String) throws(DestinationError) -> SentryDSN {
        func refuse(_ reason: String) -> DestinationError {
            DestinationError(text: "sentry:" + text, reason: reason + " (expected sentry:https://PUBLIC_KEY@HOST/PROJECT_ID)")
        }
        let halves = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { throw refuse("the DSN has no scheme") }
        let scheme = String(halves[0])
        guard scheme == "https" || scheme == "http" else { throw refuse("the DSN's scheme is '\(scheme)', not https or http") }
        let rest = halves[1]
        guard let at = rest.lastIndex(of: "@") else { throw refuse("the DSN has no public key before '@'") }
        // PUBLIC_KEY[:SECRET]: the secret of old DSNs is not needed for envelopes.
        let publicKey = String(rest[..<at].split(separator: ":", omittingEmptySubsequences: false).first ?? "")
        guard !publicKey.isEmpty, publicKey.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw refuse("the DSN's public key is empty or not letters and digits")
        }
        let location = rest[rest.index(after: at)...]
        guard let slash = location.firstIndex(of: "/") else { throw refuse("the DSN has no project id") }
        let host = String(location[..<slash])
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "?" || $0 == "#" }) else {
            throw refuse("the DSN's host is empty or malformed")
        }
        var path = String(location[slash...])
        while path.hasSuffix("/") { path.removeLast() }
        guard let lastSlash = path.lastIndex(of: "/") else { throw refuse("the DSN has no project id") }
        let projectID = String(path[path.index(after: lastSlash)...])
        guard !projectID.isEmpty, projectID.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw refuse("the DSN's project id '\(projectID)' is not a number")
        }
        let prefix = String(path[..<lastSlash])
        guard !prefix.contains(where: { $0 == " " || $0 == "?" || $0 == "#" }) else { throw refuse("the DSN's path is malformed") }
        return SentryDSN(text: text, scheme: scheme, publicKey: publicKey, host: host, pathPrefix: prefix, projectID: projectID)
    }
}
