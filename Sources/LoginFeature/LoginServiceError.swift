/// Why a login request failed.
///
/// Every case has a user-facing ``message`` that never contains a secret. Only
/// ``invalidCredentials`` counts as a failed attempt towards the lockout; the others are the
/// network's or the server's fault.
public enum LoginServiceError: Error, Sendable, Equatable, Codable {
  /// The server rejected the username and password.
  case invalidCredentials
  /// The server answered without a body.
  case nilData
  /// The server answered with an unexpected HTTP status code.
  case wrongStatusCode(Int)
  /// The server answered with a redirect (a `3xx` status), which a login never follows: the
  /// credentials were sent to the configured address only.
  case redirected(status: Int)
  /// The server's answer could not be decoded.
  case decodingFailed
  /// The server did not answer in time.
  case timeout
  /// The request could not be sent or its answer not received. The text describes the
  /// transport failure and must not contain secrets.
  case transport(String)
  /// The request was cancelled. Effect handlers send nothing for it.
  case cancelled
  /// The one-time code was wrong (second factor).
  case incorrectCode
  /// The one-time code expired; a new one must be sent (second factor).
  case codeExpired
  /// A new code was asked for too soon; the service says how many seconds to wait.
  case resendTooSoon(retryAfterSeconds: Int)

  /// The text shown in the alert of a failed request, under a title that says what failed
  /// ("Couldn't sign in"). Words for a person: no HTTP status code, which stays in the error
  /// itself and so in the action log.
  ///
  /// - `invalidCredentials`: "Incorrect username or password"
  /// - `nilData`: "The server sent an empty answer. Please try again."
  /// - `wrongStatusCode(503)`: "The server could not handle the request. Please try again
  ///   later."
  /// - `redirected(status: 307)`: "The server sent the request to another address, and it was
  ///   not sent there. Please check the server address."
  /// - `decodingFailed`: "The server's answer could not be read. Please try again later."
  /// - `timeout`: "The server took too long to answer. Please try again."
  /// - `transport("offline")`: "Could not reach the server (offline). Please check your
  ///   connection."
  /// - `cancelled`: "The login was cancelled."
  /// - `incorrectCode`: "Incorrect code"
  /// - `codeExpired`: "The code has expired"
  /// - `resendTooSoon(retryAfterSeconds: 12)`: "A new code can be sent in 12 seconds."
  public var message: String {
    switch self {
    case .invalidCredentials:
      "Incorrect username or password"
    case .nilData:
      "The server sent an empty answer. Please try again."
    case .wrongStatusCode:
      "The server could not handle the request. Please try again later."
    case .redirected:
      "The server sent the request to another address, and it was not sent there. "
        + "Please check the server address."
    case .decodingFailed:
      "The server's answer could not be read. Please try again later."
    case .timeout:
      "The server took too long to answer. Please try again."
    case .transport(let detail):
      "Could not reach the server (\(detail)). Please check your connection."
    case .cancelled:
      "The login was cancelled."
    case .incorrectCode:
      "Incorrect code"
    case .codeExpired:
      "The code has expired"
    case .resendTooSoon(let seconds):
      seconds == 1
        ? "A new code can be sent in 1 second."
        : "A new code can be sent in \(seconds) seconds."
    }
  }
}
