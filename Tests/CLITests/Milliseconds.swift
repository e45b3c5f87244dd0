// Milliseconds between two moments, for the figures tests print (never for a threshold).
import Foundation

/// Milliseconds from `start` to `end`, rounded.
func milliseconds(from start: Date, to end: Date) -> Int { Int((end.timeIntervalSince(start) * 1000).rounded()) }
