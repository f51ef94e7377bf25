#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The values one step's reducer read from its ``ReducerInputs``: the date, the new ids and the
/// random numbers, each in the order read.
///
/// A store hands it to its observers with the step (``StoreStep/inputs``); an action log writes
/// it in the step's line, under `inputs`, when the step read anything:
///
/// <!-- not output: a line of a log, shortened -->
/// ```text
/// {"seq":3,"time":12,"origin":"user","action":{"addButtonTapped":{}},"effects":[],"inputs":{"ids":["00000000-0000-0000-0000-000000000000"],"now":0},…}
/// ```
///
/// It encodes as an object with `ids` (an array of UUID strings), `now` (a date) and `random`
/// (an array of whole numbers), each left out when the step read none.
public struct StepInputs: Hashable, Sendable {
  /// The date the step read, if it read one (a step reads one date, however often it asks).
  public var now: Date?
  /// The new ids the step asked for, in order.
  public var ids: [UUID]
  /// The random numbers the step drew, in order (64 bits each).
  public var random: [UInt64]

  /// The values of one step.
  ///
  /// - Parameters:
  ///   - now: The date the step read.
  ///   - ids: The new ids it asked for, in order.
  ///   - random: The random numbers it drew, in order.
  @inlinable
  public init(now: Date? = nil, ids: [UUID] = [], random: [UInt64] = []) {
    self.now = now
    self.ids = ids
    self.random = random
  }

  /// Whether the step read nothing.
  @inlinable public var isEmpty: Bool { now == nil && ids.isEmpty && random.isEmpty }
}

extension StepInputs: Codable {
  private enum Key: String, CodingKey {
    case ids
    case now
    case random
  }

  /// Decodes the object; a missing key is a step that read none of that kind.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when a value has the wrong type (an id that is no UUID, say).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    self.init(
      now: try container.decodeIfPresent(Date.self, forKey: .now),
      ids: try container.decodeIfPresent([UUID].self, forKey: .ids) ?? [],
      random: try container.decodeIfPresent([UInt64].self, forKey: .random) ?? [])
  }

  /// Encodes the values the step read, leaving out the kinds it read none of.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    if !ids.isEmpty { try container.encode(ids, forKey: .ids) }
    try container.encodeIfPresent(now, forKey: .now)
    if !random.isEmpty { try container.encode(random, forKey: .random) }
  }
}
