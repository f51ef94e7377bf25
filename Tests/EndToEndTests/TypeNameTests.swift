import Foundation
import Testing

/// No type in `Tests` takes the name of a public type of any module.
///
/// A test's own `RecordingRouter` shadows the public fake of that name in its whole test
/// target, and nobody reading a test can tell which of the two it uses, nor that they behave
/// differently. Name a test's helper after what it does differently, or use the public one.
struct TypeNameTests {
  /// `public [final] class|struct|enum|actor|protocol|typealias Name` at the top level of a file
  /// in `Sources` (a nested type is always spelled with its parent's name, so it shadows
  /// nothing).
  static var publicType: Regex<(Substring, Substring)> {
    #/^public\s+(?:final\s+)?(?:class|struct|enum|actor|protocol|typealias)\s+([A-Z]\w*)/#
  }
  /// Any type declaration in `Tests`, at any depth, with its attributes and modifiers.
  static var anyType: Regex<(Substring, Substring)> {
    #/
      ^ \s* (?: @\w+ (?: \( [^)]* \) )? \s+ )*
      (?: (?: private | fileprivate | internal | package | public | final | indirect
        | nonisolated ) \s+ )*
      (?: class | struct | enum | actor | protocol | typealias ) \s+ ([A-Z]\w*)
    /#
  }

  @Test func noTestTypeSharesItsNameWithAPublicType() throws {
    let root = DemoProcess.packageRoot
    var publicTypes: [String: String] = [:]
    for (file, line, name) in try Self.declarations(under: "Sources", of: Self.publicType) {
      publicTypes[name] = "\(file):\(line)"
    }
    #expect(publicTypes["Store"] != nil, "no public types found under \(root.path)/Sources")

    let clashes = try Self.declarations(under: "Tests", of: Self.anyType).compactMap {
      file, line, name in
      publicTypes[name].map { "\(file):\(line) declares \(name), the public type of \($0)" }
    }
    #expect(clashes == [], "\(clashes.joined(separator: "\n"))")
  }

  @Test func thePatternsSeeTheDeclarationsTheyLookFor() throws {
    let tests = [
      "@MainActor final class RecordingRouter: Router {", "  private struct Member: Equatable {",
      "    enum Case {", "typealias Outcome = (Int, Int)",
    ]
    #expect(
      try tests.map { try Self.anyType.prefixMatch(in: $0)?.output.1 } == [
        "RecordingRouter", "Member", "Case", "Outcome",
      ])
    #expect(try Self.anyType.prefixMatch(in: "  class func make() {}") == nil)
    #expect(
      try Self.publicType.prefixMatch(in: "public final class Store<R: Reducer>")?.output.1
        == "Store")
    #expect(try Self.publicType.prefixMatch(in: "  public enum Case {") == nil)
  }

  /// Every match of `pattern` in the Swift files under `folder`: file (relative to the package),
  /// line number, and the declared name.
  static func declarations(
    under folder: String,
    of pattern: Regex<(Substring, Substring)>
  ) throws -> [(String, Int, String)] {
    let root = DemoProcess.packageRoot
    let base = root.appendingPathComponent(folder)
    guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
    else { return [] }
    var found: [(String, Int, String)] = []
    for case let url as URL in files where url.pathExtension == "swift" {
      let text = try String(contentsOf: url, encoding: .utf8)
      let path = folder + url.path.dropFirst(base.path.count)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        if let match = try pattern.prefixMatch(in: line) {
          found.append((path, number + 1, String(match.output.1)))
        }
      }
    }
    return found
  }
}
