/// A host model compared by identity, as many `Identifiable` types are: its `==` looks at `id`
/// only, so a relabelled note is "equal" to the old one. For the tests that check the package
/// never takes such an `==` on its word (the timeline's State tab, a verified replay, a diff).
package struct NoteComparedByID: Codable, Sendable, Identifiable, Equatable {
  package var id: Int
  package var label: String

  package init(id: Int, label: String) {
    self.id = id
    self.label = label
  }

  package static func == (lhs: NoteComparedByID, rhs: NoteComparedByID) -> Bool {
    lhs.id == rhs.id
  }
}
