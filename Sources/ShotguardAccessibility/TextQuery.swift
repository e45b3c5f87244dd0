// One-shot accessible text lookup for commands that scan once (capture).
import ShotguardText

public enum TextQuery {
    /// The showing text of every application right now, within `limits`; the reason when there
    /// is no accessibility bus (OCR then reads everything). Runs on the calling thread.
    public static func runs(limits: AccessibleTextLimits = .standard) -> Result<AccessibleTextRuns, AccessibilityUnavailable> {
        AccessibilityBus.connect().map { $0.textRuns(limits: limits) }
    }
}
