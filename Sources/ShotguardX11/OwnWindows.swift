// shotguard's own windows on the screen, known in one place: the shield's covers, the tray icon's
// menu, the recording mark and the picker's outline are never windows of the user's.
import ShotguardScreen

/// What tells a window of shotguard's (this process's or another shotguard's: `shield --`, the
/// agent, `regions add --pick`) from the user's: an override-redirect window with one of these
/// titles. The window list leaves them out, so that none hides a protected window from the
/// rules, nor is itself taken for one. The tray icon lives inside the tray's window, never a
/// top-level window of its own once docked.
public enum OwnWindows {
    /// The titles of shotguard's override-redirect windows besides the shield's covers.
    static let titles: Set<String> = [PopupMenu.title, RecordingIndicator.title, DragOutline.title]

    public static func contains(_ window: WindowInfo) -> Bool {
        ShieldOverlays.isCover(window) || (window.isOverrideRedirect && titles.contains(window.title))
    }
}
