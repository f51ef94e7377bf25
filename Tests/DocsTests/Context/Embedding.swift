import AppFeature
import LoginFeature

// What the "Embedding" article leaves to the reader, so that its hosts compile: the reader's
// own Keychain session store ("Sessions and relaunch" has one) and profile service.

struct KeychainSessionStore: SessionStore {
  func save(_ session: Session) async throws {}
  func load() async throws -> Session? { nil }
  func clear() async throws {}
}

struct MyProfileAPI: ProfileAPI {
  func profile(of user: User) async throws -> Profile {
    Profile(displayName: user.displayName, unreadMessages: 0, plan: "free")
  }
}
