// What one attempt sends: a queued report made into a Sentry envelope, a form POST or a command's environment.
import Glibc
import ShotguardBase

/// An attempt, ready to start.
enum Attempt {
    case http(HTTPRequest)
    case command(String, environment: [String: String])

    /// The attempt of `delivery` for `entry`, whose files are in `outbox`; or why none can be made
    /// (a destination that no longer parses, an unreadable header file or report).
    static func make(_ delivery: Delivery, of entry: OutboxEntry, outbox: Outbox, client: (name: String, version: String),
                     now: Double) -> Result<Attempt, AttemptFailure> {
        let destination: Destination
        do throws(DestinationError) {
            destination = try Destination.parse(delivery.to, headerFile: delivery.headerFile)
        } catch {
            return .failure(AttemptFailure(error.description))
        }
        switch destination {
        case .command(let command):
            return .success(.command(command, environment: [
                "SHOTGUARD_REPORT": outbox.reportPath(of: entry),
                "SHOTGUARD_IMAGE": entry.hasImage ? outbox.imagePath(of: entry) : "",
            ]))
        case .sentry(let dsn):
            do throws(FileError) {
                let report = try outbox.report(of: entry)
                let image = try outbox.image(of: entry)
                let summary = ReportSummary(json: report) ?? ReportSummary()
                let body = SentryEnvelope.encode(eventID: entry.eventID, dsn: dsn, sentAt: now, summary: summary, reportJSON: report,
                                                 image: image, client: client)
                return .success(.http(HTTPRequest(url: dsn.envelopeURL, headers: [
                    "Content-Type: application/x-sentry-envelope", dsn.authHeader(client: "\(client.name)/\(client.version)"),
                ], body: .bytes(body))))
            } catch {
                return .failure(AttemptFailure("cannot read the queued report: \(error.description)"))
            }
        case .webhook(let url, let headerFile):
            var headers: [String] = []
            if let headerFile {
                do throws(HeaderFileError) {
                    headers = try HeaderFile.read(headerFile)
                } catch {
                    return .failure(AttemptFailure(error.description))
                }
            }
            let report: [UInt8]
            do throws(FileError) {
                report = try outbox.report(of: entry)
            } catch {
                return .failure(AttemptFailure("cannot read the queued report: \(error.description)"))
            }
            // The same id at every attempt: a receiver can drop a repeat (delivery is at least once).
            headers.append("X-Shotguard-Delivery: \(entry.eventID)")
            var parts = [HTTPRequest.Part(name: "report", type: "application/json", filename: nil, content: .bytes(report))]
            if entry.hasImage {
                parts.append(HTTPRequest.Part(name: "image", type: "image/png", filename: "screenshot.png",
                                              content: .file(outbox.imagePath(of: entry))))
            }
            return .success(.http(HTTPRequest(url: url, headers: headers, body: .form(parts))))
        }
    }
}

/// Why an attempt could not be made.
struct AttemptFailure: Error {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
