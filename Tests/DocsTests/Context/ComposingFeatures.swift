import StateStore

// What the "Composing features" article's enum-case example leaves to the reader: a shop
// whose screen is a list or a detail, and the detail feature.

struct ListState: Equatable, Sendable {}

struct DetailState: Equatable, Sendable {}

enum DetailAction: Equatable, Sendable {
  case closeButtonTapped
}

enum DetailEffect: StoreEffect, Equatable {
  case loadItem

  var cancellation: EffectCancellation { .none }
}

struct DetailReducer: Reducer {
  func reduce(into state: inout DetailState, action: DetailAction) -> [DetailEffect] { [] }
}

struct ShopState: Equatable, Sendable {
  var screen = Screen.list(ListState())
}

enum ShopAction: Equatable, Sendable {
  case itemTapped
  case detail(DetailAction)
}

enum ShopEffect: ComposedEffect, Equatable {
  case detail(DetailEffect)
  case childDismissed(ChildDismissal)

  var cancellation: EffectCancellation {
    switch self {
    case .detail(let effect): ShopReducer.detail.cancellation(of: effect)
    case .childDismissed(let dismissal): dismissal.cancellation
    }
  }
}

struct ShopCore: Reducer {
  func reduce(into state: inout ShopState, action: ShopAction) -> [ShopEffect] {
    if case .itemTapped = action { state.screen = .detail(DetailState()) }
    return []
  }
}
