// swift-format-ignore-file
// (A stand-in spells Apple's names as Apple does, and leaves them undocumented.)

// A stand-in for SwiftUI on Linux: only the names the docs use, with the shapes SwiftUI gives
// them, so that the SwiftUI hosts type-check. Views are erased to `AnyView`; nothing renders.
// Never shipped, never run. SwiftUI's own `Alert` is left out (no test type may share a name
// with a public type of the package): a SwiftUI file must not name `Alert` alone, which would
// be ambiguous with LoginFeature's on an iPhone; the hosts read `entry.alert` instead.

@_exported import Foundation
@_exported import Observation

// MARK: - Views and scenes

@MainActor @preconcurrency
public protocol View {
  associatedtype Body: View
  @ViewBuilder var body: Body { get }
}

extension Never: View {
  public typealias Body = Never
}

// A view that draws itself has no body to build.
extension View where Body == Never {
  public var body: Never { fatalError() }
}

/// Every view the stand-in builds.
public struct AnyView: View {
  nonisolated public init(_ view: some View) {}
  public typealias Body = Never
}

@resultBuilder
public enum ViewBuilder {
  public static func buildExpression(_ view: some View) -> AnyView { AnyView(view) }
  public static func buildBlock(_ views: AnyView...) -> AnyView { AnyView(EmptyView()) }
  public static func buildOptional(_ view: AnyView?) -> AnyView { AnyView(EmptyView()) }
  public static func buildEither(first view: AnyView) -> AnyView { view }
  public static func buildEither(second view: AnyView) -> AnyView { view }
}

public struct EmptyView: View {
  nonisolated public init() {}
  public typealias Body = Never
}

@MainActor @preconcurrency
public protocol Scene {
  associatedtype Body: Scene
  @SceneBuilder var body: Body { get }
}

public struct AnyScene: Scene {
  public var body: AnyScene { self }
}

@resultBuilder
public enum SceneBuilder {
  public static func buildBlock(_ scenes: any Scene...) -> AnyScene { AnyScene() }
}

@MainActor @preconcurrency
public protocol App {
  associatedtype Body: Scene
  init()
  @SceneBuilder var body: Body { get }
}

extension App {
  public static func main() {}
}

public struct WindowGroup<Content: View>: Scene {
  public init(@ViewBuilder content: () -> Content) {}
  public var body: AnyScene { AnyScene() }
}

// MARK: - State

@propertyWrapper
public struct State<Value>: @unchecked Sendable {
  private let box: Box
  public init(wrappedValue: Value) { box = Box(wrappedValue) }
  public var wrappedValue: Value {
    get { box.value }
    nonmutating set { box.value = newValue }
  }
  public var projectedValue: Binding<Value> {
    Binding(get: { box.value }, set: { box.value = $0 })
  }

  private final class Box {
    var value: Value
    init(_ value: Value) { self.value = value }
  }
}

public struct Binding<Value>: @unchecked Sendable {
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {}
}

// MARK: - Leaf and container views

public struct Text: View {
  public init(_ content: some StringProtocol) {}
  public typealias Body = Never
}

public enum ButtonRole: Sendable {
  case cancel
  case destructive
}

public struct Button: View {
  public init(_ title: some StringProtocol, action: @escaping () -> Void) {}
  public init(_ title: some StringProtocol, role: ButtonRole?, action: @escaping () -> Void) {}
  public typealias Body = Never
}

public struct TextField: View {
  public init(_ title: some StringProtocol, text: Binding<String>) {}
  public typealias Body = Never
}

public struct SecureField: View {
  public init(_ title: some StringProtocol, text: Binding<String>) {}
  public typealias Body = Never
}

public struct ProgressView: View {
  public init() {}
  public typealias Body = Never
}

public struct Form<Content: View>: View {
  public init(@ViewBuilder content: () -> Content) {}
  public typealias Body = Never
}

public struct VStack<Content: View>: View {
  public init(@ViewBuilder content: () -> Content) {}
  public typealias Body = Never
}

public struct Group<Content: View>: View {
  public init(@ViewBuilder content: () -> Content) {}
  public typealias Body = Never
}

public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
  public init(
    _ data: Data, id: KeyPath<Data.Element, ID>,
    @ViewBuilder content: @escaping (Data.Element) -> Content
  ) {}
  public typealias Body = Never
}

public struct NavigationStack<Data, Root: View>: View {
  public init(path: Binding<Data>, @ViewBuilder root: () -> Root) {}
  public typealias Body = Never
}

public protocol TimelineSchedule {}

public struct PeriodicTimelineSchedule: TimelineSchedule {
  public init(from startDate: Date, by interval: TimeInterval) {}
}

extension TimelineSchedule where Self == PeriodicTimelineSchedule {
  public static func periodic(from startDate: Date, by interval: TimeInterval) -> Self {
    PeriodicTimelineSchedule(from: startDate, by: interval)
  }
}

public struct TimelineViewDefaultContext {
  public var date: Date
}

public struct TimelineView<Schedule: TimelineSchedule, Content: View>: View {
  public typealias Context = TimelineViewDefaultContext
  public init(_ schedule: Schedule, @ViewBuilder content: @escaping (Context) -> Content) {}
  public typealias Body = Never
}

public struct Font: Sendable {
  public static let footnote = Font()
}

// MARK: - Modifiers

extension View {
  public func font(_ font: Font?) -> some View { self }
  public func disabled(_ disabled: Bool) -> some View { self }
  public func navigationBarBackButtonHidden(_ hidesBackButton: Bool = true) -> some View { self }
  public func task(
    priority: TaskPriority = .userInitiated,
    @_inheritActorContext _ action: @escaping @Sendable () async -> Void
  ) -> some View { self }
  public func onChange<V: Equatable>(
    of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void
  ) -> some View { self }
  public func navigationDestination<D: Hashable, C: View>(
    for data: D.Type, @ViewBuilder destination: @escaping (D) -> C
  ) -> some View { self }
  public func alert<A: View, M: View, T>(
    _ title: some StringProtocol, isPresented: Binding<Bool>, presenting data: T?,
    @ViewBuilder actions: (T) -> A, @ViewBuilder message: (T) -> M
  ) -> some View { self }
}

// MARK: - Transactions

public struct Transaction {
  public init() {}
  public var disablesAnimations = false
}

public func withTransaction<Result>(
  _ transaction: Transaction, _ body: () throws -> Result
) rethrows -> Result {
  try body()
}
