extension Store {
  struct InFlightEffect {
    let task: Task<Void, Never>
    let group: CancellationID?
  }

  @usableFromInline func start(_ effect: R.Effect, in node: EffectNode) {
    var group: CancellationID?
    switch effect.cancellation {
    case .none:
      break
    case .group(let id, let cancelInFlight):
      if cancelInFlight { cancel(id) }
      group = id
    case .cancels(let id):
      cancel(id)
    }
    guard let runEffect, !node.isCancelled else { return }

    let id = nextEffectID
    nextEffectID &+= 1
    let send = Send<R.Action> { [weak self] action in
      _ = self?.enqueue(action, origin: .effect, node: node)
    }
    let task = Task { [weak self] in
      await runEffect(effect, send)
      self?.effectFinished(id)
    }
    inFlight[id] = InFlightEffect(task: task, group: group)
    if let group { groups[group, default: []].insert(id) }
    node.tasks.append(task)
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
/// ```swift
/// await store.send(.loginButtonTapped).finish()   // the request and its answer are done
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
  @MainActor public func finish() async {
    guard let node else { return }
    var index = 0
    // Effects append their children before they finish, so the list only grows while we wait.
    while index < node.tasks.count {
      await node.tasks[index].value
      index += 1
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
