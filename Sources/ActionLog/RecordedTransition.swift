import Foundation
import StateStore

/// One step as the log records it: a reduced action. A checkpoint is a step that also carries
/// the full state after it.
///
/// A reader returns these with ``line``, the line the step was read from. The step line itself
/// does not hold it: decoding a line on its own gives 0, and encoding leaves it out.
///
/// ```swift
/// let reader = try ActionLogReader<CounterState, CounterAction, Never>(url: log)
/// while let entry = try reader.next() {
///   if case .transition(let step) = entry { print(step.line, step.sequenceNumber, step.action) }
/// }
/// ```
public struct RecordedTransition<State, Action, Effect> {
  /// The line it was read from, 1-based; 0 for a step not read from a log.
  public var line: Int
  /// The store's sequence number for the action.
  public var sequenceNumber: Int
  /// When the action was sent, since recording started, to the millisecond; `nil` in a log
  /// recorded before steps had times. Verification ignores it.
  public var time: Duration?
  /// Whether a user or an effect sent the action.
  public var origin: ActionOrigin
  /// The action, with secrets as their masks.
  public var action: Action
  /// The effects the reducer returned when it was recorded.
  public var effects: [Effect]
  /// The values the reducer read when it was recorded (none in a log recorded before reducers
  /// had inputs): a replay hands them back, in order.
  public var inputs: StepInputs
  /// The ``StateDigest`` of the state after the action.
  public var digest: String
  /// The full state after the action, on checkpoint lines only.
  public var checkpoint: State?

  /// Creates a step.
  ///
  /// - Parameters:
  ///   - line: The line it was read from; 0 for none.
  ///   - sequenceNumber: The store's sequence number for the action.
  ///   - time: When the action was sent, since recording started.
  ///   - origin: Whether a user or an effect sent the action.
  ///   - action: The action.
  ///   - effects: The effects the reducer returned.
  ///   - inputs: The values the reducer read; none by default.
  ///   - digest: The ``StateDigest`` of the state after the action.
  ///   - checkpoint: The full state after the action, for a checkpoint.
  public init(
    line: Int = 0, sequenceNumber: Int, time: Duration? = nil, origin: ActionOrigin,
    action: Action, effects: [Effect], inputs: StepInputs = StepInputs(), digest: String,
    checkpoint: State? = nil
  ) {
    self.line = line
    self.sequenceNumber = sequenceNumber
    self.time = time
    self.origin = origin
    self.action = action
    self.effects = effects
    self.inputs = inputs
    self.digest = digest
    self.checkpoint = checkpoint
  }
}

extension RecordedTransition: Sendable where State: Sendable, Action: Sendable, Effect: Sendable {}
extension RecordedTransition: Equatable
where State: Equatable, Action: Equatable, Effect: Equatable {}

extension RecordedTransition: Decodable
where State: Decodable, Action: Decodable, Effect: Decodable {
  /// Decodes a step line; ``line`` is 0.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when a field is missing or has the wrong type.
  public init(from decoder: any Decoder) throws {
    try self.init(fields: decoder.container(keyedBy: ActionLogFormat.Key.self))
  }

  /// Decodes a step's fields from a line's container, which the reader has opened once.
  init(fields container: KeyedDecodingContainer<ActionLogFormat.Key>) throws {
    self.init(
      sequenceNumber: try container.decode(Int.self, forKey: .seq),
      time: try Self.time(in: container),
      origin: try container.decode(ActionOrigin.self, forKey: .origin),
      action: try container.decode(Action.self, forKey: .action),
      effects: try container.decode([Effect].self, forKey: .effects),
      inputs: try container.decodeIfPresent(StepInputs.self, forKey: .inputs) ?? StepInputs(),
      digest: try container.decode(String.self, forKey: .digest),
      checkpoint: try container.decodeIfPresent(State.self, forKey: .checkpoint))
  }
}

extension RecordedTransition {
  /// The step's time: a whole number of milliseconds from 0 to `Int.max / 1000`
  /// (9,223,372,036,854,775: about 292,000 years), or none. Anything else — a negative number,
  /// a fraction, a larger number — is an invalid value at `time`, named as such (it read as
  /// "not valid JSON", and `-1` printed as `0:00.0-1`).
  static func time(
    in container: KeyedDecodingContainer<ActionLogFormat.Key>
  ) throws -> Duration? {
    let read: Decimal?
    do {
      read = try container.decodeIfPresent(Decimal.self, forKey: .time)
    } catch DecodingError.typeMismatch(_, let context) {
      // Not a number: named as what a time is, not as the type it is read through.
      throw DecodingError.typeMismatch(Int.self, context)
    }
    guard let number = read else { return nil }
    var whole = Decimal()
    var copy = number
    NSDecimalRound(&whole, &copy, 0, .down)
    // Compared as an `Int` read from the number's digits: a `Decimal` this large compared with
    // another, or turned into an `Int` through `NSDecimalNumber`, is not exact.
    guard number >= 0, whole == number, let milliseconds = Int(number.description),
      milliseconds <= ActionLogFormat.maximumMilliseconds
    else {
      throw DecodingError.dataCorruptedError(
        forKey: .time, in: container,
        debugDescription: "expected a whole number of milliseconds from 0")
    }
    return .milliseconds(milliseconds)
  }
}

extension RecordedTransition: Encodable
where State: Encodable, Action: Encodable, Effect: Encodable {
  /// Encodes the step line, in the documented key order; ``line`` is left out.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever encoding the action, the effects or the checkpoint throws.
  public func encode(to encoder: any Encoder) throws {
    var fields = ActionLogFormat.KeyedFields<State>(encoder)
    try Self.writeFields(
      sequenceNumber: sequenceNumber, time: time, origin: origin, action: action,
      effects: effects, inputs: inputs, digest: digest, patch: nil, checkpoint: checkpoint,
      to: &fields)
  }

  /// Appends the step line, without its newline, as the recorder writes it (see
  /// `writeFields(sequenceNumber:time:origin:action:effects:inputs:digest:patch:checkpoint:to:)`).
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` naming a type that cannot be encoded.
  package func appendLine(
    to line: inout Data, using encoder: CanonicalJSONEncoder
  ) throws(ActionLogError) {
    var checkpointJSON: [UInt8]?
    if let checkpoint {
      var json = Data()
      try ActionLogFormat.appendCanonical(checkpoint, to: &json, using: encoder)
      checkpointJSON = Array(json)
    }
    try ActionLogFormat.LineWriter.append(to: &line, using: encoder) {
      (fields: inout ActionLogFormat.LineWriter) throws(ActionLogError) in
      try Self.writeFields(
        sequenceNumber: sequenceNumber, time: time, origin: origin, action: action,
        effects: effects, inputs: inputs, digest: digest, patch: nil, checkpoint: checkpointJSON,
        to: &fields)
    }
  }
}

extension RecordedTransition where Action: Encodable, Effect: Encodable {
  /// A step's fields, in the documented order: the one list that ``encode(to:)`` and the
  /// recorder's writer write.
  ///
  /// The patch and the checkpoint are whole values in `fields`' own form: the recorder passes
  /// the bytes it encoded once for the digest, the checkpoint and the patch, and
  /// ``encode(to:)`` the checkpoint itself (a ``RecordedTransition`` holds no patch).
  ///
  /// - Parameters:
  ///   - inputs: The values the reducer read; written only when it read any.
  ///   - patch: The step's patch (`StatePatch`), for a step that is not a checkpoint.
  ///   - checkpoint: The state after the step, for a checkpoint step.
  ///   - fields: Where the fields go.
  /// - Throws: What `fields` throws.
  package static func writeFields<Sink: ActionLogFormat.Fields>(
    sequenceNumber: Int, time: Duration?, origin: ActionOrigin, action: Action,
    effects: [Effect], inputs: StepInputs, digest: String, patch: Sink.JSON?,
    checkpoint: Sink.JSON?, to fields: inout Sink
  ) throws(Sink.Failure) {
    try fields.number(sequenceNumber, for: .seq)
    if let time { try fields.number(ActionLogFormat.milliseconds(time), for: .time) }
    try fields.text(origin.rawValue, for: .origin)
    try fields.value(action, for: .action)
    try fields.list(effects, for: .effects)
    if !inputs.isEmpty { try fields.value(inputs, for: .inputs) }
    try fields.text(digest, for: .digest)
    if let patch { try fields.json(patch, for: .patch) }
    if let checkpoint { try fields.json(checkpoint, for: .checkpoint) }
  }
}
