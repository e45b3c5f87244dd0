// The agent's own folders, known in one place: nothing in them is a user's screenshot.
import ShotguardBase

/// Where the agent writes for itself: its state folder (reports, quarantine, the delivery
/// queue, the lock when there is no runtime folder) and the spool given with `--spool`. A file
/// in one of them — a report's image, an original set aside — is never a screenshot to guard,
/// whoever wrote it. The one answer to "is this path the agent's own?"; what the agent wrote
/// elsewhere (a rewrite, a clipboard image it served) is known by its key in `RecentKeys` as
/// `.own`, and its windows by `OwnWindows`.
struct OwnFolders: Sendable {
    let folders: [BytePath]

    /// The state folder, and `spool` when it lies elsewhere.
    init(spool: String? = nil) {
        let state = BytePath(UserFolders.stateFolder())
        folders = [state] + [spool.map { BytePath(UserFolders.absolute($0)) }].compactMap { $0 }.filter { !$0.isInside(state) }
    }

    func contains(_ path: BytePath) -> Bool { folders.contains { path.isInside($0) } }
}
