// `watch`'s reporter options (--report-to and its companions), checked into DeliveryOptions.
import ShotguardAgent
import ShotguardBase
import ShotguardDelivery
import ShotguardImaging

enum ReportOptions {
    static func parse(_ arguments: ParsedArguments) throws(CLIError) -> DeliveryOptions {
        var options = DeliveryOptions()
        let headerFile = arguments.value("report-header-file").map(UserFolders.absolute)
        if let headerFile {
            // Read once now, so a bad file is a usage error at start rather than failed uploads later.
            do throws(HeaderFileError) { _ = try HeaderFile.read(headerFile) } catch { throw .usage("watch: \(error)") }
        }
        for text in arguments.all("report-to") {
            do throws(DestinationError) {
                options.destinations.append(try Destination.parse(text, headerFile: headerFile))
            } catch {
                throw .usage("watch: \(error)")
            }
        }
        if headerFile != nil, !options.destinations.contains(where: { if case .webhook = $0 { true } else { false } }) {
            throw .usage("watch: --report-header-file goes with a webhook (--report-to https://…)")
        }
        options.ask = arguments.has("report-ask")
        if options.ask, options.destinations.isEmpty {
            throw .usage("watch: --report-ask needs a destination to send to (--report-to)")
        }
        if let text = arguments.value("report-queue") {
            guard let count = Int(text), count >= 1 else {
                throw .usage("watch: --report-queue: '\(text.excerpt())' is not a number of reports (expected a whole number of at "
                    + "least 1, like --report-queue 2000)")
            }
            options.bounds.reports = count
        }
        if let text = arguments.value("report-queue-size") {
            guard let bytes = size(text) else {
                throw .usage("watch: --report-queue-size: '\(text.excerpt())' is not a size (expected a number with K, M or G, "
                    + "like 512M)")
            }
            options.bounds.bytes = bytes
        }
        if let text = arguments.value("report-queue-for") {
            if text == "forever" {
                options.bounds.age = nil
            } else if let seconds = DurationText.seconds(text) {
                options.bounds.age = seconds
            } else {
                throw .usage("watch: --report-queue-for: '\(text.excerpt())' is not a duration (expected 12h, 7d or 'forever')")
            }
        }
        return options
    }

    /// `512M`, `2G`, `100K` or a number of bytes; at least 1 MiB, so one screenshot fits.
    static func size(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var digits = text.uppercased()
        var unit = 1
        if let last = digits.last, let scale = units[last] {
            unit = scale
            digits.removeLast()
        }
        guard let number = Int(digits), number > 0 else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit)
        return overflow || bytes < 1 << 20 ? nil : bytes
    }
}
