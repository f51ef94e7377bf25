import ActionLog
import StateStore

/// A mini form whose password is a `Secret`, validated by length and character classes.
struct SignUpForm: Reducer {
  struct State: Codable, Equatable, Sendable, EditableFields {
    var username: PersonalData = ""
    var password: Secret = ""
    var errors: [String] = []
    var isSubmitting = false
    /// The name the welcome greets: personal data is copied, never built into new text (a
    /// masked log holds the mask of the whole text, which a replay cannot build again).
    var greeting: PersonalData?

    static let fields: [EditableField<State>] = [
      EditableField("username", \.username), EditableField("password", \.password),
    ]
  }

  enum Action: Codable, Equatable, Sendable {
    case edit(FieldEdit<State>)
    case submitTapped
    case submitResponse(accepted: Bool)
  }

  enum Effect: Codable, Equatable, StoreEffect {
    case submit(username: PersonalData, password: Secret)
  }

  func reduce(into state: inout State, action: Action) -> [Effect] {
    switch action {
    case .edit(let edit):
      edit.apply(to: &state)
    case .submitTapped:
      state.errors = Self.validate(state.password)
      guard state.errors.isEmpty else { return [] }
      state.isSubmitting = true
      return [.submit(username: state.username, password: state.password)]
    case .submitResponse(let accepted):
      state.isSubmitting = false
      state.greeting = accepted ? state.username : nil
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
