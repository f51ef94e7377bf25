import Foundation
import Testing

/// What the login domain module must not hold, checked in its source: a host that brings its
/// own API client and Keychain store links no URLSession and no file code through it, and no
/// effect handler drops an error with `try?`.
struct ModuleBoundaryTests {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // LoginFeatureTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
    .appendingPathComponent("Sources")

  /// Every Swift file under `folder`, with its code lines (comments dropped).
  static func codeLines(under folder: String) throws -> [(file: String, line: Int, text: String)] {
    let root = sources.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var lines: [(String, Int, String)] = []
    for case let path as String in walker where path.hasSuffix(".swift") {
      let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
        lines.append(("\(folder)/\(path)", index + 1, String(line)))
      }
    }
    return lines
  }

  static let infrastructure = [
    "URLSession", "FoundationNetworking", "FileManager", "FileHandle", "import Glibc",
    "import Darwin", "import Musl", "socket(", "open(", "fsync(", "unlink(", "rename(",
    "contentsOf:", ".write(to:",
  ]

  @Test func theLoginDomainHoldsNoNetworkingAndNoFileSystemCalls() throws {
    let lines = try Self.codeLines(under: "LoginFeature")
    #expect(lines.count > 1_000, "the scan found the module's sources")
    for (file, number, text) in lines {
      for word in Self.infrastructure where text.contains(word) {
        Issue.record("\(file):\(number) uses \(word): \(text)")
      }
    }
  }

  @Test func noEffectHandlerDropsAnErrorWithTryQuestionMark() throws {
    var handlers = 0
    for folder in ["LoginFeature", "AppFeature"] {
      for (file, number, text) in try Self.codeLines(under: folder)
      where file.hasSuffix("EffectHandler.swift") {
        handlers += text.contains("func handle(") ? 1 : 0
        if text.contains("try?") { Issue.record("\(file):\(number) drops an error: \(text)") }
      }
    }
    #expect(handlers >= 4, "the scan found the effect handlers")
  }
}
