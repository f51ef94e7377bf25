#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The values a reducer reads from the world — the current date, a new id, a random number —
/// handed to it by the store, so that it stays a pure function of what it is given.
///
/// A reducer that reads them conforms to ``ReducerWithInputs`` and takes them as a parameter:
///
/// ```swift
/// struct TodosCore: ReducerWithInputs {
///   func reduce(
///     into state: inout TodosState, action: TodosAction, inputs: inout ReducerInputs
///   ) -> [TodosEffect] {
///     switch action {
///     case .addButtonTapped:
///       state.todos.insert(Todo(id: inputs.newID(), createdAt: inputs.now), at: 0)
///       return []
///     …
///     }
///   }
/// }
/// ```
///
/// Where the values come from is the store's ``Store/inputs``: the system's in an app, fixed
/// ones in a test store (``ControlledInputs``: a date the test sets, ids `0, 1, 2, …`, a seeded
/// generator), the recorded ones in a replay. Every value a step read is in its ``read``: the
/// store hands it to its observers with the step (``StoreStep/inputs``), an action log writes it
/// in the step's line, and a replay hands the reducer the same values again, so
/// `replay --verify` reproduces the step exactly.
///
/// It is a `RandomNumberGenerator`: `Int.random(in: 1...6, using: &inputs)`.
public struct ReducerInputs: RandomNumberGenerator {
  /// Where the values come from.
  @usableFromInline var source: Source
  /// Every value read so far, in the order read (the date once: a step has one date).
  @inlinable public var read: StepInputs { values }
  @usableFromInline var values: StepInputs

  /// Where a ``ReducerInputs`` takes its values from.
  @usableFromInline enum Source {
    case live
    case controlled(ControlledInputs)
    /// A replay's: the values the step recorded, in order; past them (the replay diverges),
    /// the controlled inputs' values, so that a generator drawing on never sees a constant.
    case replaying(StepInputs, beyond: ControlledInputs)
    /// No store handed the reducer inputs: it was called through `reduce(into:action:)`.
    case missing
  }

  /// Inputs from `source`, for calling a reducer yourself (a test of one reducer, a tool):
  ///
  /// ```swift
  /// var inputs = ReducerInputs(.controlled(ControlledInputs()))
  /// let effects = TodosCore().reduce(into: &state, action: .addButtonTapped, inputs: &inputs)
  /// inputs.read.ids   // [00000000-0000-0000-0000-000000000000]
  /// ```
  ///
  /// - Parameter source: Where the values come from.
  @inlinable
  public init(_ source: InputSource) {
    switch source {
    case .live: self.source = .live
    case .controlled(let controlled): self.source = .controlled(controlled)
    }
    values = StepInputs()
  }

  /// Inputs that hand back the values a recorded step read, in order: a replay's.
  ///
  /// - Parameter recorded: The values the step's log line records.
  package init(replaying recorded: StepInputs) {
    source = .replaying(recorded, beyond: ControlledInputs())
    values = StepInputs()
  }

  /// Inputs for a reducer called through `reduce(into:action:)`, which no store handed any:
  /// reading one reports a ``RuntimeWarning`` and gives the system's value.
  @inlinable static var missing: ReducerInputs {
    ReducerInputs(source: .missing)
  }

  @inlinable init(source: Source) {
    self.source = source
    values = StepInputs()
  }

  /// The current date: the same for every read within one step.
  public var now: Date {
    mutating get {
      if let now = read.now { return now }
      let now: Date
      switch source {
      case .live:
        now = Date()
      case .controlled(let controlled):
        now = controlled.now
      case .replaying(let recorded, let beyond):
        now = recorded.now ?? beyond.now
      case .missing:
        Self.reportMissing("the date")
        now = Date()
      }
      values.now = now
      return now
    }
  }

  /// A new id: a random UUID in an app, `00000000-0000-0000-0000-000000000000`,
  /// `…-000000000001`, … in a test store (``ControlledInputs/id(_:)``).
  ///
  /// - Returns: An id no earlier call returned.
  public mutating func newID() -> UUID {
    let id: UUID
    switch source {
    case .live:
      id = UUID()
    case .controlled(var controlled):
      id = controlled.takeID()
      source = .controlled(controlled)
    case .replaying(let recorded, var beyond):
      let index = read.ids.count
      id = index < recorded.ids.count ? recorded.ids[index] : beyond.takeID()
      source = .replaying(recorded, beyond: beyond)
    case .missing:
      Self.reportMissing("a new id")
      id = UUID()
    }
    values.ids.append(id)
    return id
  }

  /// The next 64 random bits: the system's generator in an app, a seeded one in a test store.
  ///
  /// - Returns: A value uniformly distributed over all of `UInt64`.
  public mutating func next() -> UInt64 {
    let number: UInt64
    switch source {
    case .live:
      var system = SystemRandomNumberGenerator()
      number = system.next()
    case .controlled(var controlled):
      number = controlled.random.next()
      source = .controlled(controlled)
    case .replaying(let recorded, var beyond):
      let index = read.random.count
      // Drawing on past the recorded numbers must not loop: a constant would keep a bounded
      // `random(in:using:)` rejecting it forever.
      number = index < recorded.random.count ? recorded.random[index] : beyond.random.next()
      source = .replaying(recorded, beyond: beyond)
    case .missing:
      Self.reportMissing("a random number")
      var system = SystemRandomNumberGenerator()
      number = system.next()
    }
    values.random.append(number)
    return number
  }

  /// The source as it is after the step, for a store to keep: a controlled source counts its
  /// ids and moves its generator on. `nil` when nothing changed it.
  @inlinable var sourceAfterStep: InputSource? {
    guard case .controlled(let controlled) = source, !values.ids.isEmpty || !values.random.isEmpty
    else { return nil }
    return .controlled(controlled)
  }

  /// For a replay: how the values the reducer asked for differ from the ones the step
  /// recorded, in words; `nil` when it asked for exactly those (the date when one is recorded,
  /// as many ids and random numbers as recorded).
  package var replayMismatch: String? {
    guard case .replaying(let recorded, _) = source else { return nil }
    if (read.now == nil) != (recorded.now == nil) {
      return read.now == nil
        ? "the step recorded the date, and the reducer did not read it"
        : "the reducer read the date, which the step did not record"
    }
    if read.ids.count != recorded.ids.count {
      return "the reducer asked for \(Self.count(read.ids.count, "new id")); the step recorded "
        + "\(recorded.ids.count)"
    }
    if read.random.count != recorded.random.count {
      return "the reducer asked for \(Self.count(read.random.count, "random number")); the step "
        + "recorded \(recorded.random.count)"
    }
    return nil
  }

  private static func count(_ count: Int, _ noun: String) -> String {
    "\(count == 0 ? "no" : String(count)) \(noun)\(count == 1 ? "" : "s")"
  }

  private static func reportMissing(_ value: String) {
    RuntimeWarning.report(
      "a reducer read \(value) from inputs no store handed it (it was called through "
        + "reduce(into:action:)): it got the system's, which no action log records.",
      advice: "A reducer whose body reads inputs passes them on: conform it to ReducerWithInputs "
        + "and call body.reduce(into: &state, action: action, inputs: &inputs).")
  }
}
