/// A coding key made from any string: the keys of values whose keys are data (a JSON object of
/// the tests' own, keys in a chosen order).
struct NamedKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
