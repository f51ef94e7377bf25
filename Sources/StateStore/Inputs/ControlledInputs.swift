#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reducer inputs a host controls: a date it sets, ids counted `0, 1, 2, …`, and a seeded
/// random generator. A test store's inputs (``InputSource/controlled(_:)``).
///
/// ```swift
/// let store = TestStore(initialState: TodosState(), reducer: TodosReducer())
/// store.inputs.now = Date(timeIntervalSince1970: 1_800_000_000)
/// await store.send(.addButtonTapped) {
///   $0.todos = [Todo(id: ControlledInputs.id(0), createdAt: Date(timeIntervalSince1970: 1_800_000_000))]
/// }
/// ```
public struct ControlledInputs: Sendable {
  /// The date every step reads, until it is set again. By default 2001-01-01T00:00:00Z
  /// (`Date(timeIntervalSinceReferenceDate: 0)`).
  public var now: Date
  /// The number of the next new id: ``id(_:)`` of it is what the next `newID()` returns.
  public var nextID: UInt64
  /// The generator random numbers are drawn from.
  public var random: SeededGenerator

  /// Controlled inputs.
  ///
  /// - Parameters:
  ///   - now: The date every step reads.
  ///   - nextID: The number of the first new id.
  ///   - seed: The seed of the random generator.
  public init(
    now: Date = Date(timeIntervalSinceReferenceDate: 0), nextID: UInt64 = 0, seed: UInt64 = 0
  ) {
    self.now = now
    self.nextID = nextID
    self.random = SeededGenerator(seed: seed)
  }

  /// The id numbered `number`: its last 16 hex digits are the number, the others zero.
  ///
  /// ```swift
  /// ControlledInputs.id(0)     // 00000000-0000-0000-0000-000000000000
  /// ControlledInputs.id(1)     // 00000000-0000-0000-0000-000000000001
  /// ControlledInputs.id(255)   // 00000000-0000-0000-0000-0000000000FF
  /// ```
  ///
  /// - Parameter number: The id's number.
  /// - Returns: The UUID.
  public static func id(_ number: UInt64) -> UUID {
    func byte(_ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: number >> shift) }
    return UUID(
      uuid: (
        0, 0, 0, 0, 0, 0, 0, 0, byte(56), byte(48), byte(40), byte(32), byte(24), byte(16),
        byte(8), byte(0)
      ))
  }

  /// The next new id, counting on.
  mutating func takeID() -> UUID {
    defer { nextID &+= 1 }
    return Self.id(nextID)
  }
}
