import StateStore

// TCA's Todos example, written with the package's public API: a list of rows, each a feature
// of its own (`Todo`), in a parent (`Todos`) that adds, deletes, moves, filters and clears
// them, and sorts completed rows to the bottom a second after the last checkbox tap. The
// Composing features article quotes this file.

// MARK: - One row

struct Todo: Identifiable, Equatable, Codable, Sendable {
  let id: Int
  var description = ""
  var isComplete = false
}

enum TodoAction: Equatable, Codable, Sendable {
  case checkBoxToggled
  case descriptionChanged(String)
}

struct TodoReducer: Reducer {
  func reduce(into state: inout Todo, action: TodoAction) -> [Never] {
    switch action {
    case .checkBoxToggled:
      state.isComplete.toggle()
    case .descriptionChanged(let description):
      state.description = description
    }
    return []
  }
}

// MARK: - The list

enum Filter: String, CaseIterable, Codable, Sendable {
  case all, active, completed
}

struct TodosState: Equatable, Codable, Sendable {
  var todos: IdentifiedList<Todo> = []
  var filter = Filter.all
  /// The id the next new row gets: ids come from the state, so the reducer stays pure.
  var nextID = 0

  /// The rows the filter shows, in order.
  var filteredTodos: [Todo] {
    switch filter {
    case .all: todos.array
    case .active: todos.filter { !$0.isComplete }
    case .completed: todos.filter(\.isComplete)
    }
  }
}

enum TodosAction: Equatable, Codable, Sendable {
  case addTodoButtonTapped
  case clearCompletedButtonTapped
  /// Rows deleted by their positions among the filtered rows (SwiftUI's `onDelete`).
  case delete([Int])
  /// Rows moved by their positions among the filtered rows (SwiftUI's `onMove`).
  case move([Int], to: Int)
  case filterPicked(Filter)
  case sortCompletedTodos
  case todos(RowAction<Todo.ID, TodoAction>)
}

enum TodosEffect: Equatable, Codable, StoreEffect {
  /// Sort the completed rows to the bottom after `delay`, unless another tap comes first.
  case sortCompletedTodos(after: Duration)

  var cancellation: EffectCancellation {
    .group("sort", cancelInFlight: true)
  }
}

extension TodosReducer {
  static let todos = ChildFeature(
    "todos", of: TodosCore.self, state: \.todos,
    action: CaseKey(embed: TodosAction.todos) { if case .todos(let a) = $0 { a } else { nil } })
}

struct TodosReducer: Reducer {
  let body = TodosCore().forEach(TodosReducer.todos) { TodoReducer() }

  func reduce(into state: inout TodosState, action: TodosAction) -> [TodosEffect] {
    body.reduce(into: &state, action: action)
  }
}

/// The list's own logic; `forEach` has already run a row's action on its row.
struct TodosCore: Reducer {
  func reduce(into state: inout TodosState, action: TodosAction) -> [TodosEffect] {
    switch action {
    case .addTodoButtonTapped:
      state.todos.insert(Todo(id: state.nextID), at: 0)
      state.nextID += 1
      return []

    case .clearCompletedButtonTapped:
      state.todos.removeAll(where: \.isComplete)
      return []

    case .delete(let offsets):
      let filtered = state.filteredTodos
      for offset in offsets where filtered.indices.contains(offset) {
        state.todos.remove(id: filtered[offset].id)
      }
      return []

    case .move(let offsets, let destination):
      // Positions among the filtered rows, turned into positions in the whole list.
      let filtered = state.filteredTodos
      let sources = offsets.filter(filtered.indices.contains).compactMap {
        state.todos.index(id: filtered[$0].id)
      }
      let target =
        destination < filtered.count
        ? state.todos.index(id: filtered[destination].id) ?? state.todos.count
        : state.todos.count
      state.todos.move(fromOffsets: sources, toOffset: target)
      return [.sortCompletedTodos(after: .milliseconds(100))]

    case .filterPicked(let filter):
      state.filter = filter
      return []

    case .sortCompletedTodos:
      state.todos.sort { !$0.isComplete && $1.isComplete }
      return []

    case .todos(let row) where row.action == .checkBoxToggled:
      return [.sortCompletedTodos(after: .seconds(1))]

    case .todos:
      return []
    }
  }
}

/// Sleeps, then asks for the sort; a newer request cancels an older one (the effect's group).
struct TodosEffectHandler: EffectHandler {
  let clock: any Clock<Duration>

  func handle(_ effect: TodosEffect, send: Send<TodosAction>) async {
    switch effect {
    case .sortCompletedTodos(let delay):
      do {
        try await clock.sleep(for: delay)
      } catch {
        return  // Cancelled by a newer tap: that one sorts.
      }
      await send(.sortCompletedTodos)
    }
  }
}
