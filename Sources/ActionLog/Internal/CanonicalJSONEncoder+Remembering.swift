import StateStore

/// Remembering the top-level object's values between encodings.
///
/// A state log encodes the state after every step, and a step changes one or two of its
/// fields: the rules, the signed-in user and the other nested values come out the same bytes
/// step after step. An encoder made with `remembersTopLevelValues` keeps, for each value
/// directly inside the top-level object whose type is `Equatable`, a copy of the value and its
/// rendered bytes; when the next encoding finds an equal value under the same key it copies
/// the bytes instead of encoding the value again.
///
/// This relies on what the replay's skip of an unchanged state already relies on: values
/// that compare equal encode the same. Objects (class instances) are never remembered: the
/// kept reference would compare equal to the changed object. Scalars (strings, numbers,
/// booleans) are written directly and never remembered. At most
/// ``CanonicalJSONEncoder/Core/maximumRemembered`` values are kept and a key is found in
/// constant time, so a top-level dictionary with many keys costs no more than without.
///
/// One level further down, the elements of a container directly inside the top-level object —
/// the items of a `[Item]` state property, the values of a dictionary — are remembered the same
/// way, by their index or key: when a step changes one item of a thousand, 999 are copied as
/// bytes. At most ``CanonicalJSONEncoder/Core/maximumRememberedElements`` are kept, so a huge
/// list costs bounded memory (the elements past the bound are encoded every time).
extension CanonicalJSONEncoder {
  /// The remembered elements of one container inside the top-level object.
  final class ElementMemory {
    var byIndex: [RememberedValue?] = []
    var byKey: [String: RememberedValue] = [:]
  }

  /// Whether `Value` is written directly (a string, a number, …): nothing to remember.
  static func isLeaf<Value>(_: Value.Type) -> Bool {
    Value.self == String.self || Value.self == Int.self || Value.self == Bool.self
      || Value.self == Double.self || Value.self == Int64.self || Value.self == UInt64.self
  }

  /// One remembered value: its key, its type, a copy of it, and its canonical bytes.
  final class RememberedValue {
    let key: String
    let type: ObjectIdentifier
    let equality: any ValueEquality
    let value: Any
    let bytes: [UInt8]

    init<Value>(key: String, value: Value, equality: any ValueEquality, bytes: [UInt8]) {
      self.key = key
      self.type = ObjectIdentifier(Value.self)
      self.equality = equality
      self.value = value
      self.bytes = bytes
    }

    /// Whether `value` is the remembered value.
    func holds<Value>(_ value: Value) -> Bool {
      type == ObjectIdentifier(Value.self) && equality.areEqual(value, self.value) == true
    }
  }
}

extension CanonicalJSONEncoder.Core {
  /// The most values remembered at once.
  static let maximumRemembered = 64
  /// The most elements of the top-level object's containers remembered at once.
  static let maximumRememberedElements = 4_096
  /// The largest value remembered whole: the bytes its encoding wrote to the arena (its
  /// canonical JSON without the keys of its objects).
  static let maximumRememberedBytes = 1 << 20

  /// Encodes an element of the container `frame`, directly inside the top-level object under
  /// `outer`: from memory when it is the element remembered at the same index or key, and
  /// remembered otherwise.
  func encodeRememberingElement<Value: Encodable>(
    _ value: Value, in frame: Int, outer: String, key: any CodingKey
  ) throws -> CanonicalJSONEncoder.Node {
    let memory: CanonicalJSONEncoder.ElementMemory
    if let known = elementMemory[outer] {
      memory = known
    } else {
      memory = CanonicalJSONEncoder.ElementMemory()
      elementMemory[outer] = memory
    }
    let index = frames[frame].isObject ? nil : key.intValue
    let existing: CanonicalJSONEncoder.RememberedValue?
    if let index {
      existing = index < memory.byIndex.count ? memory.byIndex[index] : nil
    } else {
      existing = memory.byKey[key.stringValue]
    }
    let (node, new) = try encodeFromMemory(
      value, parent: frames[frame].base, key: key, remembered: existing,
      mayRemember: existing != nil || rememberedElements < Self.maximumRememberedElements)
    guard let remembered = new else { return node }
    if let index {
      if index >= memory.byIndex.count {
        memory.byIndex.append(
          contentsOf: repeatElement(nil, count: index + 1 - memory.byIndex.count))
      }
      memory.byIndex[index] = remembered
    } else {
      memory.byKey[key.stringValue] = remembered
    }
    if existing == nil { rememberedElements += 1 }
    return node
  }

  /// Encodes a value directly inside the top-level object, from memory when it is the value
  /// remembered under `key`, and remembers it otherwise.
  func encodeRemembering<Value: Encodable>(
    _ value: Value, key: any CodingKey
  ) throws -> CanonicalJSONEncoder.Node {
    let name = key.stringValue
    let slot = rememberedSlot(named: name)
    let (node, new) = try encodeFromMemory(
      value, parent: frames[0].base, key: key, remembered: slot.map { remembered[$0] },
      mayRemember: slot != nil || remembered.count < Self.maximumRemembered)
    guard let value = new else { return node }
    if let slot {
      remembered[slot] = value
    } else {
      rememberedSlots[name] = remembered.count
      remembered.append(value)
    }
    return node
  }

  /// Encodes `value` at `key` in the container based at `parent`: the bytes of `existing` when
  /// it holds an equal value (nothing new to keep), else an encoding — rendered at once, with
  /// the value and its bytes to remember, when `mayRemember` and the type is `Equatable`.
  private func encodeFromMemory<Value: Encodable>(
    _ value: Value, parent: Int, key: any CodingKey,
    remembered existing: CanonicalJSONEncoder.RememberedValue?, mayRemember: Bool
  ) throws -> (node: CanonicalJSONEncoder.Node, new: CanonicalJSONEncoder.RememberedValue?) {
    if let existing, existing.holds(value) {
      let start = arena.count
      arena.append(contentsOf: existing.bytes)
      return (.bytes(start, arena.count), nil)
    }
    let arenaStart = arena.count
    let firstFrame = frameCount
    let node = try encodeValue(value, parent: parent, key: key) ?? .emptyObject
    // A value of megabytes (a list of 100,000 items) is not kept twice over, as a copy and as
    // bytes: its elements are remembered one by one instead.
    guard unsupported == nil, mayRemember, arena.count - arenaStart <= Self.maximumRememberedBytes,
      let equality = equality(of: Value.self)
    else { return (node, nil) }
    // Render the value now, keep the bytes, and put them in the arena in place of everything
    // its encoding wrote there.
    var bytes: [UInt8] = []
    try renderValue(node, into: &bytes)
    arena.removeSubrange(arenaStart...)
    frameCount = firstFrame
    arena.append(contentsOf: bytes)
    let remembered = CanonicalJSONEncoder.RememberedValue(
      key: key.stringValue, value: value, equality: equality, bytes: bytes)
    return (.bytes(arenaStart, arena.count), remembered)
  }

  /// Where the value remembered under `name` is: most often right after the last one found,
  /// as an `encode(to:)` writes its keys in the same order every time; otherwise by name.
  private func rememberedSlot(named name: String) -> Int? {
    let hint = nextRememberedSlot
    let slot =
      hint < remembered.count && remembered[hint].key == name ? hint : rememberedSlots[name]
    if let slot { nextRememberedSlot = slot + 1 }
    return slot
  }

  private func equality<Value>(of type: Value.Type) -> (any ValueEquality)? {
    let id = ObjectIdentifier(type)
    if let known = knownEqualities[id] { return known }
    let equality = EquatableOperations.of(type, valuesOnly: true)
    knownEqualities[id] = equality
    return equality
  }

  /// Forgets every remembered value when the top-level type changes.
  func startRemembering<Value>(_: Value.Type) {
    let root = ObjectIdentifier(Value.self)
    nextRememberedSlot = 0
    guard root != rememberedRoot else { return }
    rememberedRoot = root
    remembered.removeAll()
    rememberedSlots.removeAll()
    elementMemory.removeAll()
    rememberedElements = 0
  }
}
