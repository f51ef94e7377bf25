/// Shows alerts on the main actor and reports the button the user tapped.
///
/// Alerts can overlap: the flow may ask for a second alert while the first is still showing
/// (an error, then "Not Saved on This Device"). A presenter shows one alert at a time and
/// either queues the next, showing it when the first is closed (what the terminal demo and the
/// hosts in the "Embedding" article do), or refuses it by answering `nil` at once. It never
/// replaces an alert that is waiting for its answer. When the task waiting on `present` is
/// cancelled, its alert goes away — showing or queued — and `present` answers `nil`.
///
/// ```swift
/// @MainActor final class TerminalAlerts: AlertPresenter {
///   func present(_ alert: Alert) async -> AlertButton? {
///     print(alert.title, alert.message, separator: "\n")
///     return alert.buttons.first
///   }
/// }
/// ```
@MainActor
public protocol AlertPresenter: Sendable {
  /// Shows `alert` and waits until the user closes it.
  ///
  /// - Parameter alert: The alert to show.
  /// - Returns: The tapped button, or `nil` when the alert was dismissed without one (or the
  ///   waiting task was cancelled).
  func present(_ alert: Alert) async -> AlertButton?
}
