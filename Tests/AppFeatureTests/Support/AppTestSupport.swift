import AppFeature
import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

/// The values the app tests sign in with.
enum Sample {
  static let user = User(id: "1", username: "demo", displayName: "Demo User")
  static let session = Session(user: user, token: "demo-token-1")
  static let credentials = Credentials(username: "demo", password: "Secr3t")
  static let profile = Profile(displayName: "Demo User", unreadMessages: 3, plan: "Free")
  static let profileDelay = Duration.milliseconds(300)
}

/// A profile service that fails until told otherwise, then answers like `DemoProfileAPI`.
final class FlakyProfileAPI: ProfileAPI {
  private let failures = Guarded(0)

  init(failures: Int) {
    self.failures.withLock { $0 = failures }
  }

  struct Unavailable: Error {}

  func profile(of user: User) async throws -> Profile {
    let fails = failures.withLock { count in
      defer { count = max(0, count - 1) }
      return count > 0
    }
    if fails { throw Unavailable() }
    return Profile(displayName: user.displayName, unreadMessages: 3, plan: "Free")
  }
}

extension TestStore where R == AppReducer {
  /// An app test store on the login fakes, and a profile service on the fakes' clock.
  convenience init(
    app state: AppState,
    fakes: LoginFakes,
    profiles: (any ProfileAPI)? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    let dependencies = AppDependencies(
      login: fakes.dependencies,
      profiles: profiles ?? DemoProfileAPI(delay: Sample.profileDelay, clock: fakes.clock))
    self.init(
      initialState: state, reducer: AppReducer(),
      handler: AppEffectHandler(dependencies: dependencies), fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  /// Types the sample credentials and taps login, asserting every step.
  func typeAndTapLogin() async {
    await send(.login(.edit(.set(\.username, to: "demo"))), effects: []) {
      $0.login.username = "demo"
      $0.login.isUsernameEdited = true
    }
    await send(.login(.edit(.set(\.password, to: "Secr3t"))), effects: []) {
      $0.login.password = "Secr3t"
      $0.login.isPasswordEdited = true
    }
    await send(
      .login(.loginButtonTapped), effects: [.login(.authenticate(Sample.credentials, attempt: 1))]
    ) {
      $0.login.isLoading = true
      $0.login.wasSubmitTried = true
      $0.login.attemptID = 1
    }
  }

  /// From a tapped login to the home screen loading its profile.
  func receiveSuccessfulSignIn() async {
    await receive(
      .login(.loginResponse(attempt: 1, .success(Sample.session))),
      effects: [
        .login(.saveSession(Sample.session)), .login(.route(.push(.home(Sample.user)))),
        .home(.loadProfile(Sample.user)),
      ]
    ) {
      $0.login.isLoading = false
      $0.login.user = Sample.user
      $0.home = HomeState(user: Sample.user, isLoadingProfile: true)
    }
  }
}
