import StateStore

/// Carries out every ``TwoFactorEffect`` with the login flow's dependencies.
///
/// - `verifyCode`: `api.verifyCode(_:for:)`, then ``TwoFactorAction/verifyResponse(request:_:)``
///   — nothing when the store cancelled the request.
/// - `resendCode`: `api.resendCode(for:)`, then ``TwoFactorAction/resendResponse(request:_:)``.
/// - `startResendTimer`: sleeps one second on the clock and sends
///   ``TwoFactorAction/resendTimerTicked``, as many times as asked; cancelled with the step.
/// - `showAlert`: `alertPresenter.present(_:)`, then ``TwoFactorAction/alertButtonTapped(_:)``.
///
/// ``LoginEffectHandler`` hands the step's effects here; a host rarely uses it directly.
public struct TwoFactorEffectHandler: EffectHandler {
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
  public func handle(_ effect: TwoFactorEffect, send: Send<TwoFactorAction>) async {
    switch effect {
    case .verifyCode(let code, let challenge, let request):
      let result: VerifyCodeResult
      do {
        result = .success(try await dependencies.api.verifyCode(code, for: challenge))
      } catch {
        result = .failure(error)
      }
      guard !Task.isCancelled else { return }
      await send(.verifyResponse(request: request, result))

    case .resendCode(let challenge, let request):
      let result: ResendCodeResult
      do {
        result = .success(try await dependencies.api.resendCode(for: challenge))
      } catch {
        result = .failure(error)
      }
      guard !Task.isCancelled else { return }
      await send(.resendResponse(request: request, result))

    case .startResendTimer(let seconds):
      await dependencies.clock.countDown(seconds: seconds) { await send(.resendTimerTicked) }

    case .showAlert(let alert):
      let button = await dependencies.alertPresenter.present(alert)
      await send(.alertButtonTapped(button?.id), origin: .user)
    }
  }
}
