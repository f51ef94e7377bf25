import LoginFeature

/// Shows alerts as boxes on the screen and waits for the user to close them.
///
/// ``present(_:)`` suspends on a continuation until ``tap(_:)`` or ``dismiss()`` resumes it.
/// Alerts that arrive while one is showing wait their turn, in order.
@MainActor
final class DemoAlertPresenter: AlertPresenter {
  private struct Pending {
    let id: Int
    let alert: Alert
    let continuation: CheckedContinuation<AlertButton?, Never>
  }

  private var pending: [Pending] = []
  private var nextID = 0
  /// Called after an alert appears or goes away.
  var onChange: @MainActor () -> Void = {}

  /// The alert showing, if any.
  var current: Alert? { pending.first?.alert }

  /// How many alerts are showing or waiting to show.
  var count: Int { pending.count }

  func present(_ alert: Alert) async -> AlertButton? {
    if Task.isCancelled { return nil }
    nextID += 1
    let id = nextID
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        pending.append(Pending(id: id, alert: alert, continuation: continuation))
        onChange()
      }
    } onCancel: {
      Task { @MainActor in self.close(id, with: nil) }
    }
  }

  /// Taps `button` of the alert showing.
  func tap(_ button: AlertButton) {
    guard let first = pending.first else { return }
    close(first.id, with: button)
  }

  /// Closes the alert showing without a button (Esc).
  func dismiss() {
    guard let first = pending.first else { return }
    close(first.id, with: nil)
  }

  private func close(_ id: Int, with button: AlertButton?) {
    guard let index = pending.firstIndex(where: { $0.id == id }) else { return }
    let closed = pending.remove(at: index)
    closed.continuation.resume(returning: button)
    onChange()
  }
}
