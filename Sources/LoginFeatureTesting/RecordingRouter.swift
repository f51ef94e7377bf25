import LoginFeature
import StateStoreTesting

/// A ``LoginFeature/Router`` that only records the commands it is given.
///
/// Assert the exact navigation of a scenario with ``commands``:
///
/// ```swift
/// let router = RecordingRouter()
/// // … sign in …
/// #expect(router.commands == [.push(.home(user))])
/// ```
///
/// Every command also adds a line to the running test store's story
/// (``StateStoreTesting/StoryRecorder``), folded onto one line:
///
/// <!-- sample: lines of Tests/LoginFeatureTests/__Snapshots__/LoginStoryTests/twoFailuresOneSuccessAndALogout.txt -->
/// ```text
/// performed: router.perform(RouteCommand.push(Route.home(User(id: "1", username: "demo", …))))
/// ```
@MainActor
public final class RecordingRouter: Router {
  /// Every command performed so far, in order.
  public private(set) var commands: [RouteCommand] = []

  /// Creates a router with an empty history.
  public init() {}

  /// Records `command`.
  ///
  /// - Parameter command: The navigation step.
  public func perform(_ command: RouteCommand) {
    commands.append(command)
    StoryRecorder.current?.performed("router.perform(\(StoryLine.render(command)))")
  }
}
