import LoginFeature
import StateStore
import StateStoreTesting

/// An ``LoginFeature/AlertPresenter`` that records every alert and answers as scripted.
///
/// By default it taps each alert's cancel-role button (the "OK" of an error alert) — or its
/// first button when none has that role — at once. Script the answer to the next alerts with
/// ``tapOnNext(_:fileID:filePath:line:column:)`` (a button's id or title),
/// ``respondToNext(_:fileID:filePath:line:column:)`` (`.dismiss`, `.hold`, …), or change
/// ``defaultResponse``. A held alert stays on screen until the test calls
/// ``release(_:where:fileID:filePath:line:column:)``.
///
/// ```swift
/// let alerts = RecordingAlertPresenter()
/// // … a login that fails …
/// #expect(alerts.alerts == [Alert(title: "Couldn't sign in", message: "Incorrect username or password")])
/// #expect(alerts.history.map(\.outcome) == [.tapped(.ok)])
/// ```
///
/// Every answered alert adds a line to the running test store's story
/// (``StateStoreTesting/StoryRecorder``):
///
/// <!-- sample: lines of Tests/LoginFeatureTests/__Snapshots__/LoginStoryTests/twoFailuresOneSuccessAndALogout.txt -->
/// ```text
/// performed: alertPresenter.present("Couldn't sign in": "Incorrect username or password") → tapped "OK"
/// ```
@MainActor
public final class RecordingAlertPresenter: AlertPresenter {
  /// How the presenter answers an alert.
  public enum Response: Sendable, Equatable {
    /// Taps the button with this ``LoginFeature/AlertButton/id``, or else this title.
    case tap(String)
    /// Taps the button whose role is ``LoginFeature/AlertButton/Role/cancel``, or else the first
    /// button.
    case tapCancelButton
    /// Closes the alert without a button.
    case dismiss
    /// Keeps the alert on screen until
    /// ``RecordingAlertPresenter/release(_:where:fileID:filePath:line:column:)``.
    case hold
  }

  /// What became of a presented alert.
  public enum Outcome: Sendable, Equatable {
    /// The button was tapped.
    case tapped(AlertButton)
    /// The alert was closed without a button (dismissed, or its task was cancelled).
    case dismissed
    /// The alert is held on screen.
    case held
  }

  /// One presented alert and what became of it.
  public struct Presentation: Sendable, Equatable {
    /// The alert.
    public var alert: Alert
    /// What became of it.
    public var outcome: Outcome

    /// Creates a presentation.
    ///
    /// - Parameters:
    ///   - alert: The alert.
    ///   - outcome: What became of it.
    public init(alert: Alert, outcome: Outcome) {
      self.alert = alert
      self.outcome = outcome
    }
  }

  private struct Scripted {
    let response: Response
    let location: FailureLocation
  }

  /// The answer to alerts no scripted response covers; ``Response/tapCancelButton`` by default.
  public var defaultResponse: Response

  /// Every alert presented so far, in order, with what became of it.
  public private(set) var history: [Presentation] = []

  private var scripted: [Scripted] = []
  /// A held alert's answer is the tapped button, `nil` when dismissed.
  private let held = HeldCalls<Alert, AlertButton?>()
  private let createdAt: FailureLocation

  /// Creates a presenter with an empty history.
  ///
  /// - Parameters:
  ///   - defaultResponse: The answer to alerts no scripted response covers.
  ///   - fileID: Where a default tap that names no button is reported; the caller's by default.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public init(
    defaultResponse: Response = .tapCancelButton,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    self.defaultResponse = defaultResponse
    self.createdAt = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Every alert presented so far, in order.
  public var alerts: [Alert] { history.map(\.alert) }

  /// The alerts held on screen right now, oldest first.
  public var heldAlerts: [Alert] { held.requests }

  /// Answers the next alert not yet covered by a scripted response by tapping `button`.
  ///
  /// - Parameters:
  ///   - button: A button's ``LoginFeature/AlertButton/id`` or, failing that, its title. An
  ///     alert without such a button fails the test here and is dismissed.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func tapOnNext(
    _ button: String,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    respondToNext(.tap(button), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Answers the next alert not yet covered by a scripted response with `response`.
  ///
  /// - Parameters:
  ///   - response: The answer.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func respondToNext(
    _ response: Response,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    scripted.append(Scripted(response: response, location: location))
  }

  /// Records `alert` and answers it: with the next scripted response, else ``defaultResponse``.
  ///
  /// - Parameter alert: The alert to show.
  /// - Returns: The tapped button, or `nil` when dismissed.
  public func present(_ alert: Alert) async -> AlertButton? {
    let index = history.count
    history.append(Presentation(alert: alert, outcome: .held))
    let next =
      scripted.isEmpty
      ? Scripted(response: defaultResponse, location: createdAt) : scripted.removeFirst()
    let button: AlertButton?
    if next.response == .hold {
      // A held alert whose task is cancelled is dismissed.
      button = await held.hold(alert) ?? nil
    } else {
      button = Self.button(answering: alert, with: next.response, at: next.location)
    }
    history[index].outcome = button.map { .tapped($0) } ?? .dismissed
    StoryRecorder.current?.performed(
      "alertPresenter.present(\(Dump.quoted(alert.title)): \(Dump.quoted(alert.message))) → "
        + (button.map { "tapped \(Dump.quoted($0.title))" } ?? "dismissed"))
    return button
  }

  /// Waits until an alert is held, and returns it: the oldest held alert, or the first that
  /// meets `condition`.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait before failing the test; a minute by default (it
  ///     only bounds how long a failing test waits: a passing one returns as soon as the call
  ///     is held, and on a machine busy with other tests a task took more than ten seconds to
  ///     make its call).
  ///   - condition: Which alert to wait for; any alert by default.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  /// - Returns: The held alert, or `nil` when the wait timed out (and the test failed).
  @discardableResult
  public func waitForHeldAlert(
    timeout: Duration = .seconds(60),
    where condition: @escaping @Sendable (Alert) -> Bool = { _ in true },
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async -> Alert? {
    let alert = await held.waitForCall(timeout: timeout) { condition($0) }
    if alert == nil {
      let heldNow = heldAlerts
      FailureReporter.current(
        "RecordingAlertPresenter.waitForHeldAlert() timed out after \(timeout): "
          + (heldNow.isEmpty
            ? "no alert is held.\n\nAlerts so far: \(history.count). Call respondToNext(.hold) "
              + "before the action that shows the alert, or pass a longer timeout."
            : "no held alert meets the condition.\n\nHeld: \(Self.list(heldNow)). Wait for "
              + "one of them, or pass a longer timeout."),
        at: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    return alert
  }

  /// Answers a held alert with `response`: the oldest, or the oldest that meets `condition`.
  ///
  /// Releasing when no held alert meets `condition` fails the test, naming the held alerts:
  ///
  /// <!-- sample: alert-release-unmatched -->
  /// ```text
  /// RecordingAlertPresenter.release(RecordingAlertPresenter.Response.dismiss) found no held alert that meets the condition.
  ///
  /// Held: "Offline". Release one of them.
  /// ```
  ///
  /// - Parameters:
  ///   - response: The answer; ``Response/hold`` counts as ``Response/dismiss``.
  ///   - condition: Which held alert to answer; the oldest by default.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func release(
    _ response: Response = .tapCancelButton,
    where condition: (Alert) -> Bool = { _ in true },
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let released = held.release(
      where: condition,
      with: { alert in
        Self.button(answering: alert, with: response == .hold ? .dismiss : response, at: location)
      })
    guard released == nil else { return }
    let heldNow = heldAlerts
    FailureReporter.current(
      heldNow.isEmpty
        ? "RecordingAlertPresenter.release(\(Dump.render(response))) found no held alert.\n\n"
          + "Call respondToNext(.hold) before the action that shows the alert, and await "
          + "waitForHeldAlert() before releasing it."
        : "RecordingAlertPresenter.release(\(Dump.render(response))) found no held alert that "
          + "meets the condition.\n\nHeld: \(Self.list(heldNow)). Release one of them.",
      at: location)
  }

  private static func list(_ alerts: [Alert]) -> String {
    alerts.map { Dump.quoted($0.title) }.joined(separator: ", ")
  }

  private static func button(
    answering alert: Alert,
    with response: Response,
    at location: FailureLocation
  ) -> AlertButton? {
    switch response {
    case .dismiss, .hold:
      return nil
    case .tapCancelButton:
      return alert.buttons.first { $0.role == .cancel } ?? alert.buttons.first
    case .tap(let name):
      if let button = alert.buttons.first(where: { $0.id == name })
        ?? alert.buttons.first(where: { $0.title == name })
      {
        return button
      }
      let buttons = alert.buttons.map { "\(Dump.quoted($0.title)) (id \(Dump.quoted($0.id)))" }
      FailureReporter.current(
        "RecordingAlertPresenter was told to tap \(Dump.quoted(name)), but the alert "
          + "\(Dump.quoted(alert.title)) has no button with that id or title.\n\n"
          + "Its buttons: \(buttons.isEmpty ? "none" : buttons.joined(separator: ", ")).\n"
          + "Tap one of them, or fix the alert. The alert was dismissed.",
        at: location)
      return nil
    }
  }
}
