// Why a test's fixture (an X server, a program it needs, a helper process) is not there.

/// Thrown from a test's setUp or body so the test fails saying what is missing, never skips.
public struct FixtureError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
