import Foundation
import Testing

/// The "Build your own feature" article's feature is the code its samples run: each of the
/// article's Swift file blocks, without its imports, is a run of lines of
/// `Support/CounterTutorial.swift` (indentation aside), which this target compiles and whose
/// test runs in the suite.
@MainActor struct BuildingAFeatureTests {
  static let article = "Docs/LoginStore.docc/BuildingAFeature.md"
  static let tutorial = "Tests/DocsTests/Support/CounterTutorial.swift"

  @Test func everyFileBlockOfTheArticleIsCodeTheSamplesRun() throws {
    let source = try String(
      contentsOf: DocCompiler.root.appendingPathComponent(Self.tutorial), encoding: .utf8)
    let blocks = try DocCompiler.blocks(of: Self.article).filter { $0.kind == .file }
    #expect(blocks.count >= 7, "the state, actions, effects, reducer, service, handler and test")
    for block in blocks {
      var lines = block.lines.filter { !$0.hasPrefix("import ") }
      while lines.first?.isEmpty == true { lines.removeFirst() }
      #expect(
        DocSampleTests.contains(source, run: lines),
        "\(block) is not in \(Self.tutorial): copy the block there, so the samples run it")
    }
  }
}
