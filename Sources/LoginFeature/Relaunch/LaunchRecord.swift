/// What a launch found in the stores: the saved session, the lockout, and what could not be
/// read.
///
/// The effect handler reads both stores and sends it back as ``LoginAction/restored(_:at:)``,
/// so a restore — unreadable data included — is visible in action logs and tests.
public struct LaunchRecord: Sendable, Equatable, Codable {
  /// The saved session, if one was read.
  public var session: Session?
  /// The saved lockout, if one was read.
  public var lockout: LockoutRecord?
  /// Why the saved session could not be read, if it could not. Never holds the data itself.
  public var sessionProblem: String?
  /// Why the saved lockout could not be read, if it could not.
  public var lockoutProblem: String?

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - session: The saved session.
  ///   - lockout: The saved lockout.
  ///   - sessionProblem: Why the session could not be read.
  ///   - lockoutProblem: Why the lockout could not be read.
  public init(
    session: Session? = nil,
    lockout: LockoutRecord? = nil,
    sessionProblem: String? = nil,
    lockoutProblem: String? = nil
  ) {
    self.session = session
    self.lockout = lockout
    self.sessionProblem = sessionProblem
    self.lockoutProblem = lockoutProblem
  }
}
