// Whether the text pass can run here: Tesseract and its English model load.

public enum OCRCheck {
    /// Nil when Tesseract and its English model load; else why not, with the package to install.
    public static func unavailable() -> OCRUnavailable? {
        do throws(OCRUnavailable) {
            _ = try OCREngine()
            return nil
        } catch {
            return error
        }
    }
}
