// Writes each report into its own folder (image.png, report.json), atomically, private to the user.
import Glibc
import ShotguardImaging

/// `DIR/<id>/image.png` and `report.json`: written in a hidden folder, then renamed into place,
/// so a reader never sees half a report. Folders are 0700 and files 0600: reports show screens.
struct SpoolReporter {
    let folder: String
    let compressionLevel: Int

    /// `$XDG_STATE_HOME/shotguard/reports`, else `~/.local/state/shotguard/reports`.
    static var defaultFolder: String {
        if let state = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), state.hasPrefix("/") {
            return state + "/shotguard/reports"
        }
        return (UserFolders.home() ?? "/") + "/.local/state/shotguard/reports"
    }

    /// Creates the spool folder (and its parents) with mode 0700 where missing.
    func prepare() throws(SystemError) {
        try UserFolders.makePrivate(folder)
    }

    /// The paths the report will have once written.
    func paths(for id: String) -> (folder: String, image: String, report: String) {
        let final = folder + "/" + id
        return (final, final + "/image.png", final + "/report.json")
    }

    /// Writes the report's folder; returns its final paths.
    func write(_ png: [UInt8]?, json: String, id: String) throws(ImagingError) -> (image: String?, report: String) {
        let final = paths(for: id)
        let partial = folder + "/." + id + ".partial"
        guard mkdir(partial, 0o700) == 0 else {
            throw ImagingError(.io, source: partial, "cannot create the report folder: \(errnoText())")
        }
        do throws(ImagingError) {
            if let png { try FileIO.writeAtomically(png, to: partial + "/image.png", mode: 0o600) }
            try FileIO.writeAtomically(Array((json + "\n").utf8), to: partial + "/report.json", mode: 0o600)
            guard rename(partial, final.folder) == 0 else {
                throw ImagingError(.io, source: final.folder, "cannot move the report into place: \(errnoText())")
            }
        } catch {
            unlink(partial + "/image.png")
            unlink(partial + "/report.json")
            rmdir(partial)
            throw error
        }
        return (png == nil ? nil : final.image, final.report)
    }
}
