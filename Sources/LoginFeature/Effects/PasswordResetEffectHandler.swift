import StateStore

/// Carries out every ``PasswordResetEffect`` with the login flow's dependencies.
///
/// - `requestReset`: `api.requestPasswordReset(email:)`, then
///   ``PasswordResetAction/sendResponse(request:_:)`` — nothing when the store cancelled the
///   request (Back, or the step went away).
/// - `startResendTimer`: sleeps one second on the clock and sends
///   ``PasswordResetAction/resendTimerTicked``, as many times as asked; cancelled with the
///   step.
/// - `showAlert`: `alertPresenter.present(_:)`, then
///   ``PasswordResetAction/alertButtonTapped(_:)``.
/// - `cancelResendTimer`: nothing; the store has cancelled the countdown.
///
/// ``LoginEffectHandler`` hands the step's effects here; a host rarely uses it directly.
public struct PasswordResetEffectHandler: EffectHandler {
  /// The dependencies effects are carried out with.
  public var dependencies: LoginDependencies

  /// Creates a handler.
  ///
  /// - Parameter dependencies: The login flow's dependencies.
  public init(dependencies: LoginDependencies) {
    self.dependencies = dependencies
  }

  /// Carries out `effect`; see the list above.
  ///
  /// - Parameters:
  ///   - effect: The effect the reducer returned.
  ///   - send: Delivers the answer back to the store.
  public func handle(_ effect: PasswordResetEffect, send: Send<PasswordResetAction>) async {
    switch effect {
    case .requestReset(let email, let request):
      let result: PasswordResetResult
      do {
        result = .success(try await dependencies.api.requestPasswordReset(email: email.value))
      } catch {
        result = .failure(error)
      }
      guard !Task.isCancelled else { return }
      await send(.sendResponse(request: request, result))

    case .startResendTimer(let seconds):
      await dependencies.clock.countDown(seconds: seconds) { await send(.resendTimerTicked) }

    case .showAlert(let alert):
      let button = await dependencies.alertPresenter.present(alert)
      await send(.alertButtonTapped(button?.id), origin: .user)

    case .cancelResendTimer:
      break  // The store cancelled the countdown before handing the effect over.
    }
  }
}
