// Writes each report into its own folder (image.png, report.json), atomically, private to the user.
import Glibc
import ShotguardBase
import ShotguardImaging

/// `DIR/<id>/image.png` and `report.json`: written in a hidden folder, then renamed into place,
/// so a reader never sees half a report. Folders are 0700 and files 0600: reports show screens.
/// Only the newest `keep` reports stay; older ones are removed after each write.
struct SpoolReporter {
    /// The absolute path of the spool folder.
    let folder: String
    let compressionLevel: Int
    let retention: SpoolRetention

    /// `$XDG_STATE_HOME/shotguard/reports`, else `~/.local/state/shotguard/reports`.
    static var defaultFolder: String { UserFolders.stateFolder() + "/reports" }

    /// The spool of `--spool` (relative to the current folder), or the default one, prepared:
    /// created where missing and checked to be private all the way down.
    init(options: AgentOptions) throws(PrivateFolderError) {
        folder = try UserFolders.preparePrivateFolder(options.spoolFolder ?? Self.defaultFolder)
        compressionLevel = options.compressionLevel
        retention = SpoolRetention(folder: folder, keep: max(1, options.keepReports), keepFor: options.keepFor)
        retention.prune()
    }

    /// The paths the report will have once written.
    func paths(for id: String) -> (folder: String, image: String, report: String) {
        let final = folder + "/" + id
        return (final, final + "/image.png", final + "/report.json")
    }

    /// Writes the report's folder, then removes the oldest reports beyond `keep`; returns the
    /// report's final paths.
    func write(_ png: [UInt8]?, json: String, id: String) throws(ImagingError) -> (image: String?, report: String) {
        let final = paths(for: id)
        let partial = folder + "/." + id + ".partial"
        guard mkdir(partial, 0o700) == 0 else {
            throw ImagingError(.io, source: partial, "cannot create the report folder: \(errnoText())")
        }
        do throws(ImagingError) {
            if let png { try ImagingError.file { () throws(FileError) in try FileIO.writeAtomically(png, to: partial + "/image.png", mode: 0o600) } }
            try ImagingError.file { () throws(FileError) in
                try FileIO.writeAtomically(Array((json + "\n").utf8), to: partial + "/report.json", mode: 0o600)
            }
            guard rename(partial, final.folder) == 0 else {
                throw ImagingError(.io, source: final.folder, "cannot move the report into place: \(errnoText())")
            }
        } catch {
            unlink(partial + "/image.png")
            unlink(partial + "/report.json")
            rmdir(partial)
            throw error
        }
        retention.prune()
        return (png == nil ? nil : final.image, final.report)
    }
}
