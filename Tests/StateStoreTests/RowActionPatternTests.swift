import Foundation
import StateStore
import Testing

/// A row's action and a row's effect are enum cases, so a parent matches them with patterns,
/// down to the row action's own case: `case .todos(.row(_, .binding))` did not compile while
/// they were structs with a `row(_:_:)` function.
struct RowActionPatternTests {
  struct Todo: Identifiable, Equatable, Codable, Sendable, EditableFields {
    let id: Int
    var title = ""
    var isComplete = false

    static let fields: [EditableField<Todo>] = [
      EditableField("title", \.title), EditableField("isComplete", \.isComplete),
    ]
  }

  enum TodoAction: Equatable, Codable, Sendable {
    case binding(FieldEdit<Todo>)
    case deleteTapped
  }

  enum TodoEffect: StoreEffect, Equatable, Codable {
    case save
    var cancellation: EffectCancellation { .none }
  }

  enum TodosAction: Equatable, Codable, Sendable {
    case todos(RowAction<Int, TodoAction>)
  }

  static func matched(_ action: TodosAction) -> String {
    switch action {
    case .todos(.row(let id, .binding(\.isComplete))): "completion of \(id)"
    case .todos(.row(_, .binding)): "another edit"
    case .todos(.row(let id, .deleteTapped)): "delete \(id)"
    }
  }

  @Test func aRowsActionIsMatchedByItsCaseAndItsFieldEdit() {
    #expect(
      Self.matched(.todos(.row(3, .binding(.set(\.isComplete, to: true))))) == "completion of 3")
    #expect(Self.matched(.todos(.row(3, .binding(.set(\.title, to: "Milk"))))) == "another edit")
    #expect(Self.matched(.todos(.row(7, .deleteTapped))) == "delete 7")

    let effect = RowEffect<Int, TodoEffect>.row(2, .save)
    guard case .row(let id, .save) = effect else {
      Issue.record("a row effect matches its pattern")
      return
    }
    #expect(id == 2)
  }

  @Test func theyKeepTheirPropertiesAndTheirLogForm() throws {
    var action = RowAction<Int, TodoAction>(id: 1, action: .deleteTapped)
    action.id = 4
    #expect(action == .row(4, .deleteTapped))
    action.action = .binding(.set(\.title, to: "Eggs"))
    #expect(action.id == 4 && action.action == .binding(.set(\.title, to: "Eggs")))

    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = try encoder.encode(TodosAction.todos(.row(4, .deleteTapped)))
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"todos":{"_0":{"action":{"deleteTapped":{}},"id":4}}}"#)
    #expect(
      try JSONDecoder().decode(TodosAction.self, from: json) == .todos(.row(4, .deleteTapped)))

    var effect = RowEffect<Int, TodoEffect>(id: 1, effect: .save)
    effect.id = 9
    let effectJSON = try encoder.encode(effect)
    #expect(String(decoding: effectJSON, as: UTF8.self) == #"{"effect":{"save":{}},"id":9}"#)
    #expect(try JSONDecoder().decode(RowEffect<Int, TodoEffect>.self, from: effectJSON) == effect)
    #expect(effect.cancellation == EffectCancellation.none.within("[id: 9]"))
    #expect(
      Dump.renderOneLine(TodosAction.todos(.row(4, .deleteTapped)))
        == "RowActionPatternTests.TodosAction.todos[id: 4](RowActionPatternTests.TodoAction.deleteTapped)"
    )
  }
}
