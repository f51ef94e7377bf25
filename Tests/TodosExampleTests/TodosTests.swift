import StateStore
import StateStoreTesting
import Testing
import ToolTestSupport

/// TCA's Todos tests, against the package's `forEach`: add, edit, complete (with the debounced
/// sort), delete, move, filter and clear completed.
@MainActor struct TodosTests {
  let clock = TestClock()

  func makeStore(_ state: TodosState = TodosState()) -> TestStore<TodosReducer> {
    TestStore(
      initialState: state, reducer: TodosReducer(), handler: TodosEffectHandler(clock: clock))
  }

  static let three = TodosState(
    todos: [
      Todo(id: 0, description: "Milk"), Todo(id: 1, description: "Eggs"),
      Todo(id: 2, description: "Hand soap", isComplete: true),
    ],
    nextID: 3)

  @Test func addingATodoPutsANewRowFirst() async {
    let store = makeStore()
    await store.send(.addTodoButtonTapped) {
      $0.todos = [Todo(id: 0)]
      $0.nextID = 1
    }
    await store.send(.addTodoButtonTapped) {
      $0.todos = [Todo(id: 1), Todo(id: 0)]
      $0.nextID = 2
    }
    await store.finish()
  }

  @Test func editingARowChangesThatRowOnly() async {
    let store = makeStore(Self.three)
    await store.send(.todos(.row(1, .descriptionChanged("Free-range eggs")))) {
      $0.todos[id: 1]?.description = "Free-range eggs"
    }
    await store.finish()
  }

  @Test func completingARowSortsItDownASecondLater() async {
    let store = makeStore(Self.three)
    await store.send(.todos(.row(0, .checkBoxToggled))) {
      $0.todos[id: 0]?.isComplete = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.sortCompletedTodos) {
      $0.todos = [
        Todo(id: 1, description: "Eggs"), Todo(id: 0, description: "Milk", isComplete: true),
        Todo(id: 2, description: "Hand soap", isComplete: true),
      ]
    }
    await store.finish()
  }

  @Test func aSecondTapWithinTheSecondRestartsTheWait() async {
    let store = makeStore(Self.three)
    await store.send(.todos(.row(0, .checkBoxToggled))) { $0.todos[id: 0]?.isComplete = true }
    await clock.advance(by: .milliseconds(500))
    await store.send(.todos(.row(0, .checkBoxToggled))) { $0.todos[id: 0]?.isComplete = false }
    await clock.advance(by: .milliseconds(999))
    // The first wait was cancelled: nothing arrives until a second after the second tap.
    await clock.advance(by: .milliseconds(1))
    await store.receive(.sortCompletedTodos)
    await store.finish()
  }

  @Test func deletingUsesThePositionsTheFilterShows() async {
    var state = Self.three
    state.filter = .completed
    let store = makeStore(state)
    // Position 0 among the completed rows is "Hand soap", the third row of the list.
    await store.send(.delete([0])) {
      $0.todos.remove(id: 2)
    }
    await store.finish()
  }

  @Test func movingARowThenSortsCompletedRowsDown() async {
    let store = makeStore(Self.three)
    await store.send(.move([0], to: 2)) {
      $0.todos = [
        Todo(id: 1, description: "Eggs"), Todo(id: 0, description: "Milk"),
        Todo(id: 2, description: "Hand soap", isComplete: true),
      ]
    }
    await clock.advance(by: .milliseconds(100))
    await store.receive(.sortCompletedTodos)
    await store.finish()
  }

  @Test func movingACompletedRowUpIsUndoneByTheSort() async {
    let store = makeStore(Self.three)
    await store.send(.move([2], to: 0)) {
      $0.todos = [
        Todo(id: 2, description: "Hand soap", isComplete: true),
        Todo(id: 0, description: "Milk"), Todo(id: 1, description: "Eggs"),
      ]
    }
    await clock.advance(by: .milliseconds(100))
    await store.receive(.sortCompletedTodos) {
      $0.todos = Self.three.todos
    }
    await store.finish()
  }

  @Test func theFilterShowsActiveOrCompletedRows() async {
    let store = makeStore(Self.three)
    await store.send(.filterPicked(.active)) { $0.filter = .active }
    #expect(store.state.filteredTodos.map(\.id) == [0, 1])
    await store.send(.filterPicked(.completed)) { $0.filter = .completed }
    #expect(store.state.filteredTodos.map(\.id) == [2])
    await store.finish()
  }

  @Test func clearCompletedRemovesOnlyCompletedRows() async {
    let store = makeStore(Self.three)
    await store.send(.clearCompletedButtonTapped) {
      $0.todos.remove(id: 2)
    }
    await store.finish()
  }

  @Test func anActionForARowThatIsGoneIsReportedAndIgnored() {
    let warnings = WarningLog()
    var state = Self.three
    let effects = RuntimeWarning.$reporter.withValue(warnings.reporter) {
      TodosReducer().reduce(into: &state, action: .todos(.row(7, .checkBoxToggled)))
    }
    // The parent still hears the action (it asks for a sort), and no row changed.
    #expect(effects == [.sortCompletedTodos(after: .seconds(1))])
    #expect(state == Self.three)
    #expect(
      warnings.messages == [
        "TodosAction.todos[id: 7](TodoAction.checkBoxToggled) was sent to the row [id: 7] of "
          + "'todos', which is not there; the action was ignored."
      ])
  }

  /// In a test store, the failure for an action sent to a missing row gives a row's advice,
  /// not an optional child's.
  @Test func aTestStoreFailsAnActionForAMissingRowWithARowsAdvice() async {
    let store = makeStore(Self.three)
    let failures = FailureReporter.Recorder()
    await FailureReporter.$current.withValue(failures.reporter) {
      await store.send(.todos(.row(7, .checkBoxToggled)))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.sortCompletedTodos)
    await store.finish()
    let expected = """
      Runtime warning: TodosAction.todos[id: 7](TodoAction.checkBoxToggled) was sent to the row \
      [id: 7] of 'todos', which is not there; the action was ignored.

      A row's actions must arrive while its row is in the list. Send them only for ids the list \
      holds, and let forEach's dismissal effect cancel a removed row's effects.
      """
    #expect(failures.messages == [expected])
    #expect(store.state == Self.three)
  }

  @Test func aFailingAssertionNamesTheRowThatDiffered() async {
    let store = makeStore(Self.three)
    let failures = FailureReporter.Recorder()
    await FailureReporter.$current.withValue(failures.reporter) {
      await store.send(.todos(.row(1, .descriptionChanged("Free-range eggs")))) {
        $0.todos[id: 1]?.description = "Brown eggs"
      }
    }
    let message = failures.messages.first ?? ""
    #expect(failures.messages.count == 1)
    #expect(message.contains("TodosAction.todos[id: 1](TodoAction.descriptionChanged("))
    #expect(message.contains(#"−       description: "Brown eggs","#))
    #expect(message.contains(#"+       description: "Free-range eggs","#))
  }
}
