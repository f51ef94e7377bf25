extension Unicode.Scalar {
  /// Whether the character would not show as itself on a terminal or a page: control and
  /// format characters (bidirectional overrides, zero-width ones), line and paragraph
  /// separators, surrogates, private-use and unassigned code points. Whatever prints user
  /// text escapes these.
  package var isInvisible: Bool {
    switch properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned,
      .privateUse:
      true
    default:
      false
    }
  }
}
