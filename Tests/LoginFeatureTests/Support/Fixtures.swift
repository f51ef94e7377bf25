import LoginFeature

/// The user, session and credentials most tests sign in with.
enum Fixtures {
  static let demo = User(id: "1", username: "demo", displayName: "Demo User")
  static let session = Session(user: demo, token: "demo-token-1")
  static let credentials = Credentials(username: "demo", password: "Secr3t")
}
