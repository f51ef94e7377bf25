import ActionLog
import StateStore

/// A mini form whose password is a `Secret`, validated by length and character classes.
struct SignUpForm: Reducer {
  struct State: Codable, Equatable, Sendable {
    var username = ""
    var password: Secret = ""
    var errors: [String] = []
    var isSubmitting = false
    var greeting: String?
  }

  enum Action: Codable, Equatable, Sendable {
    case usernameChanged(String)
    case passwordChanged(Secret)
    case submitTapped
    case submitResponse(accepted: Bool)
  }

  enum Effect: Codable, Equatable, StoreEffect {
    case submit(username: String, password: Secret)
  }

  func reduce(into state: inout State, action: Action) -> [Effect] {
    switch action {
    case .usernameChanged(let name):
      state.username = name
    case .passwordChanged(let password):
      state.password = password
    case .submitTapped:
      state.errors = Self.validate(state.password)
      guard state.errors.isEmpty else { return [] }
      state.isSubmitting = true
      return [.submit(username: state.username, password: state.password)]
    case .submitResponse(let accepted):
      state.isSubmitting = false
      state.greeting = accepted ? "Welcome, \(state.username)" : nil
    }
    return []
  }

  static func validate(_ password: Secret) -> [String] {
    let clear = password.reveal()
    var errors: [String] = []
    if clear.count < 3 { errors.append("too short") }
    if !clear.contains(where: \.isUppercase) || !clear.contains(where: \.isNumber) {
      errors.append("needs an uppercase letter and a digit")
    }
    return errors
  }
}

struct SignUpHandler: EffectHandler {
  func handle(_ effect: SignUpForm.Effect, send: Send<SignUpForm.Action>) async {
    switch effect {
    case .submit(_, let password):
      await send(.submitResponse(accepted: password.reveal().count >= 6))
    }
  }
}

extension SignUpForm.State: Redactable {
  func redacted(_ level: RedactionLevel) -> Self {
    guard level.contains(.usernames) else { return self }
    var copy = self
    copy.username = Secret.mask(of: username)
    copy.greeting = greeting.map { _ in "Welcome, " + Secret.mask(of: username) }
    return copy
  }
}

extension SignUpForm.Action: Redactable {
  func redacted(_ level: RedactionLevel) -> Self {
    guard level.contains(.usernames), case .usernameChanged(let name) = self else { return self }
    return .usernameChanged(Secret.mask(of: name))
  }
}

extension SignUpForm.Effect: Redactable {
  func redacted(_ level: RedactionLevel) -> Self {
    guard level.contains(.usernames), case .submit(let name, let password) = self else {
      return self
    }
    return .submit(username: Secret.mask(of: name), password: password)
  }
}
