import LoginFeature
import LoginFeatureTesting
import StateStoreTesting
import Testing

@MainActor struct RecordingRouterTests {
  @Test func recordsEveryCommandInOrderAndTellsTheStory() {
    let router = RecordingRouter()
    let story = StoryRecorder()
    StoryRecorder.$current.withValue(story) {
      router.perform(.push(.home(Fixtures.demo)))
      router.perform(.popToRoot)
    }
    router.perform(.present(.login))
    #expect(router.commands == [.push(.home(Fixtures.demo)), .popToRoot, .present(.login)])
    #expect(
      story.performedLines == [
        #"router.perform(RouteCommand.push(Route.home(User(id: "1", username: "demo", "#
          + #"displayName: "Demo User", email: nil))))"#,
        "router.perform(RouteCommand.popToRoot)",
      ])
  }

  @Test func theFakesBuildTheLoginDependencies() async throws {
    let fakes = LoginFakes(results: [.success(Fixtures.session)])
    let dependencies = fakes.dependencies
    #expect(try await dependencies.api.login(Fixtures.credentials) == .session(Fixtures.session))
    dependencies.router.perform(.pop)
    #expect(fakes.router.commands == [.pop])
    #expect(fakes.api.requests == [Fixtures.credentials])
  }
}
