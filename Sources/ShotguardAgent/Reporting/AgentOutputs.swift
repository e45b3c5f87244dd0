// What the agent puts out: the shield's covers and the reports.
import Glibc
import ShotguardBase
import ShotguardRegions
import ShotguardX11

/// The shield controller, the report sink and the desktop (session bus and notifications),
/// made from the options.
final class AgentOutputs {
    let shield: ShieldController
    let sink: ReportSink
    let desktop: DesktopIntegration

    init(options: AgentOptions, shield: Shield?, log: Log) throws(AgentError) {
        self.shield = ShieldController(shield: shield, log: log)
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
        sink = ReportSink(spool: spool, reporters: reporters, keepUnredacted: options.keepUnredacted || options.execCommand != nil,
                          host: host, version: options.version, log: log)
        let folders = DesktopFolders(reports: spool.folder, regions: options.regionsPath ?? RegionsFile.defaultPath,
                                     quarantine: QuarantineStore().folder)
        desktop = DesktopIntegration(notify: options.notify, tray: options.tray, indicator: options.indicator, folders: folders,
                                     log: log)
        let desktop = self.desktop
        // The recording mark never rises over the shield's covers.
        desktop.isOwnWindow = { [weak shield] id in shield?.overlays.ids.contains(id) ?? false }
        sink.onReport = { desktop.reported($0) }
    }
}
