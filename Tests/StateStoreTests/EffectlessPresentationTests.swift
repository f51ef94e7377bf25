import StateStore
import Testing

/// A parent without effects presents a child without effects that ends itself: no effect enum,
/// no dismissal case, no generic parameter spelled out.
struct Quiz: Reducer {
  struct Question: Equatable, Sendable, PresentedState {
    var answer = ""
    var outcome: String?
  }

  enum QuestionAction: Equatable, Sendable {
    case typed(String)
    case submitted
  }

  struct QuestionReducer: Reducer {
    func reduce(into state: inout Question, action: QuestionAction) -> [Never] {
      switch action {
      case .typed(let text): state.answer = text
      case .submitted: state.outcome = state.answer
      }
      return []
    }
  }

  struct State: Equatable, Sendable {
    var question: Question?
    var answers: [String] = []
  }

  enum Action: Equatable, Sendable {
    case ask
    case question(QuestionAction)
  }

  static let question = ChildFeature(
    "question", of: Core.self, state: \.question,
    action: CaseKey(embed: Action.question) { if case .question(let a) = $0 { a } else { nil } })

  struct Core: Reducer {
    func reduce(into state: inout State, action: Action) -> [Never] {
      if action == .ask { state.question = Question() }
      return []
    }
  }

  let body = Core().ifLet(
    Quiz.question,
    onEnd: { state, answer in
      state.answers.append(answer)
      return []
    },
    child: { QuestionReducer() })

  func reduce(into state: inout State, action: Action) -> [Never] {
    body.reduce(into: &state, action: action)
  }
}

struct EffectlessPresentationTests {
  @Test func aChildThatEndsItselfIsRemovedAndItsOutcomeReachesTheParent() {
    var state = Quiz.State()
    for action: Quiz.Action in [.ask, .question(.typed("42")), .question(.submitted)] {
      #expect(Quiz().reduce(into: &state, action: action).isEmpty)
    }
    #expect(state == Quiz.State(question: nil, answers: ["42"]))
  }
}
