import Foundation
import StateStore

/// Carries out every ``LoginEffect`` with the injected ``LoginDependencies`` and sends the
/// answers back.
///
/// - `authenticate`: `api.login(_:)`, then `loginResponse(attempt:_:)` — nothing when the
///   store cancelled the request. A ``LoginServiceError/cancelled`` that the store did not cause
///   (the API gave up on its own) is sent, so the reducer turns the spinner off.
/// - `cancelAuthentication`: nothing; the store has already cancelled the request.
/// - `route`: `router.perform(_:)`.
/// - `showAlert`: `alertPresenter.present(_:)`, then `alertButtonTapped(_:)`.
/// - `startLockoutTimer`: `clock.sleep(for:)`, then `lockoutEnded` — nothing when cancelled.
/// - `saveSession`, `clearSession`: `sessionStore.save(_:)`, `sessionStore.clear()`.
/// - `twoFactor(e)`: ``TwoFactorEffectHandler``, with the one-time-code step's actions sent back
///   as `twoFactor(…)`.
/// - `childDismissed`: nothing; the store has already cancelled the step's effects.
/// - `restoreLaunch`: reads `sessionStore` and `lockoutStore` (a failure becomes a problem in
///   the record, never a crash) and sends ``LoginAction/restored(_:at:)`` with `now()`.
/// - `updateLockout(change)`: `lockoutStore.update(_:)` with the change applied at `now()`, and
///   the record this handler last read or kept as the one its process saw (a reset forgets
///   only that record, or one whose lockout has ended; see ``LockoutChange/reset``).
///
/// A failed effect is an action: a save, clear or update the store throws on is answered with
/// ``LoginAction/storageFailed(_:)`` (the reason in words safe to log, see
/// ``StorageFailure/describe(_:)``), and the reducer decides what the person sees.
///
/// ```swift
/// let store = Store(
///   initialState: LoginState(),
///   reducer: LoginReducer(),
///   handler: LoginEffectHandler(dependencies: dependencies)
/// )
/// ```
public struct LoginEffectHandler: EffectHandler {
  /// The dependencies effects are carried out with.
  public var dependencies: LoginDependencies

  /// The lockout record this handler last read or kept: what its process saw.
  private let lockoutSeen = LockoutSeen()

  /// Creates a handler.
  ///
  /// - Parameter dependencies: The dependencies effects are carried out with.
  public init(dependencies: LoginDependencies) {
    self.dependencies = dependencies
  }

  /// Carries out `effect`; see the table above.
  ///
  /// - Parameters:
  ///   - effect: The effect the reducer returned.
  ///   - send: Delivers the answer back to the store.
  public func handle(_ effect: LoginEffect, send: Send<LoginAction>) async {
    switch effect {
    case .authenticate(let credentials, let attempt):
      let result: LoginResult
      do {
        switch try await dependencies.api.login(credentials) {
        case .session(let session): result = .success(session)
        case .challenge(let challenge): result = .challenge(challenge)
        }
      } catch {
        result = .failure(error)
      }
      // The store cancelled this request (cancel, or a newer attempt): nobody waits for it.
      guard !Task.isCancelled else { return }
      await send(.loginResponse(attempt: attempt, result))

    case .cancelAuthentication:
      break

    case .route(let command):
      await dependencies.router.perform(command)

    case .showAlert(let alert):
      let button = await dependencies.alertPresenter.present(alert)
      // The tap is the person's: logs and the timeline show it as a user action.
      await send(.alertButtonTapped(button?.id), origin: .user)

    case .startLockoutTimer(let duration):
      do {
        try await dependencies.clock.sleep(for: duration)
      } catch {
        return
      }
      await send(.lockoutEnded)

    case .saveSession(let session):
      do {
        try await dependencies.sessionStore.save(session)
      } catch {
        await send(.storageFailed(StorageFailure(.saveSession, error: error)))
      }

    case .clearSession:
      do {
        try await dependencies.sessionStore.clear()
      } catch {
        await send(.storageFailed(StorageFailure(.clearSession, error: error)))
      }

    // The children's handlers, lifted into this feature through the children's declarations:
    // the declaration says which case carries each child's effects and actions.
    case .twoFactor:
      await TwoFactorEffectHandler(dependencies: dependencies)
        .lifted(into: LoginReducer.twoFactor)
        .handle(effect, send: send)

    case .passwordReset:
      await PasswordResetEffectHandler(dependencies: dependencies)
        .lifted(into: LoginReducer.passwordReset)
        .handle(effect, send: send)

    case .childDismissed:
      break

    case .restoreLaunch:
      var record = LaunchRecord()
      do {
        record.session = try await dependencies.sessionStore.load()
      } catch {
        record.sessionProblem = StorageFailure.describe(error)
      }
      do {
        record.lockout = try await dependencies.lockoutStore.load()
        lockoutSeen.record = record.lockout
      } catch {
        record.lockoutProblem = StorageFailure.describe(error)
      }
      await send(.restored(record, at: dependencies.now()))

    case .updateLockout(let change):
      let now = dependencies.now()
      do {
        let seen = lockoutSeen.record
        lockoutSeen.record = try await dependencies.lockoutStore.update {
          change.applied(to: $0, at: now, seen: seen)
        }
      } catch {
        await send(.storageFailed(StorageFailure(.updateLockout, error: error)))
      }
    }
  }
}

/// The lockout record a handler last read or kept, shared by its copies.
private final class LockoutSeen: Sendable {
  private let storage = Guarded<LockoutRecord?>(nil)

  var record: LockoutRecord? {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }
}
