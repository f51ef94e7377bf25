import StateStore
import StateStoreTesting
import Testing

@MainActor
struct StoryTests {
  @Test func aStoryTellsEveryStepAndWhatFakesPerformed() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: SearchState(), reducer: Search(), handler: SearchHandler(clock: clock))
    await store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.resultsLoaded(["A"])) {
      $0.results = ["A"]
      $0.isSearching = false
    }
    store.story.note("the user cancels")
    await store.send(.cancelTapped, effects: [.cancelSearch])
    await store.finish()
    #expect(
      store.storyText() == """
        initial state: SearchState(
          query: "",
          results: [],
          isSearching: false,
          token: Secret(Aaa0a)
        )

        #1 user SearchAction.queryChanged("a")
            SearchState(
          −   query: "",
          +   query: "a",
              results: [],
          −   isSearching: false,
          +   isSearching: true,
              token: Secret(Aaa0a)
            )
          effect: SearchEffect.search("a")
        performed: api.search("a")

        #2 effect SearchAction.resultsLoaded(
          [
            [0]: "A"
          ]
        )
            SearchState(
              query: "a",
          −   results: [],
          −   isSearching: true,
          +   results: [
          +     [0]: "A"
          +   ],
          +   isSearching: false,
              token: Secret(Aaa0a)
            )
        note: the user cancels

        #3 user SearchAction.cancelTapped
          (no state change)
          effect: SearchEffect.cancelSearch
        """)
  }

  @Test func oneLineSnapshotsAWholeFlow() async {
    let store = TestStore(initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
    await store.send(.loadTapped)
    await store.receive(.progressed(1)) { $0.progress = [1] }
    await store.receive(.progressed(2)) { $0.progress = [1, 2] }
    await store.receive(.finished) { $0.isDone = true }
    await store.finish()
    store.assertStory()
  }

  @Test func fakesSeeNoRecorderOutsideAStore() {
    #expect(StoryRecorder.current == nil)
    let recorder = StoryRecorder()
    recorder.performed("navigate(to: home)")
    #expect(recorder.performedLines == ["navigate(to: home)"])
  }
}
