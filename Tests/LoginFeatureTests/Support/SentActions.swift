import LoginFeature
import StateStore

/// Collects the actions a handler sends.
@MainActor final class SentActions {
  var actions: [LoginAction] = []

  var send: Send<LoginAction> {
    Send { [self] action in actions.append(action) }
  }
}
