import Foundation
import StateStore
import Testing
import ToolTestSupport

private struct Form: Equatable, Codable, EditableFields {
  var email: PersonalData = ""
  var password: Secret = ""
  var nickname = ""
  var acceptsTerms = false
  var note: String?
  var untracked = 0.0

  static let fields: [EditableField<Form>] = [
    EditableField("email", \.email),
    EditableField("password", \.password),
    EditableField("nickname", \.nickname),
    EditableField("acceptsTerms", \.acceptsTerms),
    EditableField("note", \.note),
  ]
}

/// Fields an edit cannot write in place: one with an observer, one computed, and a stored one
/// nested in another struct (which can).
private struct ProfileForm: Equatable, Codable, EditableFields {
  struct Address: Equatable, Codable {
    var city = ""
  }

  var address = Address()
  var edits = 0
  var name = "" {
    didSet { edits += 1 }
  }
  var shout: String {
    get { name.uppercased() }
    set { name = newValue.lowercased() }
  }

  static let fields: [EditableField<ProfileForm>] = [
    EditableField("city", \.address.city),
    EditableField("name", \.name),
    EditableField("shout", \.shout),
  ]
}

private enum FormAction: Equatable, Codable {
  case edit(FieldEdit<Form>)
}

/// Fields that share an offset: a struct and its first property.
private struct Layout: EditableFields {
  struct Inner: FieldValue {
    var first = ""
    var second = ""
  }
  var inner = Inner()
  var count = 0
  var total = 0
  var doubled: Int {
    get { total * 2 }
    set { total = newValue / 2 }
  }

  static let fields: [EditableField<Layout>] = [
    EditableField("inner", \.inner), EditableField("first", \.inner.first),
    EditableField("second", \.inner.second),
    EditableField("count", \.count), EditableField("total", \.total),
    EditableField("doubled", \.doubled),
  ]
}

struct FieldEditTests {
  @Test func oneEditSetsAnyDeclaredField() {
    var form = Form()
    #expect(FieldEdit.set(\Form.email, to: "ada@example.com").apply(to: &form))
    #expect(FieldEdit.set(\Form.password, to: "Secr3t").apply(to: &form))
    #expect(FieldEdit.set(\Form.nickname, to: "Ada").apply(to: &form))
    #expect(FieldEdit.set(\Form.acceptsTerms, to: true).apply(to: &form))
    #expect(FieldEdit.set(\Form.note, to: "hi").apply(to: &form))
    #expect(
      form
        == Form(
          email: "ada@example.com", password: "Secr3t", nickname: "Ada", acceptsTerms: true,
          note: "hi"))
    #expect(FieldEdit.set(\Form.note, to: nil).apply(to: &form))
    #expect(form.note == nil)
  }

  /// Each key path finds its own name, wherever fields share an offset (a struct and its first
  /// property), and for a computed property.
  @Test func eachKeyPathFindsItsOwnField() {
    #expect(FieldEdit.set(\Layout.inner, to: .init()).field == "inner")
    #expect(FieldEdit.set(\Layout.inner.first, to: "x").field == "first")
    #expect(FieldEdit.set(\Layout.inner.second, to: "x").field == "second")
    #expect(FieldEdit.set(\Layout.count, to: 1).field == "count")
    #expect(FieldEdit.set(\Layout.total, to: 1).field == "total")
    #expect(FieldEdit.set(\Layout.doubled, to: 4).field == "doubled")
    var layout = Layout()
    FieldEdit.set(\Layout.doubled, to: 8).apply(to: &layout)
    FieldEdit.set(\Layout.inner.second, to: "s").apply(to: &layout)
    #expect(layout.total == 4 && layout.inner.second == "s" && layout.inner.first == "")
  }

  @Test func fieldsWithObserversComputedOrNestedAreWrittenAsTheirKeyPathsWrite() throws {
    var form = ProfileForm()
    #expect(FieldEdit.set(\ProfileForm.address.city, to: "Paris").apply(to: &form))
    #expect(FieldEdit.set(\ProfileForm.name, to: "ada").apply(to: &form))
    #expect(FieldEdit.set(\ProfileForm.shout, to: "GRACE").apply(to: &form))
    #expect(form.address.city == "Paris")
    #expect(form.name == "grace")
    #expect(form.edits == 2, "the observer runs for the edit and for the computed field")

    var decoded = ProfileForm()
    for json in [
      #"{"field":"city","value":"Oslo"}"#, #"{"field":"name","value":"ada"}"#,
      #"{"field":"shout","value":"ALAN"}"#,
    ] {
      let edit = try JSONDecoder().decode(FieldEdit<ProfileForm>.self, from: Data(json.utf8))
      #expect(edit.apply(to: &decoded))
    }
    #expect(decoded.address.city == "Oslo")
    #expect(decoded.name == "alan")
    #expect(decoded.edits == 2)
  }

  @Test func editsCompareByFieldAndValue() {
    let edit = FieldEdit.set(\Form.nickname, to: "Ada")
    #expect(edit == .set(\Form.nickname, to: "Ada"))
    #expect(edit != .set(\Form.nickname, to: "Grace"))
    #expect(FieldEdit.set(\Form.email, to: "Ada") != .set(\Form.nickname, to: "Ada"))
    #expect(Set([edit, .set(\Form.nickname, to: "Ada")]).count == 1)
    #expect(edit.field == "nickname")
    var form = Form(nickname: "Ada")
    #expect(edit.changesNothing(in: form))
    form.nickname = "Al"
    #expect(!edit.changesNothing(in: form))
  }

  /// An edit is matched by its field's key path, which the compiler checks, in an `if` and
  /// in a `switch` — at any depth of a pattern, and with key paths that share an offset.
  @Test func anEditIsMatchedByTheKeyPathOfItsField() {
    let edit = FieldEdit.set(\Form.acceptsTerms, to: true)
    #expect(edit.is(\.acceptsTerms))
    #expect(!edit.is(\.nickname))
    #expect(FieldEdit.set(\Layout.inner.first, to: "x").is(\.inner.first))
    #expect(!FieldEdit.set(\Layout.inner.first, to: "x").is(\.inner))
    #expect(!FieldEdit.set(\Layout.inner, to: .init()).is(\.inner.first))
    #expect(FieldEdit.set(\Layout.doubled, to: 2).is(\.doubled))

    func matched(_ action: FormAction) -> String {
      switch action {
      case .edit(\.email): "email"
      case .edit(\.password): "password"
      case .edit: "another field"
      }
    }
    #expect(matched(.edit(.set(\.email, to: "ada@example.com"))) == "email")
    #expect(matched(.edit(.set(\.password, to: "Secr3t"))) == "password")
    #expect(matched(.edit(.set(\.nickname, to: "Ada"))) == "another field")
  }

  @Test func matchingAnUndeclaredKeyPathIsAWarning() {
    let warnings = WarningLog()
    let undeclared = RuntimeWarning.$reporter.withValue(warnings.reporter) {
      // Neither matches: the field is not declared, and neither is the edit's.
      (
        FieldEdit.set(\Form.nickname, to: "Ada").is(\.untracked),
        FieldEdit.set(\Form.untracked, to: 1).is(\.untracked)
      )
    }
    #expect(undeclared == (false, false))
    #expect(warnings.messages.count == 3)
    #expect(
      warnings.messages.first
        == "FieldEdit<Form>.is(_:): the key path \\Form.untracked is not one of Form.fields, "
        + "so no edit sets it; declare it there")
  }

  @Test func anUndeclaredFieldIsAWarningAndChangesNothing() {
    let warnings = WarningLog()
    let edit = RuntimeWarning.$reporter.withValue(warnings.reporter) {
      FieldEdit.set(\Form.untracked, to: 1)
    }
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("not one of Form.fields") == true)
    var form = Form(untracked: 3)
    #expect(!edit.apply(to: &form))
    #expect(form.untracked == 3)
  }

  @Test func aLogRecordsTheFieldByNameAndTheValueMaskedAsItMasksItself() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let actions: [FormAction] = [
      .edit(.set(\.email, to: "ada@example.com")), .edit(.set(\.password, to: "Secr3t")),
      .edit(.set(\.acceptsTerms, to: true)), .edit(.set(\.note, to: nil)),
    ]
    let clear = String(decoding: try encoder.encode(actions), as: UTF8.self)
    #expect(
      clear
        == #"[{"edit":{"_0":{"field":"email","value":"ada@example.com"}}},"#
        + #"{"edit":{"_0":{"field":"password","value":"Aaaa0a"}}},"#
        + #"{"edit":{"_0":{"field":"acceptsTerms","value":true}}},"#
        + #"{"edit":{"_0":{"field":"note","value":null}}}]"#)
    let decoded = try JSONDecoder().decode([FormAction].self, from: Data(clear.utf8))
    #expect(decoded[0] == actions[0] && decoded[2] == actions[2] && decoded[3] == actions[3])
    #expect(decoded[1] == .edit(.set(\.password, to: "Aaaa0a")), "a log holds the mask")

    encoder.userInfo[.masksPersonalData] = true
    let masked = String(decoding: try encoder.encode(actions[0]), as: UTF8.self)
    #expect(masked == #"{"edit":{"_0":{"field":"email","value":"aaa@aaaaaaa.aaa"}}}"#)
  }

  @Test(arguments: [
    (#"{"field":"age","value":3}"#, "Form has no editable field 'age'"),
    (#"{"field":"nickname","value":3}"#, "String"),
    (#"{"field":"acceptsTerms","value":"yes"}"#, "Bool"),
    (#"{"value":"x"}"#, "field"),
  ])
  func aLogWithAnUnknownFieldOrAValueOfAnotherTypeDoesNotDecode(json: String, words: String) {
    #expect {
      try JSONDecoder().decode(FieldEdit<Form>.self, from: Data(json.utf8))
    } throws: { error in
      "\(error)".contains(words)
    }
  }

  @Test func itRendersAsTheFieldAndItsValueWithSecretsMasked() {
    #expect("\(FieldEdit.set(\Form.email, to: "ada"))" == #"set(email: "ada")"#)
    #expect(
      Dump.render(FormAction.edit(.set(\.password, to: "Secr3t")))
        == #"FormAction.edit(set(password: Secret(Aaaa0a)))"#)
    #expect(!Dump.render(FieldEdit.set(\Form.password, to: "Secr3t")).contains("Secr3t"))
  }
}
