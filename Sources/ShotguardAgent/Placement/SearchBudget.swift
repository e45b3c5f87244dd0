// The bound on how long a search for an image on the screen may take, and how it ended.
import ShotguardBase
import ShotguardImaging

/// Caps on one search: hostile images (a crop of 2-pixel stripes on a striped screen) could
/// otherwise match the first rows at hundreds of thousands of positions. Over a cap, the image
/// is unplaceable (the report carries the fallback): slow never turns into placed.
struct SearchBudget: Sendable {
    /// Positions compared over the whole image.
    var verifications: Int
    /// Positions that pass the cheap first checks (a row, a few block means); more means the
    /// image is not distinctive enough to place.
    var candidates: Int
    /// Seconds on the monotonic clock.
    var seconds: Double

    /// 100 ms per image, as the agent settles an event while the user waits for the report.
    static let standard = SearchBudget(verifications: 64, candidates: 64, seconds: 0.1)

    /// Starts the clock.
    func started() -> RunningBudget {
        RunningBudget(limits: self, deadline: monotonicNow() + seconds)
    }
}

/// A budget being spent.
struct RunningBudget {
    let limits: SearchBudget
    let deadline: Double
    private(set) var verified = 0

    /// Counts one whole-image comparison; false when the budget is spent.
    mutating func spendVerification() -> Bool {
        verified += 1
        return verified <= limits.verifications && !timeIsUp
    }

    var timeIsUp: Bool { monotonicNow() > deadline }
}

/// How a search for an image's position ended.
enum SearchResult: Equatable {
    case found(Rect)
    case notFound
    /// It fits at more than one position: the rules of its twin could be missed.
    case ambiguous
    /// The search hit one of its caps before it could decide.
    case overBudget
    /// Too small or too flat to place by its pixels.
    case indistinct

    var rect: Rect? { if case .found(let rect) = self { rect } else { nil } }
}
