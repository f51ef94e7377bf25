extension RouteCommand {
  /// Carries out the command on a plain navigation stack whose bottom is the login form.
  ///
  /// The terminal demo's router and the replay timeline's screens both navigate this way, so
  /// what a log shows and what the demo did cannot drift apart.
  ///
  /// - Parameter stack: The routes, bottom first; the login form stays at the bottom.
  package func apply(to stack: inout [Route]) {
    switch self {
    case .push(let route), .present(let route):
      stack.append(route)
    case .pop, .dismiss:
      if stack.count > 1 { stack.removeLast() }
    case .popToRoot:
      stack = [.login]
    case .restore(let route):
      stack = [.login, route]
    }
  }
}
