import Foundation

/// Reading a leaf: a scalar, or a type whose canonical JSON is not what its own `Codable`
/// writes (as ``CanonicalJSONEncoder`` writes them, and `JSONDecoder` reads them with its
/// default strategies).
///
/// Each takes its value's coding path as an autoclosure: it is made only for an error. The
/// errors are `JSONDecoder`'s (a `null` is `valueNotFound`, except for a `Bool`, another kind
/// `typeMismatch`), and where `JSONDecoder` said only "not valid JSON", a `dataCorrupted` at
/// the value's path whose description says what the value must be.
extension CanonicalJSONDecoder {
  /// A type read in a way of its own: a `Duration` (from ``CanonicalForm/v2`` on), a `Date`,
  /// `Data`, a `URL`, a `Decimal`, or a scalar asked for as a generic value. Any other type is
  /// read by its `init(from:)`.
  enum Leaf {
    case string, int, bool, double, duration, date, data, url, decimal

    /// The leaf `Value` is; `nil` for a type read by its `init(from:)`. (No `Value?` here:
    /// making one for a type known only at run time costs a lookup of its metadata.)
    init?<Value>(_: Value.Type, form: CanonicalForm) {
      if Value.self == String.self {
        self = .string
      } else if Value.self == Int.self {
        self = .int
      } else if Value.self == Bool.self {
        self = .bool
      } else if Value.self == Double.self {
        self = .double
      } else if Value.self == Duration.self, form.writesDurationsAsSeconds {
        self = .duration
      } else if Value.self == Date.self {
        self = .date
      } else if Value.self == Data.self {
        self = .data
      } else if Value.self == URL.self {
        self = .url
      } else if Value.self == Decimal.self {
        self = .decimal
      } else {
        return nil
      }
    }
  }
}

extension CanonicalJSONDecoder.ValueReader {
  /// Token `index` read as `leaf`, the leaf `Value` is.
  func read<Value>(
    _ leaf: CanonicalJSONDecoder.Leaf, as _: Value.Type, _ index: Int,
    at path: @autoclosure () -> [any CodingKey]
  ) throws -> Value {
    let value: Any
    switch leaf {
    case .string: value = try string(index, at: path())
    case .int: value = try integer(index, at: path()) as Int
    case .bool: value = try bool(index, at: path())
    case .double: value = try double(index, at: path())
    case .duration: value = try duration(index, at: path())
    case .date:
      try expectValue(Date.self, index, at: path())
      value = Date(timeIntervalSinceReferenceDate: try double(index, at: path()))
    case .data: value = try data(index, at: path())
    case .url: value = try url(index, at: path())
    case .decimal:
      guard let decimal = try number(Decimal.self, index, at: path()).decimal() else {
        throw corrupted("expected a number within the range of Decimal", at: path())
      }
      value = decimal
    }
    guard let typed = value as? Value else { throw mismatch(Value.self, index, at: path()) }
    return typed
  }

  func bool(_ index: Int, at path: @autoclosure () -> [any CodingKey]) throws -> Bool {
    switch kind(index) {
    case .true: return true
    case .false: return false
    default: throw mismatch(Bool.self, index, at: path())
    }
  }

  func string(_ index: Int, at path: @autoclosure () -> [any CodingKey]) throws -> String {
    guard kind(index) == .string else { throw wrongKind(String.self, index, at: path()) }
    let contents = tape.text(of: index)
    if tape.tokens[index].flags == 0 { return String(decoding: contents, as: UTF8.self) }
    guard let text = JSONString.value(ofContents: contents) else {
      throw corrupted(
        "expected a JSON string: UTF-8 without control characters, and escapes as JSON "
          + "writes them", at: path())
    }
    return text
  }

  func integer<Integer: FixedWidthInteger>(
    _ index: Int, at path: @autoclosure () -> [any CodingKey]
  ) throws -> Integer {
    if index >= 0, let small = tape.smallInteger(index), let value = Integer(exactly: small) {
      return value
    }
    guard let value = try number(Integer.self, index, at: path()).integer(Integer.self) else {
      throw corrupted(
        "expected \(Integer.self), a whole number from \(Integer.min) to \(Integer.max)",
        at: path())
    }
    return value
  }

  func double(_ index: Int, at path: @autoclosure () -> [any CodingKey]) throws -> Double {
    guard let value = try number(Double.self, index, at: path()).double() else {
      throw corrupted("expected a number within the range of Double", at: path())
    }
    return value
  }

  func float(_ index: Int, at path: @autoclosure () -> [any CodingKey]) throws -> Float {
    guard let value = try number(Float.self, index, at: path()).float() else {
      throw corrupted("expected a number within the range of Float", at: path())
    }
    return value
  }

  /// A `Duration` as a number of seconds (``CanonicalForm/v2``).
  private func duration(_ index: Int, at path: @autoclosure () -> [any CodingKey]) throws
    -> Duration
  {
    guard
      let duration = CanonicalBytes.duration(seconds: try number(Duration.self, index, at: path()))
    else {
      throw corrupted(
        "expected a Duration in seconds: a whole number of attoseconds, within "
          + "±170141183460469231731.687303715884105727 seconds", at: path())
    }
    return duration
  }

  private func data(_ index: Int, at path: @autoclosure () -> [any CodingKey]) throws -> Data {
    try expectValue(Data.self, index, at: path())
    guard let data = Data(base64Encoded: try string(index, at: path())) else {
      throw corrupted("expected Data in Base64", at: path())
    }
    return data
  }

  private func url(_ index: Int, at path: @autoclosure () -> [any CodingKey]) throws -> URL {
    try expectValue(URL.self, index, at: path())
    guard let url = URL(string: try string(index, at: path())) else {
      throw corrupted("expected a URL", at: path())
    }
    return url
  }

  /// Token `index` read as a number, for a `type`.
  private func number(
    _ type: Any.Type, _ index: Int, at path: @autoclosure () -> [any CodingKey]
  ) throws -> JSONNumber {
    guard kind(index) == .number else { throw wrongKind(type, index, at: path()) }
    guard let number = JSONNumber(tape.text(of: index)) else {
      throw corrupted("expected a number as JSON writes it", at: path())
    }
    return number
  }

  // MARK: - Errors

  /// Throws `valueNotFound` for a `null` where a `type` must be.
  private func expectValue(
    _ type: Any.Type, _ index: Int, at path: @autoclosure () -> [any CodingKey]
  ) throws {
    if kind(index) == .null { throw wrongKind(type, index, at: path()) }
  }

  /// `valueNotFound` for a `null`, `typeMismatch` for any other kind.
  func wrongKind(
    _ type: Any.Type, _ index: Int, at path: @autoclosure () -> [any CodingKey]
  ) -> DecodingError {
    guard kind(index) == .null else { return mismatch(type, index, at: path()) }
    return .valueNotFound(
      type,
      .init(
        codingPath: path(),
        debugDescription: "Cannot get value of type \(type) -- found null value instead"))
  }

  func mismatch(
    _ type: Any.Type, _ index: Int, at path: @autoclosure () -> [any CodingKey]
  ) -> DecodingError {
    let found =
      switch kind(index) {
      case .object: "a dictionary"
      case .array: "an array"
      case .string: "a string"
      case .number: "a number"
      case .true, .false: "bool"
      case .null: "null"
      }
    return .typeMismatch(
      type,
      .init(
        codingPath: path(),
        debugDescription: "Expected to decode \(type) but found \(found) instead."))
  }

  private func corrupted(_ description: String, at path: [any CodingKey]) -> DecodingError {
    .dataCorrupted(.init(codingPath: path, debugDescription: description))
  }
}
