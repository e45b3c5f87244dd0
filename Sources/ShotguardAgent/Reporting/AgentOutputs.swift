// What the agent puts out: the shield's covers and the reports.
import Glibc
import ShotguardBase
import ShotguardRegions
import ShotguardX11

/// The shield controller, the report sink (with the delivery queue) and the desktop (session
/// bus and notifications), made from the options.
final class AgentOutputs {
    let shield: ShieldController
    let sink: ReportSink
    let desktop: DesktopIntegration
    var delivery: ReportDelivery { sink.delivery }

    init(options: AgentOptions, sentinel: Sentinel, log: Log) throws(AgentError) {
        shield = ShieldController(sentinel: sentinel, coversReads: options.shieldRecordings, log: log)
        let spool: SpoolReporter
        do throws(PrivateFolderError) {
            spool = try SpoolReporter(options: options)
        } catch {
            throw AgentError(message: "cannot keep reports: \(error)", isUsage: false)
        }
        var reporters: [any Reporter] = []
        if options.printJSON { reporters.append(JSONLineReporter()) }
        if let command = options.execCommand { reporters.append(ExecReporter(command: command, log: log)) }
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        let host = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let delivery = try ReportDelivery(options: options.delivery, version: options.version, log: log)
        sink = ReportSink(spool: spool, delivery: delivery, reporters: reporters,
                          keepUnredacted: options.keepUnredacted || options.execCommand != nil, host: host, version: options.version,
                          log: log)
        let folders = DesktopFolders(reports: spool.folder, regions: options.regionsPath ?? RegionsFile.defaultPath,
                                     quarantine: QuarantineStore().folder)
        desktop = DesktopIntegration(notify: options.notify, tray: options.tray, indicator: options.indicator, folders: folders,
                                     log: log)
        let desktop = self.desktop
        let asking = delivery.ask && !delivery.destinations.isEmpty
        sink.onReport = { report, json in desktop.reported(report, json: json, askToSend: asking) }
        desktop.sendAsked = { [weak delivery] id in delivery?.userAsked(toSend: id) }
    }
}
