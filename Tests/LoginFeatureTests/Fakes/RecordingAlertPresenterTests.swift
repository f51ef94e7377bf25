import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

@MainActor struct RecordingAlertPresenterTests {
  private let retry = AlertButton(id: "retry", title: "Try Again")
  private let close = AlertButton(id: "close", title: "Close", role: .cancel)
  private var question: Alert {
    Alert(title: "Offline", message: "No connection", buttons: [retry, close])
  }

  @Test func tapsTheCancelButtonOrElseTheFirstByDefault() async {
    let presenter = RecordingAlertPresenter()
    let plain = Alert(title: "Note", message: "Hi", buttons: [retry])
    #expect(await presenter.present(question) == close)
    #expect(await presenter.present(plain) == retry)
    #expect(
      presenter.history == [
        .init(alert: question, outcome: .tapped(close)),
        .init(alert: plain, outcome: .tapped(retry)),
      ])
    #expect(presenter.alerts == [question, plain])
  }

  @Test func scriptedTapsNameAButtonByIdOrTitleInOrder() async {
    let presenter = RecordingAlertPresenter()
    presenter.tapOnNext("retry")
    presenter.tapOnNext("Close")
    presenter.respondToNext(.dismiss)
    #expect(await presenter.present(question) == retry)
    #expect(await presenter.present(question) == close)
    #expect(await presenter.present(question) == nil)
    #expect(await presenter.present(question) == close)
    #expect(
      presenter.history.map(\.outcome) == [
        .tapped(retry), .tapped(close), .dismissed, .tapped(close),
      ])
  }

  @Test func tappingAButtonTheAlertDoesNotHaveFailsAndDismisses() async {
    let failures = FailureReporter.Recorder()
    let presenter = RecordingAlertPresenter()
    presenter.tapOnNext("Delete")
    let line = #line - 1
    let button = await FailureReporter.$current.withValue(failures.reporter) {
      await presenter.present(question)
    }
    #expect(button == nil)
    #expect(
      failures.messages == [
        """
        RecordingAlertPresenter was told to tap "Delete", but the alert "Offline" has no button \
        with that id or title.

        Its buttons: "Try Again" (id "retry"), "Close" (id "close").
        Tap one of them, or fix the alert. The alert was dismissed.
        """
      ])
    #expect(failures.failures.map(\.location.line) == [line])
  }

  @Test func aHeldAlertWaitsForItsRelease() async {
    let presenter = RecordingAlertPresenter()
    presenter.respondToNext(.hold)
    let shown = Task { await presenter.present(question) }
    #expect(await presenter.waitForHeldAlert() == question)
    #expect(presenter.heldAlerts == [question])
    #expect(presenter.history.map(\.outcome) == [.held])
    presenter.release(.tap("retry"))
    #expect(await shown.value == retry)
    #expect(presenter.heldAlerts == [])
    #expect(presenter.history.map(\.outcome) == [.tapped(retry)])
  }

  @Test func heldAlertsAreAnsweredInAnyOrder() async {
    let presenter = RecordingAlertPresenter(defaultResponse: .hold)
    let note = Alert(title: "Note", message: "Saved")
    let first = Task { await presenter.present(question) }
    #expect(await presenter.waitForHeldAlert() == question)
    let second = Task { await presenter.present(note) }
    #expect(await presenter.waitForHeldAlert(where: { $0.title == "Note" }) == note)
    #expect(presenter.heldAlerts == [question, note])

    presenter.release(where: { $0.title == "Note" })
    #expect(await second.value == .ok)
    #expect(presenter.heldAlerts == [question])
    presenter.release(.tap("retry"))
    #expect(await first.value == retry)
    #expect(presenter.history.map(\.outcome) == [.tapped(retry), .tapped(.ok)])
  }

  @Test func releasingWhenNoHeldAlertMeetsTheConditionFailsAndNamesTheHeldAlerts() async {
    let failures = FailureReporter.Recorder()
    let presenter = RecordingAlertPresenter(defaultResponse: .hold)
    let shown = Task { await presenter.present(question) }
    await presenter.waitForHeldAlert()
    FailureReporter.$current.withValue(failures.reporter) {
      presenter.release(.dismiss, where: { $0.title == "Couldn't sign in" })
    }
    #expect(
      failures.messages == [
        """
        RecordingAlertPresenter.release(RecordingAlertPresenter.Response.dismiss) found no held \
        alert that meets the condition.

        Held: "Offline". Release one of them.
        """
      ])
    presenter.release(.dismiss)
    #expect(await shown.value == nil)
  }

  @Test func cancellingAHeldAlertDismissesIt() async {
    let presenter = RecordingAlertPresenter(defaultResponse: .hold)
    let shown = Task { await presenter.present(question) }
    await presenter.waitForHeldAlert()
    shown.cancel()
    #expect(await shown.value == nil)
    #expect(presenter.history.map(\.outcome) == [.dismissed])
  }

  @Test func releasingWithoutAHeldAlertFails() {
    let failures = FailureReporter.Recorder()
    let presenter = RecordingAlertPresenter()
    FailureReporter.$current.withValue(failures.reporter) { presenter.release() }
    #expect(
      failures.messages == [
        """
        RecordingAlertPresenter.release(RecordingAlertPresenter.Response.tapCancelButton) found \
        no held alert.

        Call respondToNext(.hold) before the action that shows the alert, and await \
        waitForHeldAlert() before releasing it.
        """
      ])
  }

  @Test func everyAnswerIsToldInTheStory() async {
    let presenter = RecordingAlertPresenter()
    presenter.respondToNext(.dismiss)
    let story = StoryRecorder()
    await StoryRecorder.$current.withValue(story) {
      _ = await presenter.present(Alert(title: "Validation Errors", message: "a\nb"))
      _ = await presenter.present(
        Alert(title: "Couldn't sign in", message: "Incorrect username or password"))
    }
    #expect(
      story.performedLines == [
        #"alertPresenter.present("Validation Errors": "a\nb") → dismissed"#,
        #"alertPresenter.present("Couldn't sign in": "Incorrect username or password") → tapped "OK""#,
      ])
  }
}
