/// A pure function from an action and the current state to the next state and the effects to run.
///
/// A reducer decides; it never does. It runs synchronously on the main actor inside
/// ``Store/send(_:)``, mutates the state in place and returns the side effects as plain values.
/// It must not await, read a clock, generate random values or touch I/O: everything the outside
/// world has to do goes into the returned effects, and everything the outside world answers
/// comes back as a new action. That is what makes a feature testable without running it, and
/// what lets an action log replay every state without running a single effect.
///
/// ```swift
/// struct Counter: Reducer {
///   enum Action: Sendable { case increment, reset }
///   func reduce(into state: inout Int, action: Action) -> [Never] {
///     switch action {
///     case .increment: state += 1
///     case .reset: state = 0
///     }
///     return []
///   }
/// }
/// ```
///
/// A reducer that needs the date, a new id or a random number reads them from the
/// ``ReducerInputs`` its store hands it: see ``ReducerWithInputs``.
public protocol Reducer<State, Action, Effect> {
  /// The value the feature's screen is rendered from.
  associatedtype State: Sendable
  /// What happened: a user event or the answer of an effect.
  associatedtype Action: Sendable
  /// What to do: a side effect described as data, carried out by an ``EffectHandler``.
  associatedtype Effect: StoreEffect

  /// Applies `action` to `state` and returns the effects to start, in order.
  ///
  /// - Parameters:
  ///   - state: The current state, mutated in place.
  ///   - action: The action to apply.
  /// - Returns: The effects the store starts, in the order given.
  func reduce(into state: inout State, action: Action) -> [Effect]

  /// Applies `action` to `state` with the values the store hands the reducer, and returns the
  /// effects to start, in order: what a store calls.
  ///
  /// A reducer that reads no inputs does not write it: the default calls
  /// ``reduce(into:action:)``. A reducer that reads them writes this one instead, as a
  /// ``ReducerWithInputs``.
  ///
  /// - Parameters:
  ///   - state: The current state, mutated in place.
  ///   - action: The action to apply.
  ///   - inputs: The date, new ids and random numbers, from the store.
  /// - Returns: The effects the store starts, in the order given.
  func reduce(into state: inout State, action: Action, inputs: inout ReducerInputs) -> [Effect]
}

extension Reducer {
  /// Calls ``reduce(into:action:)``: a reducer that reads no inputs.
  ///
  /// - Parameters:
  ///   - state: The current state, mutated in place.
  ///   - action: The action to apply.
  ///   - inputs: Not read.
  /// - Returns: The effects of ``reduce(into:action:)``.
  @inlinable
  public func reduce(
    into state: inout State, action: Action, inputs: inout ReducerInputs
  ) -> [Effect] {
    reduce(into: &state, action: action)
  }
}

/// A reducer that reads the date, new ids or random numbers: it writes
/// `reduce(into:action:inputs:)`, and reads them from the ``ReducerInputs`` its store hands it.
///
/// It stays a pure function of its inputs — the state, the action and those values — so a test
/// store fixes them (``ControlledInputs``), an action log records the ones each step read, and a
/// replay hands them back: `replay --verify` reproduces a step that made a new id exactly.
///
/// ```swift
/// struct TodosCore: ReducerWithInputs {
///   func reduce(
///     into state: inout TodosState, action: TodosAction, inputs: inout ReducerInputs
///   ) -> [TodosEffect] {
///     switch action {
///     case .addButtonTapped:
///       state.todos.insert(Todo(id: inputs.newID()), at: 0)
///       return []
///     …
///     }
///   }
/// }
/// ```
///
/// The inputs reach a child only through its parents: ``Scope``, `ifLet`, `forEach` and
/// ``Reducer/combined(with:)`` pass them on. A parent of your own that calls its body passes
/// them on the same way, so it is a `ReducerWithInputs` too:
///
/// ```swift
/// struct TodosReducer: ReducerWithInputs {
///   let body = TodosCore().forEach(TodosReducer.todos) { TodoReducer() }
///
///   func reduce(
///     into state: inout TodosState, action: TodosAction, inputs: inout ReducerInputs
///   ) -> [TodosEffect] {
///     body.reduce(into: &state, action: action, inputs: &inputs)
///   }
/// }
/// ```
///
/// Called through `reduce(into:action:)`, which no store does, it gets inputs that report a
/// ``RuntimeWarning`` when read (a failure in a `TestStore`) and give the system's values.
/// A `ReducerWithInputs` that does not write `reduce(into:action:inputs:)` does not compile.
public protocol ReducerWithInputs: Reducer {}

extension ReducerWithInputs {
  /// Runs ``Reducer/reduce(into:action:inputs:)`` with inputs that no store handed over:
  /// reading one reports a ``RuntimeWarning`` and gives the system's value.
  ///
  /// - Parameters:
  ///   - state: The current state, mutated in place.
  ///   - action: The action to apply.
  /// - Returns: The effects the reducer returned.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> [Effect] {
    var inputs = ReducerInputs.missing
    return reduce(into: &state, action: action, inputs: &inputs)
  }

  /// Not a reducer's: a `ReducerWithInputs` writes `reduce(into:action:inputs:)` itself.
  @available(
    *, unavailable,
    message: "a ReducerWithInputs writes reduce(into:action:inputs:), which reads the inputs"
  )
  public func reduce(
    into state: inout State, action: Action, inputs: inout ReducerInputs
  ) -> [Effect] {
    []
  }
}
