import LoginFeature
import StateStore

/// What the home screen needs the outside world to do, as data.
public enum HomeEffect: StoreEffect, Equatable, Codable {
  /// Loads the profile of `user`; the answer comes back as ``HomeAction/profileLoaded(_:)`` or
  /// ``HomeAction/profileFailed(_:)``.
  case loadProfile(User)

  /// The cancellation group of the profile request.
  public static let profileRequestID: CancellationID = "home.profile"

  /// A new ``loadProfile(_:)`` replaces one still in flight.
  public var cancellation: EffectCancellation {
    switch self {
    case .loadProfile: .group(Self.profileRequestID, cancelInFlight: true)
    }
  }
}
