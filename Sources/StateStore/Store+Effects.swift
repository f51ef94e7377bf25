extension Store {
  struct InFlightEffect {
    let task: Task<Void, Never>
    let group: GroupKey?
    let namespace: [String]
  }

  /// A cancellation group in one namespace.
  struct GroupKey: Hashable {
    let namespace: [String]
    let id: CancellationID
  }

  @usableFromInline func start(_ effect: R.Effect, in node: EffectNode) {
    let cancellation = effect.cancellation
    var namespace = cancellation.namespace
    var group: GroupKey?
    switch cancellation.kind {
    case .none:
      break
    case .group(let id, let cancelInFlight):
      let key = GroupKey(namespace: namespace, id: id)
      if cancelInFlight { cancel(key) }
      group = key
    case .cancels(let id):
      cancel(GroupKey(namespace: namespace, id: id))
    case .cancelsNamespace:
      cancelAll(in: namespace)
      // The effect that cancels a child's work is not itself part of that child.
      if !namespace.isEmpty { namespace.removeLast() }
    }
    guard let runEffect, !node.isCancelled else { return }

    let id = nextEffectID
    nextEffectID &+= 1
    let send = Send<R.Action>(origins: { [weak self] action, origin in
      _ = self?.enqueue(action, origin: origin, node: node)
    })
    let task = Task { [weak self] in
      await runEffect(effect, send)
      self?.effectFinished(id)
    }
    inFlight[id] = InFlightEffect(task: task, group: group, namespace: namespace)
    if let group { groups[group, default: []].insert(id) }
    node.tasks.append(task)
  }

  /// Cancels the in-flight effects of the group `id` in `namespace`.
  ///
  /// ``cancel(_:)`` cancels a group of the store's own feature; a group of a child feature
  /// lives in the child's namespace (see ``EffectCancellation/within(_:)``).
  ///
  /// ```swift
  /// store.cancel(LoginEffect.authenticationID, in: ["login"])
  /// ```
  ///
  /// - Parameters:
  ///   - id: The group to cancel.
  ///   - namespace: Where the child that started the group sits, outermost first.
  public func cancel(_ id: CancellationID, in namespace: [String]) {
    cancel(GroupKey(namespace: namespace, id: id))
  }

  /// Cancels every effect in flight that was started in `namespace` or in a namespace inside
  /// it, whatever its group: everything a child feature started.
  ///
  /// - Parameter namespace: Where the child sits, outermost first; `[]` cancels everything,
  ///   like ``cancelAll()``.
  public func cancelAll(in namespace: [String]) {
    for (id, effect) in inFlight where effect.namespace.starts(with: namespace) {
      effect.task.cancel()
      if let group = effect.group {
        groups[group]?.remove(id)
        if groups[group]?.isEmpty == true { groups[group] = nil }
      }
    }
  }

  func cancel(_ key: GroupKey) {
    guard let members = groups.removeValue(forKey: key) else { return }
    for member in members { inFlight[member]?.task.cancel() }
  }

  func effectFinished(_ id: Int) {
    guard let effect = inFlight.removeValue(forKey: id), let group = effect.group else { return }
    groups[group]?.remove(id)
    if groups[group]?.isEmpty == true { groups[group] = nil }
  }
}

/// The effects started by one action, and by the actions those effects sent.
@MainActor @usableFromInline final class EffectNode {
  var tasks: [Task<Void, Never>] = []
  var isCancelled = false

  @usableFromInline init() {}
}

/// The work started by one ``Store/send(_:)``: await it or cancel it.
///
/// ``finish()`` waits for everything the action set off, and for everything that set off in
/// turn: for a login tap, the request and its answer, the alert until someone closes it and, on
/// the fifth failure, the whole lockout timer (on a test clock, until the test advances it). To
/// wait for the answer only, wait for the state that shows it with ``Store/state(where:)``.
///
/// ```swift
/// let login = store.send(.loginButtonTapped)
/// await store.state(where: { !$0.isLoading })   // the request and its answer are done
/// await login.finish()                           // and the alert, and any lockout
/// ```
public struct StoreTask: Sendable {
  @usableFromInline let node: EffectNode?

  @usableFromInline init(node: EffectNode?) {
    self.node = node
  }

  /// Whether the action started any effect (or is still queued and may start some).
  @MainActor public var hasEffects: Bool {
    guard let node else { return false }
    return !node.tasks.isEmpty || !node.isCancelled
  }

  /// Whether ``cancel()`` was called.
  @MainActor public var isCancelled: Bool { node?.isCancelled ?? false }

  /// Waits until every effect started by the action, and every effect started by the actions
  /// those effects sent, has finished.
  ///
  /// That includes effects that wait for a person (an alert) or for time (a timer): to wait
  /// for a state instead, use ``Store/state(where:)``.
  @MainActor public func finish() async {
    guard let node else { return }
    var index = 0
    // Effects append their children before they finish, so the list only grows while we wait.
    while index < node.tasks.count {
      await node.tasks[index].value
      index += 1
    }
  }

  /// Waits as ``finish()`` does, but for at most `timeout` of real time, and says whether the
  /// effects finished.
  ///
  /// For tests, where a regression should fail instead of hanging the suite:
  ///
  /// ```swift
  /// store.send(.closeDrawer)
  /// #expect(await drawer.finish(within: .seconds(5)), "the drawer's effects were not cancelled")
  /// ```
  ///
  /// The effects are left as they are when the time runs out; cancel them with ``cancel()``.
  ///
  /// - Parameter timeout: How long to wait at most, in real time.
  /// - Returns: Whether every effect finished in time.
  @MainActor public func finish(within timeout: Duration) async -> Bool {
    guard node != nil else { return true }
    return await BoundedWait.first(timeout: timeout, timedOut: false) { wait in
      Task { @MainActor in
        await self.finish()
        wait.end(true)
      }
    }
  }

  /// Cancels every effect started by the action and by the actions its effects sent.
  ///
  /// Effects of a queued action that has not been reduced yet will not start.
  @MainActor public func cancel() {
    guard let node else { return }
    node.isCancelled = true
    for task in node.tasks { task.cancel() }
  }
}
