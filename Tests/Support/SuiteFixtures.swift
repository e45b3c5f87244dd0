// Fixtures kept per test class: a private X server or desktop that a suite starts once.
import XCTest

/// XCTest calls `class func setUp` once for each test class, with `self` that class: a base
/// class keeps each subclass's fixture here, keyed by the class. A fixture that cannot start
/// is kept as its error, which `get` throws in every test of the class (a failure, not a skip).
///
/// Unchecked Sendable: XCTest runs a process's suites one after another, and only their class
/// setUp, tearDown and tests touch this.
public final class SuiteFixtures<Value>: @unchecked Sendable {
    private var values: [ObjectIdentifier: Result<Value, FixtureError>] = [:]

    public init() {}

    /// Makes `suite`'s fixture, or records why it could not.
    public func start(_ suite: AnyClass, _ make: () throws -> Value) {
        do {
            values[ObjectIdentifier(suite)] = .success(try make())
        } catch let error as FixtureError {
            values[ObjectIdentifier(suite)] = .failure(error)
        } catch {
            values[ObjectIdentifier(suite)] = .failure(FixtureError("cannot set up the suite's fixture: \(error)"))
        }
    }

    /// `suite`'s fixture; throws why it is not there.
    public func get(_ suite: AnyClass) throws -> Value {
        guard let value = values[ObjectIdentifier(suite)] else { throw FixtureError("the suite's fixture was not started") }
        return try value.get()
    }

    /// Forgets `suite`'s fixture and returns it, for the class's tearDown to stop.
    @discardableResult
    public func remove(_ suite: AnyClass) -> Value? {
        try? values.removeValue(forKey: ObjectIdentifier(suite))?.get()
    }
}
