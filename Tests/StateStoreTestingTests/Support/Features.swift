import StateStore
import StateStoreTesting

// MARK: - Counter: no effects

struct CounterState: Equatable, Sendable {
  var count = 0
  var isEven = true
}

enum CounterAction: Equatable, Sendable {
  case increment
  case noop
  case setCount(Int)
}

struct Counter: Reducer {
  func reduce(into state: inout CounterState, action: CounterAction) -> [Never] {
    switch action {
    case .increment:
      state.count += 1
      state.isEven = state.count.isMultiple(of: 2)
    case .noop:
      break
    case .setCount(let count):
      state.count = count
      state.isEven = count.isMultiple(of: 2)
    }
    return []
  }
}

// MARK: - Search: a debounced, cancellable request; a secret in the state

struct SearchState: Equatable, Sendable {
  var query = ""
  var results: [String] = []
  var isSearching = false
  var token: Secret = "Tok3n"
}

enum SearchAction: Equatable, Sendable {
  case queryChanged(String)
  case resultsLoaded([String])
  case cancelTapped
}

enum SearchEffect: StoreEffect, Equatable {
  case search(String)
  case cancelSearch

  var cancellation: EffectCancellation {
    switch self {
    case .search: .group("search", cancelInFlight: true)
    case .cancelSearch: .cancels("search")
    }
  }
}

struct Search: Reducer {
  func reduce(into state: inout SearchState, action: SearchAction) -> [SearchEffect] {
    switch action {
    case .queryChanged(let query):
      state.query = query
      state.isSearching = true
      return [.search(query)]
    case .resultsLoaded(let results):
      state.results = results
      state.isSearching = false
      return []
    case .cancelTapped:
      state.isSearching = false
      return [.cancelSearch]
    }
  }
}

/// Runs `Search`'s effects: waits 300 ms on `clock` (a debounce), then asks the fake API.
struct SearchHandler: EffectHandler {
  let clock: TestClock
  var results: @Sendable (String) -> [String] = { [$0.uppercased()] }

  func handle(_ effect: SearchEffect, send: Send<SearchAction>) async {
    switch effect {
    case .search(let query):
      do { try await clock.sleep(for: .milliseconds(300)) } catch { return }
      StoryRecorder.current?.performed("api.search(\(Dump.render(query)))")
      await send(.resultsLoaded(results(query)))
    case .cancelSearch:
      break
    }
  }
}

/// Effects that never end until cancelled: they sleep on a clock nobody advances.
struct StuckHandler: EffectHandler {
  let clock: TestClock

  func handle(_ effect: SearchEffect, send: Send<SearchAction>) async {
    try? await clock.sleep(for: .seconds(3600))
  }
}

/// Effects that do nothing and send nothing.
struct SilentHandler: EffectHandler {
  func handle(_ effect: SearchEffect, send: Send<SearchAction>) async {}
}

// MARK: - Loader: one effect sends several actions

struct LoaderState: Equatable, Sendable {
  var progress: [Int] = []
  var isDone = false
}

enum LoaderAction: Equatable, Sendable {
  case loadTapped
  case progressed(Int)
  case finished
}

enum LoaderEffect: StoreEffect, Equatable {
  case load(steps: Int)
}

struct Loader: Reducer {
  func reduce(into state: inout LoaderState, action: LoaderAction) -> [LoaderEffect] {
    switch action {
    case .loadTapped:
      return [.load(steps: 2)]
    case .progressed(let step):
      state.progress.append(step)
      return []
    case .finished:
      state.isDone = true
      return []
    }
  }
}

struct LoaderHandler: EffectHandler {
  func handle(_ effect: LoaderEffect, send: Send<LoaderAction>) async {
    switch effect {
    case .load(let steps):
      for step in 1...steps { await send(.progressed(step)) }
      await send(.finished)
    }
  }
}
