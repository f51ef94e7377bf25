import Foundation
import Testing
import ToolTestSupport

/// A child without effects declared without `of:` compiles where the context gives its parent's
/// effect type, and is a compile-time error that says to add `of:` where nothing does: compiled
/// with `swiftc` against the built modules, as the articles' blocks are.
struct ChildFeatureDeclarationTests {
  static let prelude = """
    import StateStore

    struct Row: Identifiable, Equatable, Sendable { let id: Int }
    enum RowAction_: Equatable, Sendable { case tapped }
    struct ListState: Equatable, Sendable { var rows: IdentifiedList<Row> = [] }
    enum ListAction: Equatable, Sendable { case rows(RowAction<Int, RowAction_>) }
    enum ListEffect: StoreEffect, Equatable {
      case save
      var cancellation: EffectCancellation { .none }
    }
    struct RowReducer: Reducer {
      func reduce(into state: inout Row, action: RowAction_) -> [Never] { [] }
    }
    struct ListCore: Reducer {
      func reduce(into state: inout ListState, action: ListAction) -> [ListEffect] { [] }
    }
    let rows = CaseKey(embed: ListAction.rows) { if case .rows(let a) = $0 { a } else { nil } }

    """

  /// The compiler's error lines for `body`, compiled after the prelude.
  func errors(of body: String) async throws -> [String] {
    let folder = try TemporaryFolder()
    let source = folder.file("declarations.swift")
    try (Self.prelude + body).write(to: source, atomically: true, encoding: .utf8)
    let result = try await ProcessRunner.run(
      try DocCompiler.swiftc(),
      [
        "-typecheck", "-parse-as-library", "-swift-version", "6",
        "-I", try DocCompiler.builtModules().path, "-diagnostic-style", "llvm", source.path,
      ],
      in: folder.url, timeout: .seconds(600), lowPriority: true)
    #expect(!result.timedOut)
    let lines = (result.stdout + result.stderr).split(separator: "\n").map(String.init)
    return lines.filter { $0.contains(": error: ") }
  }

  @Test func aDeclarationWithoutItsParentsEffectTypeSaysToAddOf() async throws {
    let errors = try await errors(
      of: """
        func declare() {
          let child = ChildFeature("rows", state: \\ListState.rows, action: rows)
          _ = child
        }
        """)
    #expect(errors.count == 1, "\(errors)")
    #expect(
      errors.first?.hasSuffix(
        "error: 'init(_:state:action:)' is unavailable: a child without effects cannot tell its "
          + "parent's effect type: name a reducer of the parent with ChildFeature(name, of: "
          + "ParentReducer.self, state: …, action: …)") == true, "\(errors)")
  }

  @Test func aDeclarationWhoseContextGivesTheParentsEffectTypeCompiles() async throws {
    let errors = try await errors(
      of: """
        func declare() {
          // Inline, where forEach gives the parent's types.
          let body = ListCore().forEach(ChildFeature("rows", state: \\.rows, action: rows)) {
            RowReducer()
          }
          // Given its type, the parent's effect type `Never` included.
          let typed: ChildFeature<
            ListState, ListAction, Never, IdentifiedList<Row>, RowAction<Int, RowAction_>, Never
          > = ChildFeature("rows", state: \\.rows, action: rows)
          // With `of:`.
          let named = ChildFeature("rows", of: ListCore.self, state: \\.rows, action: rows)
          _ = (body, typed, named)
        }
        """)
    #expect(errors.isEmpty, "\(errors)")
  }
}
