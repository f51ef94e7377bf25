extension Reducer where Effect: ComposedEffect {
  /// Runs a child feature on an optional part of this feature's state — present only while the
  /// child is shown — and ends the child's effects when it goes away.
  ///
  /// For each action, in this order:
  ///
  /// 1. If the action is the child's: when the child's state is there, the child reducer runs
  ///    on it and its effects are embedded; when it is absent, the action is ignored and a
  ///    ``RuntimeWarning`` is reported (a line on standard error in debug builds, a test
  ///    failure in a `TestStore`) — never a crash.
  /// 2. This reducer runs, with every action (the child's too, so it can react to them: read
  ///    the child's state, or remove the child).
  /// 3. If the child was there before the action and is not after it,
  ///    `.childDismissed(feature.dismissal)` is added to the effects: the store cancels
  ///    everything the child started, and a test store and an action log see it.
  ///
  /// ```swift
  /// struct AppReducer: Reducer {
  ///   let body = AppCore().ifLet(AppReducer.home) { HomeReducer() }
  ///
  ///   func reduce(into state: inout AppState, action: AppAction) -> [AppEffect] {
  ///     body.reduce(into: &state, action: action)
  ///   }
  /// }
  /// ```
  ///
  /// Only presence counts: replacing a present child with another value in one action is not
  /// a dismissal.
  ///
  /// - Parameters:
  ///   - feature: Where the optional child sits in this feature.
  ///   - child: The child's reducer.
  /// - Returns: A reducer that runs both.
  public func ifLet<Child: Reducer>(
    _ feature: ChildFeature<State, Action, Effect, Child.State?, Child.Action, Child.Effect>,
    child: () -> Child
  ) -> IfLet<Self, Child> {
    IfLet(
      parent: self, child: child(), feature: feature,
      dismissal: { .childDismissed(feature.dismissal) })
  }

  /// Presents a child feature that can end itself: the same as `ifLet(_:child:)`, and when an
  /// action leaves the child with an ``PresentedState/outcome``, the child is removed and
  /// `onEnd` acts on how it ended.
  ///
  /// The parent learns how the child ended without a case of its own for it: a code step
  /// that verified a code, or that the user cancelled, sets its outcome; right after the
  /// child's reducer ran, the child's state is taken away, `onEnd` runs with the outcome (it
  /// may sign the user in, or show an alert), and the dismissal ends the child's effects.
  ///
  /// ```swift
  /// let body = LoginCore().ifLet(
  ///   LoginReducer.twoFactor, onEnd: { LoginCore().twoFactorEnded(&$0, $1) },
  ///   child: { TwoFactorReducer() })
  /// ```
  ///
  /// The effects come in this order: the child's, `onEnd`'s, this reducer's, the dismissal.
  /// A parent can still dismiss the child itself by setting its state to `nil`.
  ///
  /// - Parameters:
  ///   - feature: Where the optional child sits in this feature.
  ///   - onEnd: Acts on the outcome of a child that ended; the child is already removed.
  ///   - child: The child's reducer.
  /// - Returns: A reducer that runs both.
  public func ifLet<Child: Reducer>(
    _ feature: ChildFeature<State, Action, Effect, Child.State?, Child.Action, Child.Effect>,
    onEnd: @escaping @Sendable (inout State, Child.State.Outcome) -> [Effect],
    child: () -> Child
  ) -> IfLet<Self, Child> where Child.State: PresentedState {
    IfLet(
      parent: self, child: child(), feature: feature,
      dismissal: { .childDismissed(feature.dismissal) }
    ).ending(with: onEnd)
  }

  /// Runs a child feature without effects on an optional part of this feature's state, in a
  /// feature whose effects are a ``ComposedEffect``: the same as the `ifLet(_:child:)` of a
  /// child with effects. The child has nothing to cancel, but when it goes away
  /// `.childDismissed(feature.dismissal)` is still returned, so this feature's handler, a test
  /// store and an action log see the dismissal as data, as for any other child.
  ///
  /// - Parameters:
  ///   - feature: Where the optional child sits in this feature.
  ///   - child: The child's reducer.
  /// - Returns: A reducer that runs both.
  public func ifLet<Child: Reducer>(
    _ feature: ChildFeature<State, Action, Effect, Child.State?, Child.Action, Never>,
    child: () -> Child
  ) -> IfLet<Self, Child> where Child.Effect == Never {
    IfLet(
      parent: self, child: child(), feature: feature,
      dismissal: { .childDismissed(feature.dismissal) })
  }

  /// Presents a child without effects that can end itself, in a feature whose effects are a
  /// ``ComposedEffect``: the same as the `ifLet(_:onEnd:child:)` of a child with effects,
  /// `.childDismissed(feature.dismissal)` included when it ends or goes away.
  ///
  /// - Parameters:
  ///   - feature: Where the optional child sits in this feature.
  ///   - onEnd: Acts on the outcome of a child that ended; the child is already removed.
  ///   - child: The child's reducer.
  /// - Returns: A reducer that runs both.
  public func ifLet<Child: Reducer>(
    _ feature: ChildFeature<State, Action, Effect, Child.State?, Child.Action, Never>,
    onEnd: @escaping @Sendable (inout State, Child.State.Outcome) -> [Effect],
    child: () -> Child
  ) -> IfLet<Self, Child> where Child.State: PresentedState, Child.Effect == Never {
    IfLet(
      parent: self, child: child(), feature: feature,
      dismissal: { .childDismissed(feature.dismissal) }
    ).ending(with: onEnd)
  }
}

extension Reducer {
  /// Runs a child feature without effects on an optional part of this feature's state, in a
  /// feature whose effects have no case for a dismissal: nothing needs cancelling when the
  /// child goes away.
  ///
  /// - Parameters:
  ///   - feature: Where the optional child sits in this feature.
  ///   - child: The child's reducer.
  /// - Returns: A reducer that runs both.
  public func ifLet<Child: Reducer>(
    _ feature: ChildFeature<State, Action, Effect, Child.State?, Child.Action, Never>,
    child: () -> Child
  ) -> IfLet<Self, Child> where Child.Effect == Never {
    IfLet(parent: self, child: child(), feature: feature, dismissal: nil)
  }

  /// Presents a child without effects that can end itself: the same as the
  /// `ifLet(_:onEnd:child:)` of a child with effects, with nothing to cancel when it ends or
  /// goes away, so the parent needs no ``ComposedEffect`` (and may have no effects at all).
  ///
  /// - Parameters:
  ///   - feature: Where the optional child sits in this feature.
  ///   - onEnd: Acts on the outcome of a child that ended; the child is already removed.
  ///   - child: The child's reducer.
  /// - Returns: A reducer that runs both.
  public func ifLet<Child: Reducer>(
    _ feature: ChildFeature<State, Action, Effect, Child.State?, Child.Action, Never>,
    onEnd: @escaping @Sendable (inout State, Child.State.Outcome) -> [Effect],
    child: () -> Child
  ) -> IfLet<Self, Child> where Child.State: PresentedState, Child.Effect == Never {
    IfLet(parent: self, child: child(), feature: feature, dismissal: nil).ending(with: onEnd)
  }
}

/// A feature with an optional child feature: see `ifLet(_:child:)`.
public struct IfLet<Parent: Reducer, Child: Reducer>: ReducerWithInputs {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let feature:
    ChildFeature<
      Parent.State, Parent.Action, Parent.Effect, Child.State?, Child.Action, Child.Effect
    >
  /// The feature's key path and action extraction, held here rather than read from the
  /// feature (a class) on each action: read from a struct the reducer is called on, they need no
  /// retain and release around each use.
  @usableFromInline let childPath: WritableKeyPath<Parent.State, Child.State?> & Sendable
  @usableFromInline let extractAction: @Sendable (Parent.Action) -> Child.Action?
  /// Makes the dismissal effect; made only when the child goes away, so the reducer does not
  /// carry (and copy on every action) an effect value.
  @usableFromInline let dismissal: (@Sendable () -> Parent.Effect)?
  /// For a presented child: when the child's state says it ended, what the parent does.
  @usableFromInline var end:
    (@Sendable (Child.State) -> ((inout Parent.State) -> [Parent.Effect])?)?

  @usableFromInline init(
    parent: Parent,
    child: Child,
    feature: ChildFeature<
      Parent.State, Parent.Action, Parent.Effect, Child.State?, Child.Action, Child.Effect
    >,
    dismissal: (@Sendable () -> Parent.Effect)?
  ) {
    self.parent = parent
    self.child = child
    self.feature = feature
    self.childPath = feature.state
    self.extractAction = feature.action.extract
    self.dismissal = dismissal
  }
  /// Runs the child (when the action is its and it is there), then the parent, then adds the
  /// dismissal effect if the child went away.
  ///
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - action: Any parent action.
  ///   - inputs: The store's inputs, passed on to the child and the parent.
  /// - Returns: The child's embedded effects, then the parent's, then the dismissal.
  @inlinable
  public func reduce(
    into state: inout Parent.State, action: Parent.Action, inputs: inout ReducerInputs
  ) -> [Parent.Effect] {
    // One in-place projection per question, never a copy of the child's state: reading an
    // optional child through its key path copied it (retains, releases) on every action.
    var wasPresent = false
    var effects: [Parent.Effect] = []
    if let childAction = extractAction(action) {
      let childEffects: [Child.Effect]? = Self.modify(&state[keyPath: childPath]) {
        guard Self.isPresent(&$0) else { return nil }
        return child.reduce(into: &$0!, action: childAction, inputs: &inputs)
      }
      if let childEffects {
        wasPresent = true
        effects = feature.embed(childEffects)
        if let end { effects += endIfDone(&state, end) }
      } else {
        reportAbsentChild(action)
      }
    } else if dismissal != nil {
      wasPresent = Self.isPresent(&state[keyPath: childPath])
    }
    let parentEffects = parent.reduce(into: &state, action: action, inputs: &inputs)
    if effects.isEmpty {
      effects = parentEffects
    } else {
      effects += parentEffects
    }
    if wasPresent, let dismissal, !Self.isPresent(&state[keyPath: childPath]) {
      effects.append(dismissal())
    }
    return effects
  }

  /// This reducer, for a presented child: when an action leaves the child with an outcome, the
  /// child is removed and `onEnd` acts on it.
  func ending(
    with onEnd: @escaping @Sendable (inout Parent.State, Child.State.Outcome) -> [Parent.Effect]
  ) -> IfLet where Child.State: PresentedState {
    var reducer = self
    reducer.end = { childState in
      guard let outcome = childState.outcome else { return nil }
      return { parentState in onEnd(&parentState, outcome) }
    }
    return reducer
  }

  /// Removes a presented child that ended, and returns what the parent does about it.
  @usableFromInline func endIfDone(
    _ state: inout Parent.State,
    _ end: @Sendable (Child.State) -> ((inout Parent.State) -> [Parent.Effect])?
  ) -> [Parent.Effect] {
    guard let childState = state[keyPath: childPath], let act = end(childState)
    else { return [] }
    state[keyPath: childPath] = nil
    return act(&state)
  }

  // `if case` rather than `!= nil`: with Swift 6.3 the nil comparison of a non-trivial payload
  // goes through value witnesses, about 35 ns each time (measured in store-bench).
  /// Runs `body` on the child's state in place.
  @inlinable static func modify<T>(
    _ child: inout Child.State?, _ body: (inout Child.State?) -> T
  ) -> T {
    body(&child)
  }

  // `inout`, so that the check reads the case in place and never copies the payload.
  @inlinable static func isPresent(_ value: inout Child.State?) -> Bool {
    if case .some = value { true } else { false }
  }

  @usableFromInline func reportAbsentChild(_ action: Parent.Action) {
    RuntimeWarning.report(
      "\(Dump.renderOneLine(action)) was sent to the optional child '\(feature.name)', "
        + "which is absent; the action was ignored.",
      advice: "An optional child's actions must arrive while it is there. Send them only while "
        + "the child's state is present, and let ifLet's dismissal effect cancel the child's "
        + "effects when it goes away.")
  }
}

extension IfLet: Sendable where Parent: Sendable, Child: Sendable, Parent.Effect: Sendable {}
