/// Editing a text field at a cursor, as people expect from a terminal: typing inserts at the
/// cursor, ←/→ move it, Home/End (and Ctrl-A/Ctrl-E) jump, Backspace and Delete remove the
/// character before or under it, Ctrl-U removes everything before it and Ctrl-W the word
/// before it.
///
/// The cursor counts characters (grapheme clusters) from the start of the text, from 0 to the
/// text's length.
enum FieldEditing {
  /// Whether `key` changes a field's text (typing, pasting, Backspace, Delete, Ctrl-U, Ctrl-W),
  /// rather than only moving the cursor.
  static func changesText(_ key: Key) -> Bool {
    switch key {
    case .character, .text, .backspace, .delete, .deleteToStart, .deleteWord: true
    default: false
    }
  }

  /// Applies `key` to `text` and `cursor`.
  ///
  /// - Returns: Whether the key is an editing key (handled, even when nothing changed).
  static func apply(_ key: Key, to text: inout String, cursor: inout Int) -> Bool {
    var characters = Array(text)
    cursor = min(max(0, cursor), characters.count)
    switch key {
    case .character, .text:
      guard let typed = key.typedText else { return false }
      let inserted = Array(typed)
      characters.insert(contentsOf: inserted, at: cursor)
      cursor += inserted.count
    case .backspace:
      guard cursor > 0 else { return true }
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .delete:
      guard cursor < characters.count else { return true }
      characters.remove(at: cursor)
    case .left:
      cursor = max(0, cursor - 1)
    case .right:
      cursor = min(characters.count, cursor + 1)
    case .home:
      cursor = 0
    case .end:
      cursor = characters.count
    case .deleteToStart:
      characters.removeSubrange(0..<cursor)
      cursor = 0
    case .deleteWord:
      var start = cursor
      while start > 0, characters[start - 1].isWhitespace { start -= 1 }
      while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
      characters.removeSubrange(start..<cursor)
      cursor = start
    default:
      return false
    }
    text = String(characters)
    return true
  }
}
