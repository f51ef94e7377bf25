extension Send {
  /// A `Send` for a child feature's actions that embeds each one in this store's actions.
  ///
  /// The way a parent's handler hands a child's effect to the child's own handler:
  ///
  /// ```swift
  /// func handle(_ effect: AppEffect, send: Send<AppAction>) async {
  ///   switch effect {
  ///   case .login(let effect): await login.handle(effect, send: send.embedding(AppAction.login))
  ///   case .homeDismissed: break
  ///   }
  /// }
  /// ```
  ///
  /// Actions sent through it are dropped under the same rules as this `Send`'s (a cancelled
  /// task, a store that is gone).
  ///
  /// - Parameter embed: Wraps a child action in this store's action type, e.g. the case
  ///   constructor `AppAction.login`.
  /// - Returns: The child's `Send`.
  public func embedding<Child: Sendable>(
    _ embed: @escaping @Sendable (Child) -> Action
  ) -> Send<Child> {
    let deliver = self.deliver
    return Send<Child>(origins: { child, origin in deliver(embed(child), origin) })
  }

  /// A `Send` for a child feature's actions that embeds each one with `key`.
  ///
  /// - Parameter key: The case of this store's action type that carries the child's actions.
  /// - Returns: The child's `Send`.
  public func embedding<Child: Sendable>(_ key: CaseKey<Action, Child>) -> Send<Child> {
    embedding(key.embed)
  }
}

extension EffectHandler {
  /// This handler, working inside a parent feature: it carries out the effects of the child
  /// that `feature` declares and sends its actions back in the parent's action case. Every
  /// other parent effect it ignores.
  ///
  /// With ``combined(with:)`` a parent's handler is its children's handlers plus its own, with
  /// no handler written twice:
  ///
  /// ```swift
  /// let handler: some EffectHandler<AppEffect, AppAction> =
  ///   LoginEffectHandler(dependencies: login).lifted(into: AppReducer.login)
  ///     .combined(with: HomeEffectHandler(profiles: profiles).lifted(into: AppReducer.home))
  /// ```
  ///
  /// - Parameter feature: Where the child sits in the parent.
  /// - Returns: A handler of the parent's effects.
  public func lifted<ParentState, ParentAction: Sendable, ParentEffect: StoreEffect, ChildState>(
    into feature: ChildFeature<ParentState, ParentAction, ParentEffect, ChildState, Action, Effect>
  ) -> LiftedEffectHandler<Self, ParentEffect, ParentAction> where Effect: StoreEffect {
    LiftedEffectHandler(base: self, effect: feature.effect, action: feature.action)
  }

  /// This handler, working for every row of a list inside a parent feature: it carries out
  /// each row's effects (see `forEach(_:row:)`) and sends the row's actions back to the row
  /// that started them. Every other parent effect it ignores.
  ///
  /// ```swift
  /// let handler = TodoEffectHandler().lifted(into: TodosReducer.todos)
  ///   .combined(with: TodosEffectHandler(clock: clock))
  /// ```
  ///
  /// - Parameter feature: Where the list sits in the parent.
  /// - Returns: A handler of the parent's effects.
  public func lifted<
    ParentState, ParentAction: Sendable, ParentEffect: StoreEffect, RowState: Identifiable
  >(
    into feature: ChildFeature<
      ParentState, ParentAction, ParentEffect, IdentifiedList<RowState>,
      RowAction<RowState.ID, Action>, RowEffect<RowState.ID, Effect>
    >
  ) -> LiftedRowEffectHandler<Self, RowState.ID, ParentEffect, ParentAction>
  where Effect: StoreEffect, RowState.ID: Sendable {
    LiftedRowEffectHandler(base: self, effect: feature.effect, action: feature.action)
  }

  /// A handler that gives every effect to this handler, then to `other`.
  ///
  /// Meant for handlers that each carry out only the effects they know and return at once for
  /// the rest, as lifted handlers do; an effect that both carry out runs twice.
  ///
  /// - Parameter other: The second handler.
  /// - Returns: The combination.
  public func combined<Other: EffectHandler>(
    with other: Other
  ) -> CombinedEffectHandlers<Self, Other> where Other.Effect == Effect, Other.Action == Action {
    CombinedEffectHandlers(first: self, second: other)
  }
}

/// A child's effect handler working inside a parent: see `EffectHandler.lifted(into:)`.
public struct LiftedEffectHandler<
  Base: EffectHandler, ParentEffect: Sendable, ParentAction: Sendable
>: EffectHandler {
  let base: Base
  let effect: CaseKey<ParentEffect, Base.Effect>
  let action: CaseKey<ParentAction, Base.Action>

  /// Carries out `effect` with the child's handler when it is the child's; does nothing
  /// otherwise.
  ///
  /// - Parameters:
  ///   - effect: Any parent effect.
  ///   - send: The parent's `Send`.
  public func handle(_ effect: ParentEffect, send: Send<ParentAction>) async {
    guard let childEffect = self.effect.extract(effect) else { return }
    await base.handle(childEffect, send: send.embedding(action))
  }
}

/// A row's effect handler working for every row of a list inside a parent: see
/// `lifted(into:)`.
public struct LiftedRowEffectHandler<
  Base: EffectHandler, ID: Hashable & Sendable, ParentEffect: Sendable, ParentAction: Sendable
>: EffectHandler where Base.Effect: StoreEffect {
  let base: Base
  let effect: CaseKey<ParentEffect, RowEffect<ID, Base.Effect>>
  let action: CaseKey<ParentAction, RowAction<ID, Base.Action>>

  /// Carries out `effect` with the row's handler when it is a row's, sending the row's actions
  /// back to that row; does nothing otherwise.
  ///
  /// - Parameters:
  ///   - effect: Any parent effect.
  ///   - send: The parent's `Send`.
  public func handle(_ effect: ParentEffect, send: Send<ParentAction>) async {
    guard let rowEffect = self.effect.extract(effect) else { return }
    let id = rowEffect.id
    let embed = action.embed
    await base.handle(
      rowEffect.effect, send: send.embedding { embed(RowAction(id: id, action: $0)) })
  }
}

/// Two handlers of the same effects, one after the other: see
/// ``EffectHandler/combined(with:)``.
public struct CombinedEffectHandlers<First: EffectHandler, Second: EffectHandler>: EffectHandler
where Second.Effect == First.Effect, Second.Action == First.Action {
  let first: First
  let second: Second

  /// Gives `effect` to the first handler, then to the second.
  ///
  /// - Parameters:
  ///   - effect: The effect.
  ///   - send: The store's `Send`.
  public func handle(_ effect: First.Effect, send: Send<First.Action>) async {
    await first.handle(effect, send: send)
    await second.handle(effect, send: send)
  }
}
