import Foundation
import StateStore

/// What happened on the login screen: a user event, or the answer to an effect.
///
/// Actions are named after events, not commands; ``LoginReducer`` decides what each means.
///
/// ```swift
/// store.send(.edit(.set(\.username, to: "demo")))
/// store.send(.edit(.set(\.password, to: "Secr3t")))
/// store.send(.loginButtonTapped)
/// ```
///
/// The cases that carry a whole answer are `indirect`: every scope copies the action on its
/// way, and an enum is as large as its largest case (160 bytes with them inline, 26 without).
public enum LoginAction: Sendable, Equatable, Codable {
  /// The user edited a field of the form: the username (or email) or the password
  /// (`.edit(.set(\.username, to: "ada"))`; the fields are ``LoginState/fields``).
  case edit(FieldEdit<LoginState>)
  /// The user tapped the login button.
  case loginButtonTapped
  /// The user cancelled the request in flight.
  case cancelButtonTapped
  /// The login service answered the attempt with id `attempt`.
  indirect case loginResponse(attempt: Int, LoginResult)
  /// The user tapped the alert button with this ``AlertButton/id``; `nil` when the alert was
  /// dismissed without a button.
  case alertButtonTapped(String?)
  /// The lockout timer ran out: the form unlocks.
  case lockoutEnded
  /// The user logged out from the home screen.
  case logoutButtonTapped
  /// An action of the one-time-code step.
  indirect case twoFactor(TwoFactorAction)
  /// The app launched: restore the saved session and lockout. Send it once, first.
  case launched
  /// The stores were read at launch, at wall-clock time `now`: what they held, and what could
  /// not be read.
  indirect case restored(LaunchRecord, at: Date)
  /// A save or clear of the session or the lockout did not happen; the reducer tells the
  /// person what that means.
  indirect case storageFailed(StorageFailure)
  /// The user tapped "Forgot password?": the password-reset step shows.
  case forgotPasswordTapped
  /// An action of the password-reset step.
  case passwordReset(PasswordResetAction)

}

// The field actions of 0.2.0, kept for one minor version so a host's calls still build.
extension LoginAction {
  /// The username field changed: ``edit(_:)`` with a ``StateStore/FieldEdit`` of the
  /// username.
  ///
  /// - Parameter username: The field's new text.
  /// - Returns: `.edit(.set(\.username, to: PersonalData(username)))`.
  @available(
    *, deprecated,
    message: "send .edit(.set(\\.username, to: PersonalData(username))); removed in 0.4.0"
  )
  public static func usernameChanged(_ username: String) -> LoginAction {
    .edit(.set(\.username, to: PersonalData(username)))
  }

  /// The password field changed: ``edit(_:)`` with a ``StateStore/FieldEdit`` of the
  /// password.
  ///
  /// - Parameter password: The field's new text.
  /// - Returns: `.edit(.set(\.password, to: password))`.
  @available(
    *, deprecated, message: "send .edit(.set(\\.password, to: password)); removed in 0.4.0"
  )
  public static func passwordChanged(_ password: Secret) -> LoginAction {
    .edit(.set(\.password, to: password))
  }
}
