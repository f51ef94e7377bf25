/// Shows alerts on the main actor and reports the button the user tapped.
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
