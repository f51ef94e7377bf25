/// The structure of one JSON value, found in one pass over its bytes: a token per value, in
/// document order, each container followed by its members (a key's token, then its value's)
/// or its elements. The package's decoder reads values from it (``CanonicalJSONDecoder``),
/// and ``JSONValueBytes/isValid(_:maximumDepth:)`` checks a value's grammar with it.
///
/// Scanning checks the structure only, as `JSONDecoder`'s scanner does: brackets, commas,
/// colons, where strings end, the literals, and which bytes a number is made of. What a
/// string or a number says is read, and checked, when it is decoded (``JSONString``,
/// ``JSONNumber``), so a value nobody reads costs nothing more than skipping it. Nesting is
/// bounded and the scan is a loop, not a recursion: any input gives a tape or a
/// ``Malformed``, in time linear in its length.
final class JSONTape {
  enum Kind: UInt8 {
    case object, array, string, number, `true`, `false`, null
  }

  /// Which JSON a tape accepts.
  enum Grammar {
    /// What `JSONDecoder` accepts: whitespace between tokens, a UTF-8 byte order mark first,
    /// a comma before a closing bracket.
    case decoder
    /// RFC 8259's grammar without whitespace: canonical JSON as it is written.
    case canonical
  }

  /// One value. 16 bytes: a tape of a large state holds millions.
  struct Token {
    /// Where the value starts: its bracket, its opening quote, its first byte.
    var start: UInt32
    /// A scalar: where it ends (exclusive). A container: its number of members or elements.
    var endOrCount: UInt32
    /// The token after this value and everything in it.
    var next: UInt32
    var kind: Kind
    /// A string: ``escaped`` and ``unchecked``. An object: ``unchecked`` when a key is not
    /// plain printable ASCII.
    var flags: UInt8

    /// A string holds a backslash.
    static let escaped: UInt8 = 1
    /// A string holds a byte outside printable ASCII: it must be checked before it is read.
    static let unchecked: UInt8 = 2
  }

  /// Why bytes are not one JSON value.
  struct Malformed: Error, CustomStringConvertible {
    var reason: String
    var offset: Int

    var description: String { "\(reason) at byte \(offset)" }
  }

  /// The bytes scanned; positions in tokens are their indices.
  let bytes: ArraySlice<UInt8>
  let tokens: [Token]

  /// Scans `bytes` as one JSON value.
  ///
  /// - Parameters:
  ///   - bytes: The value, nothing before or after it but whitespace (with ``Grammar/decoder``).
  ///   - grammar: What is accepted.
  ///   - maximumDepth: The most containers open at once.
  /// - Throws: ``Malformed``, naming what was met and where.
  init(_ bytes: ArraySlice<UInt8>, grammar: Grammar, maximumDepth: Int) throws(Malformed) {
    self.bytes = bytes
    // Positions are 32 bits.
    guard bytes.endIndex < Int(UInt32.max) else {
      throw Malformed(reason: "more than 4 GiB", offset: 0)
    }
    var tokens: [Token] = []
    tokens.reserveCapacity(min(bytes.count / 6 + 1, 1 << 16))
    var scanner = Scanner(bytes: bytes, isLenient: grammar == .decoder)
    try scanner.scan(into: &tokens, maximumDepth: maximumDepth)
    self.tokens = tokens
  }

  /// The token after token `index` and everything in it.
  @inline(__always)
  func next(after index: Int) -> Int { Int(tokens[index].next) }

  /// The bytes of scalar token `index`; a string's without its quotes.
  @inline(__always)
  func text(of index: Int) -> ArraySlice<UInt8> {
    let token = tokens[index]
    if token.kind == .string { return bytes[Int(token.start + 1)..<Int(token.endOrCount - 1)] }
    return bytes[Int(token.start)..<Int(token.endOrCount)]
  }

  /// Number token `index` as ``JSONNumber/smallInteger(_:in:)`` reads it; `nil` for any other
  /// token or number.
  @inline(__always)
  func smallInteger(_ index: Int) -> Int64? {
    let token = tokens[index]
    guard token.kind == .number else { return nil }
    return JSONNumber.smallInteger(Int(token.start)..<Int(token.endOrCount), in: bytes)
  }

  /// The members of an object or the elements of an array.
  @inline(__always)
  func count(of index: Int) -> Int { Int(tokens[index].endOrCount) }
}

extension JSONTape {
  private struct Scanner {
    let bytes: ArraySlice<UInt8>
    let isLenient: Bool
    var position: Int

    private enum Expecting {
      case value, key, separator
    }

    init(bytes: ArraySlice<UInt8>, isLenient: Bool) {
      self.bytes = bytes
      self.isLenient = isLenient
      position = bytes.startIndex
      if isLenient, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position += 3 }
    }

    private func fail(_ reason: String) -> Malformed {
      Malformed(reason: reason, offset: position - bytes.startIndex)
    }

    @inline(__always)
    private mutating func skipWhitespace() {
      guard isLenient else { return }
      while position < bytes.endIndex {
        switch bytes[position] {
        case space, tab, lineFeed, carriageReturn: position += 1
        default: return
        }
      }
    }

    mutating func scan(into tokens: inout [Token], maximumDepth: Int) throws(Malformed) {
      var open: [Int] = []
      var expecting = Expecting.value
      while true {
        skipWhitespace()
        switch expecting {
        case .value:
          guard position < bytes.endIndex else { throw fail("the input ends where a value should") }
          let byte = bytes[position]
          switch byte {
          case openBrace, openBracket:
            guard open.count < maximumDepth else {
              throw fail("containers nested more than \(maximumDepth) levels deep")
            }
            let isObject = byte == openBrace
            open.append(tokens.count)
            tokens.append(
              Token(
                start: UInt32(position), endOrCount: 0, next: 0,
                kind: isObject ? .object : .array, flags: 0))
            position += 1
            skipWhitespace()
            if position < bytes.endIndex, bytes[position] == (isObject ? closeBrace : closeBracket)
            {
              close(&open, &tokens)
              expecting = .separator
            } else {
              expecting = isObject ? .key : .value
            }
            continue
          case quote:
            tokens.append(try string(index: tokens.count))
          case UInt8(ascii: "t"):
            tokens.append(try literal(trueBytes, .true, index: tokens.count))
          case UInt8(ascii: "f"):
            tokens.append(try literal(falseBytes, .false, index: tokens.count))
          case UInt8(ascii: "n"):
            tokens.append(try literal(nullBytes, .null, index: tokens.count))
          case minus, zero...nine:
            let start = position
            position += 1
            while position < bytes.endIndex, Self.isInNumber(bytes[position]) { position += 1 }
            tokens.append(
              Token(
                start: UInt32(start), endOrCount: UInt32(position), next: UInt32(tokens.count + 1),
                kind: .number, flags: 0))
          default:
            throw fail("an unexpected byte where a value should be")
          }
          expecting = .separator
        case .key:
          guard position < bytes.endIndex, bytes[position] == quote else {
            throw fail(
              position < bytes.endIndex
                ? "an object key that is not a string" : "the input ends in an object")
          }
          let key = try string(index: tokens.count)
          tokens.append(key)
          if key.flags != 0 { tokens[open[open.count - 1]].flags = Token.unchecked }
          skipWhitespace()
          guard position < bytes.endIndex, bytes[position] == colon else {
            throw fail("no colon after an object key")
          }
          position += 1
          expecting = .value
        case .separator:
          guard let container = open.last else {
            guard position == bytes.endIndex else { throw fail("bytes after the value") }
            return
          }
          tokens[container].endOrCount += 1
          let isObject = tokens[container].kind == .object
          guard position < bytes.endIndex else { throw fail("the input ends in a container") }
          switch bytes[position] {
          case comma:
            position += 1
            skipWhitespace()
            if isLenient, position < bytes.endIndex,
              bytes[position] == (isObject ? closeBrace : closeBracket)
            {
              close(&open, &tokens)
            } else {
              expecting = isObject ? .key : .value
            }
          case closeBrace where isObject, closeBracket where !isObject:
            close(&open, &tokens)
          default:
            throw fail(
              isObject ? "no comma or '}' after a member" : "no comma or ']' after an element")
          }
        }
      }
    }

    /// Closes the innermost container at the bracket `position` is at.
    private mutating func close(_ open: inout [Int], _ tokens: inout [Token]) {
      position += 1
      tokens[open.removeLast()].next = UInt32(tokens.count)
    }

    private static func isInNumber(_ byte: UInt8) -> Bool {
      switch byte {
      case zero...nine, minus, plus, dot, UInt8(ascii: "e"), UInt8(ascii: "E"): true
      default: false
      }
    }

    /// A string from its opening quote: up to the quote no backslash escapes. A `\u` must be
    /// followed by four bytes, none a quote (as `JSONDecoder` scans); the rest is checked
    /// when the string is read.
    private mutating func string(index: Int) throws(Malformed) -> Token {
      let start = position
      var flags: UInt8 = 0
      position += 1
      while position < bytes.endIndex {
        let byte = bytes[position]
        if byte >= 0x20, byte < 0x80, byte != quote, byte != backslash {
          position += 1
        } else if byte == quote {
          position += 1
          return Token(
            start: UInt32(start), endOrCount: UInt32(position), next: UInt32(index + 1),
            kind: .string, flags: flags)
        } else if byte == backslash {
          flags |= Token.escaped
          if position + 1 < bytes.endIndex, bytes[position + 1] == UInt8(ascii: "u") {
            guard position + 6 <= bytes.endIndex,
              !bytes[(position + 2)..<(position + 6)].contains(quote)
            else { throw fail("a \\u escape without four hexadecimal digits") }
            position += 6
          } else {
            position += 2
          }
        } else {
          flags |= Token.unchecked
          position += 1
        }
      }
      throw fail("a string without its closing quote")
    }

    private mutating func literal(
      _ word: [UInt8], _ kind: Kind, index: Int
    ) throws(Malformed) -> Token {
      let start = position
      guard bytes.endIndex - position >= word.count,
        bytes[position..<(position + word.count)].elementsEqual(word)
      else { throw fail("a misspelt literal") }
      position += word.count
      return Token(
        start: UInt32(start), endOrCount: UInt32(position), next: UInt32(index + 1), kind: kind,
        flags: 0)
    }
  }
}

private let trueBytes = Array("true".utf8)
private let falseBytes = Array("false".utf8)
private let nullBytes = Array("null".utf8)
private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
private let lineFeed = UInt8(ascii: "\n")
private let carriageReturn = UInt8(ascii: "\r")
private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")
private let comma = UInt8(ascii: ",")
private let colon = UInt8(ascii: ":")
private let openBrace = UInt8(ascii: "{")
private let closeBrace = UInt8(ascii: "}")
private let openBracket = UInt8(ascii: "[")
private let closeBracket = UInt8(ascii: "]")
private let minus = UInt8(ascii: "-")
private let plus = UInt8(ascii: "+")
private let dot = UInt8(ascii: ".")
private let zero = UInt8(ascii: "0")
private let nine = UInt8(ascii: "9")
