import Foundation
import Testing

/// Every Swift block of the README and the DocC articles compiles against the package as it is
/// today, so a renamed API or a new enum case breaks this test instead of the reader.
///
/// The blocks are read from the Markdown on every run (nothing is copied), type-checked with
/// `swiftc` against the built modules, one compiler run per file; the markers that wrap or skip
/// a block are described in ``CodeBlock``.
struct CodeBlockTests {
  // One compiler at a time: beside the rest of the suite on two cores, thirteen at once starve
  // the tests that run programs against a deadline.
  @Test(.serialized, arguments: DocCompiler.markdownFiles)
  func everySwiftBlockCompiles(_ file: String) async throws {
    let blocks = try DocCompiler.blocks(of: file)
    let outcome = try await DocCompiler.typecheck(blocks, of: file)
    for (block, errors) in outcome.errorsByBlock {
      Issue.record(
        Comment(
          rawValue: "\(block) does not compile:\n\n"
            + errors.map { "  " + $0 }.joined(separator: "\n")
            + "\n\nFix the block (or the API), then run `swift test --filter CodeBlockTests`."))
    }
    if !outcome.otherErrors.isEmpty {
      Issue.record(
        Comment(
          rawValue: "The blocks of \(file) do not compile:\n\n\(outcome.compilerOutput)"))
    }
  }

  @Test(arguments: DocCompiler.markdownFiles)
  func everyExcerptQuotesTheSource(_ file: String) throws {
    for block in try DocCompiler.blocks(of: file) {
      guard case .excerpt(let path) = block.kind else { continue }
      let source = try DocCompiler.source(at: path)
      let missing = block.linesMissing(from: source)
      if !missing.isEmpty {
        Issue.record(
          Comment(
            rawValue: "\(block) quotes lines that are not in \(path):\n\n"
              + missing.map { "  \(file):\($0.line): \($0.text)" }.joined(separator: "\n")
              + "\n\nQuote the source as it is now."))
      }
    }
  }

  @Test func markersWrapAFragmentAndKeepItsLines() throws {
    let text = """
      Text.

      <!-- swift-block: in func example() -->
      ```swift
      import LoginFeature

      let state = LoginState()
      ```

      <!-- swift-block: skip -->
      ```swift
      .package(path: "../LoginStore"),
      ```

      ```swift
      struct Whole {}
      ```
      """
    let blocks = try CodeBlock.blocks(in: text, file: "Example.md")
    #expect(blocks.map(\.fenceLine) == [4, 11, 15])
    #expect(blocks.map(\.kind) == [.inside("func example()"), .skipped, .file])
    #expect(
      blocks[0].swiftSource(defaultImports: ["Foundation"]) == """
        import Foundation
        #sourceLocation(file: "Example.md", line: 5)
        import LoginFeature

        #sourceLocation()
        func example() {
        #sourceLocation(file: "Example.md", line: 7)
        let state = LoginState()
        #sourceLocation()
        }

        """)
    #expect(
      blocks[2].swiftSource(defaultImports: ["A", "B"]) == """
        import A
        import B
        #sourceLocation(file: "Example.md", line: 16)
        struct Whole {}
        #sourceLocation()

        """)
  }

  @Test func anUnknownMarkerIsAnErrorThatNamesItsLine() {
    let text = "<!-- swift-block: wrap -->\n```swift\nlet x = 1\n```\n"
    #expect(throws: CodeBlock.Malformed.self) {
      try CodeBlock.blocks(in: text, file: "Example.md")
    }
  }
}
