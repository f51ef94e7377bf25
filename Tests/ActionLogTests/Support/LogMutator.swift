import Foundation
import StateStore

/// A damaged copy of a log, and where the damage starts.
struct Mutant {
  /// What was done, for failure messages.
  var name: String
  var bytes: Data
  /// The 0-based index, in the original log, of the first line the mutation touched (every
  /// line before it is intact); `nil` when the damage is not local.
  var firstDamagedLine: Int?
}

/// Seeded mutations of a real action log: bit flips, cuts, swapped, duplicated, deleted and
/// replaced lines, garbage, huge lines, NUL bytes, invalid UTF-8, other versions, huge numbers
/// and deep nesting.
struct LogMutator {
  enum Kind: String, CaseIterable {
    case flipBit, flipHeaderBit, truncate, cutLastTransition, swapLines, duplicateHeader
    case duplicateLine, deleteLine, insertGarbage, insertNULs, insertInvalidUTF8
    case changeVersion, replaceWithOtherLine, hugeNumber, deepNesting, insertHugeLine
  }

  /// The log's lines, without their newlines.
  let lines: [Data]
  /// Whether the last line ends with a newline.
  let isTerminated: Bool

  init(_ log: Data) {
    var lines = log.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { Data($0) }
    isTerminated = log.last == UInt8(ascii: "\n")
    if isTerminated { lines.removeLast() }
    self.lines = lines
  }

  /// The 0-based indices of the complete transition lines (a last line without its newline,
  /// cut mid-write, does not count).
  var transitionLines: [Int] {
    lines.indices.filter {
      lines[$0].starts(with: Data(#"{"seq":"#.utf8)) && (isTerminated || $0 < lines.count - 1)
    }
  }

  /// How many transition lines lie before line `index` (0-based).
  func transitions(before index: Int) -> Int {
    transitionLines.count { $0 < index }
  }

  func mutate(_ kind: Kind, using random: inout SeededGenerator) -> Mutant {
    switch kind {
    case .flipBit, .flipHeaderBit:
      var bytes = joined(lines)
      let range = kind == .flipBit ? bytes.count : lines[0].count
      let offset = Int.random(in: 0..<range, using: &random)
      let bit = Int.random(in: 0..<8, using: &random)
      bytes[offset] ^= UInt8(1 << bit)
      return Mutant(
        name: "\(kind) at byte \(offset), bit \(bit)", bytes: bytes,
        firstDamagedLine: line(containing: offset))
    case .truncate:
      let bytes = joined(lines)
      let offset = Int.random(in: 0..<bytes.count, using: &random)
      return Mutant(
        name: "truncate at byte \(offset)", bytes: bytes.prefix(offset),
        firstDamagedLine: line(containing: offset))
    case .cutLastTransition:
      // The app died mid-write: no `closed` marker, the last transition cut in the middle.
      guard let last = transitionLines.last else { return mutate(.truncate, using: &random) }
      let keep = Int.random(in: 1..<max(2, lines[last].count), using: &random)
      var bytes = Data()
      for line in lines[..<last] { bytes.append(line + [UInt8(ascii: "\n")]) }
      bytes.append(lines[last].prefix(keep))
      return Mutant(
        name: "cut line \(last + 1) after \(keep) bytes", bytes: bytes, firstDamagedLine: last)
    case .swapLines:
      guard lines.count > 2 else { return mutate(.truncate, using: &random) }
      let first = Int.random(in: 0..<lines.count - 1, using: &random)
      let second = Int.random(in: first + 1..<lines.count, using: &random)
      var copy = lines
      copy.swapAt(first, second)
      return Mutant(
        name: "swap lines \(first + 1) and \(second + 1)", bytes: joined(copy),
        firstDamagedLine: first)
    case .duplicateHeader:
      let at = Int.random(in: 0...lines.count, using: &random)
      return inserting(lines[0], at: at, name: "duplicate the header at line \(at + 1)")
    case .duplicateLine:
      let index = Int.random(in: 0..<lines.count, using: &random)
      return inserting(lines[index], at: index + 1, name: "duplicate line \(index + 1)")
    case .deleteLine:
      let index = Int.random(in: 0..<lines.count, using: &random)
      var copy = lines
      copy.remove(at: index)
      return Mutant(
        name: "delete line \(index + 1)", bytes: joined(copy), firstDamagedLine: index)
    case .insertGarbage:
      let garbage = Self.garbage.randomElement(using: &random)!
      let at = Int.random(in: 1...lines.count, using: &random)
      return inserting(Data(garbage.utf8), at: at, name: "insert \(garbage.debugDescription)")
    case .insertNULs:
      let count = Int.random(in: 1...64, using: &random)
      return splicing(
        Data(repeating: 0, count: count), name: "\(count) NUL bytes", using: &random)
    case .insertInvalidUTF8:
      let bytes = Self.invalidUTF8.randomElement(using: &random)!
      return splicing(Data(bytes), name: "invalid UTF-8 \(bytes)", using: &random)
    case .changeVersion:
      let version = Self.versions.randomElement(using: &random)!
      var copy = lines
      copy[0] = replacing(#""version":1,"#, with: "\"version\":\(version),", in: lines[0])
      return Mutant(
        name: "version \(version)", bytes: joined(copy), firstDamagedLine: 0)
    case .replaceWithOtherLine:
      guard lines.count > 1 else { return mutate(.truncate, using: &random) }
      let index = Int.random(in: 0..<lines.count, using: &random)
      var other = Int.random(in: 0..<lines.count - 1, using: &random)
      if other >= index { other += 1 }
      var copy = lines
      copy[index] = lines[other]
      return Mutant(
        name: "replace line \(index + 1) with line \(other + 1)", bytes: joined(copy),
        firstDamagedLine: index)
    case .hugeNumber:
      return hugeNumber(using: &random)
    case .deepNesting:
      let depth = [600, 10_000, 200_000].randomElement(using: &random)!
      let open = Bool.random(using: &random) ? "[" : "{\"seq\":"
      let line = String(repeating: open, count: depth)
      let at = Int.random(in: 1...lines.count, using: &random)
      return inserting(Data(line.utf8), at: at, name: "\(depth) levels of \(open)")
    case .insertHugeLine:
      let megabyte = 1 << 20
      let body =
        Bool.random(using: &random)
        ? String(repeating: "a", count: megabyte)
        : #"{"seq":1,"origin":"user","action":{"edit":{"_0":{"field":"username","value":""#
          + String(repeating: "x", count: megabyte) + #""}}},"effects":[],"digest":"0"}"#
      let at = Int.random(in: 1...lines.count, using: &random)
      return inserting(Data(body.utf8), at: at, name: "a 1 MB line")
    }
  }

  // MARK: - Pieces

  static let garbage = [
    "", "   ", "garbage", "{", "}", "[]", "null", "42", "\"text\"", "{}", #"{"kind":"gap"}"#,
    #"{"kind":"frobnicate"}"#, #"{"kind":42}"#, #"{"seq":"1"}"#, #"{"seq":1}"#,
    #"{"format":"other.format","version":1}"#, #"{"kind":"stopped","reason":"\u0000\n'"}"#,
    #"{"seq":1,"origin":"alien","action":{},"effects":[],"digest":""}"#,
    #"{"seq":1,"origin":"user","action":{"frobnicate":{}},"effects":[],"digest":"x"}"#,
    "\u{FEFF}{}", "\r", "\t{\"kind\":\"closed\"}",
  ]

  static let invalidUTF8: [[UInt8]] = [
    [0xFF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xC0, 0xAF],
  ]

  static let versions = [
    "0", "2", "-1", "9223372036854775807", "99999999999999999999", "1.0", "1e0", "\"1\"", "null",
    "[]", "true",
  ]

  static let hugeNumbers = [
    "9223372036854775807", "-9223372036854775808", "18446744073709551616", "1e400", "-0", "0.5",
  ]

  private func hugeNumber(using random: inout SeededGenerator) -> Mutant {
    // Replace one number of one line: a sequence number, an attempt id, a failure count…
    let index = Int.random(in: 0..<lines.count, using: &random)
    let text = String(decoding: lines[index], as: UTF8.self)
    let numbers = text.ranges(of: /-?[0-9]+/)
    guard let range = numbers.randomElement(using: &random) else {
      return mutate(.flipBit, using: &random)
    }
    let value = Self.hugeNumbers.randomElement(using: &random)!
    var copy = lines
    copy[index] = Data(text.replacingCharacters(in: range, with: value).utf8)
    return Mutant(
      name: "line \(index + 1): \(text[range]) → \(value)", bytes: joined(copy),
      firstDamagedLine: index)
  }

  private func inserting(_ line: Data, at index: Int, name: String) -> Mutant {
    var copy = lines
    copy.insert(line, at: index)
    return Mutant(name: name, bytes: joined(copy), firstDamagedLine: index)
  }

  /// Puts `bytes` inside a random line (the header included), at a random offset.
  private func splicing(
    _ bytes: Data, name: String, using random: inout SeededGenerator
  ) -> Mutant {
    let index = Int.random(in: 0..<lines.count, using: &random)
    let offset = Int.random(in: 0...lines[index].count, using: &random)
    var copy = lines
    copy[index] = lines[index].prefix(offset) + bytes + lines[index].dropFirst(offset)
    return Mutant(
      name: "\(name) in line \(index + 1) at byte \(offset)", bytes: joined(copy),
      firstDamagedLine: index)
  }

  private func replacing(_ old: String, with new: String, in line: Data) -> Data {
    Data(String(decoding: line, as: UTF8.self).replacingOccurrences(of: old, with: new).utf8)
  }

  private func joined(_ lines: [Data]) -> Data {
    var data = Data()
    for (index, line) in lines.enumerated() {
      data.append(line)
      if index < lines.count - 1 || isTerminated { data.append(UInt8(ascii: "\n")) }
    }
    return data
  }

  /// The 0-based index of the line that holds byte `offset` of the joined log (a newline
  /// belongs to the line it ends).
  private func line(containing offset: Int) -> Int {
    var start = 0
    for (index, line) in lines.enumerated() {
      start += line.count + 1
      if offset < start { return index }
    }
    return max(0, lines.count - 1)
  }
}
