/// A step's action as the timeline's rows show it: the path of enum cases that lead to it as a
/// short breadcrumb, and the leaf with its payload, type names left out.
///
/// <!-- sample: step-label -->
/// ```text
/// AppAction.login(LoginAction.twoFactor(TwoFactorAction.verifyResponse(request: 1, VerifyCodeResult.failure(LoginServiceError.incorrectCode))))
/// path: login › twoFactor
/// leaf: verifyResponse(request: 1, failure(incorrectCode))
/// ```
///
/// It reads `Dump`'s one-line rendering: a case whose only payload is another enum value of
/// the same role — the last word of its type's name, `AppAction` embedding `LoginAction`,
/// `AppEffect` embedding `LoginEffect` — is a step of the path; the first case with anything
/// else is the leaf (`updateLockout(LockoutChange.reset)` is a leaf). Quoted strings are copied
/// as they are, so a username that looks like a type name stays whole.
package struct StepLabel: Equatable {
  /// The cases that lead to the leaf, outermost first.
  package var path: [String]
  /// The leaf case and its payload.
  package var leaf: String

  package init(path: [String], leaf: String) {
    self.path = path
    self.leaf = leaf
  }

  /// Splits `text`, an action rendered on one line by `Dump.renderOneLine`.
  package init(_ text: String) {
    var rest = Substring(text)
    var path: [String] = []
    while let (name, payload) = Self.caseAndPayload(rest), Self.isEnumValue(payload),
      Self.role(of: payload) == Self.role(of: rest)
    {
      path.append(name)
      rest = payload
    }
    self.path = path
    leaf = Self.withoutTypeNames(rest)
  }

  /// The path joined by ` › `, empty without one.
  package var breadcrumb: String { path.joined(separator: " \u{203A} ") }

  /// `(case, payload)` of `Type.case(payload)`, and `(case[id: 3], payload)` of a row's
  /// `Type.case[id: 3](payload)`; `nil` for anything else.
  private static func caseAndPayload(_ text: Substring) -> (String, Substring)? {
    guard text.last == ")", text.first?.isUppercase == true,
      let end = text.firstIndex(where: { $0 == "(" || $0 == "[" })
    else { return nil }
    let head = text[..<end]
    guard let dot = head.lastIndex(of: ".") else { return nil }
    let name = head[head.index(after: dot)...]
    guard name.first?.isLowercase == true, name.allSatisfy(isIdentifierCharacter) else {
      return nil
    }
    var open = end
    var address: Substring = ""
    if text[end] == "[" {
      guard text[end...].hasPrefix("[id: "),
        let close = closingParenthesis(of: text, from: end)
      else { return nil }
      open = text.index(after: close)
      guard open < text.endIndex, text[open] == "(" else { return nil }
      address = text[end...close]
    }
    guard closingParenthesis(of: text, from: open) == text.index(before: text.endIndex) else {
      return nil
    }
    return (
      String(name + address), text[text.index(after: open)..<text.index(before: text.endIndex)]
    )
  }

  /// Whether `text` is one enum value, `Type.case` or `Type.case(…)`, nothing beside it.
  private static func isEnumValue(_ text: Substring) -> Bool {
    guard text.first?.isUppercase == true else { return false }
    let head = text.prefix { $0 != "(" }
    guard let dot = head.lastIndex(of: "."),
      head[head.index(after: dot)...].first?.isLowercase
        == true
    else { return false }
    if head.endIndex == text.endIndex { return true }
    return caseAndPayload(text) != nil
  }

  /// The last word of the type name `text` starts with: `Action` for `TwoFactorAction.tap`.
  private static func role(of text: Substring) -> Substring {
    let head = text.prefix { $0 != "(" && $0 != "<" && $0 != "[" }
    let typeName = head[..<(head.lastIndex(of: ".") ?? head.endIndex)]
    let lastType = typeName[
      (typeName.lastIndex(of: ".").map(typeName.index(after:)) ?? typeName.startIndex)...]
    return lastType[(lastType.lastIndex { $0.isUppercase } ?? lastType.startIndex)...]
  }

  /// The index of the `)` that closes the `(` at `open`, skipping quoted strings.
  private static func closingParenthesis(of text: Substring, from open: String.Index)
    -> String.Index?
  {
    var depth = 0
    var quotes = Quotes()
    var index = open
    while index < text.endIndex {
      let character = text[index]
      if quotes.read(character) {
        // Inside a quoted string: no parenthesis counts.
      } else if character == "(" || character == "[" {
        depth += 1
      } else if character == ")" || character == "]" {
        depth -= 1
        if depth == 0 { return index }
      }
      index = text.index(after: index)
    }
    return nil
  }

  /// `text` with the type names before case names dropped (`TwoFactorError.incorrectCode`
  /// reads `incorrectCode`); quoted strings are left as they are.
  private static func withoutTypeNames(_ text: Substring) -> String {
    var result = ""
    var quotes = Quotes()
    var index = text.startIndex
    // The character before `index`: looked back at for every character, where walking the
    // text backwards by grapheme would cost as much again.
    var previous: Character?
    while index < text.endIndex {
      let character = text[index]
      if quotes.read(character) {
        result.append(character)
        previous = character
        index = text.index(after: index)
        continue
      }
      let startsWord =
        previous.map { !isIdentifierCharacter($0) && $0 != "." } ?? true
      if isUppercase(character), startsWord, let end = typePrefixEnd(text, from: index) {
        previous = text[text.index(before: end)]
        index = end
        continue
      }
      result.append(character)
      previous = character
      index = text.index(after: index)
    }
    return result
  }

  /// Where the case name starts after `Type.` or `Outer.Inner<A, B>.` at `start`; `nil` when
  /// what starts there is not a type name followed by a case name.
  private static func typePrefixEnd(_ text: Substring, from start: String.Index) -> String.Index? {
    var index = start
    while index < text.endIndex {
      let character = text[index]
      if isIdentifierCharacter(character) {
        index = text.index(after: index)
      } else if character == "<" {
        var depth = 0
        while index < text.endIndex {
          if text[index] == "<" { depth += 1 }
          if text[index] == ">" { depth -= 1 }
          index = text.index(after: index)
          if depth == 0 { break }
        }
      } else if character == "." {
        let next = text.index(after: index)
        guard next < text.endIndex else { return nil }
        if text[next].isLowercase { return next }
        index = next
      } else {
        break
      }
    }
    return nil
  }

  private static func isIdentifierCharacter(_ character: Character) -> Bool {
    // ASCII first: Unicode's properties cost a table lookup per character, and a 10 KB
    // payload is read whole.
    if let ascii = character.asciiValue {
      return (ascii >= 0x61 && ascii <= 0x7A) || (ascii >= 0x41 && ascii <= 0x5A)
        || (ascii >= 0x30 && ascii <= 0x39) || ascii == 0x5F
    }
    return character.isLetter || character.isNumber
  }

  /// `Character.isUppercase`, ASCII first.
  private static func isUppercase(_ character: Character) -> Bool {
    if let ascii = character.asciiValue { return ascii >= 0x41 && ascii <= 0x5A }
    return character.isUppercase
  }
}

/// Follows `Dump`'s quoted strings one character at a time, escapes included.
private struct Quotes {
  private var isOpen = false
  private var isEscaped = false

  /// Takes the next character; returns whether it belongs to a quoted string, its quotes
  /// included.
  mutating func read(_ character: Character) -> Bool {
    if isOpen {
      if isEscaped {
        isEscaped = false
      } else if character == "\\" {
        isEscaped = true
      } else if character == "\"" {
        isOpen = false
      }
      return true
    }
    isOpen = character == "\""
    return isOpen
  }
}
