/// Where a store's ``ReducerInputs`` come from: ``Store/inputs``.
public enum InputSource: Sendable {
  /// The system's: `Date()`, `UUID()`, `SystemRandomNumberGenerator`. A store's default.
  case live
  /// Values the host controls: a fixed date, ids counted from a number, a seeded generator. A
  /// test store's default.
  case controlled(ControlledInputs)
}
