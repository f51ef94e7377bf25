import Foundation
import Testing
import ToolTestSupport

/// Type-checks the Swift blocks of one Markdown file against the package's built modules with
/// `swiftc -typecheck`: one compiler run per file, every block a source file of one module.
///
/// Apple-only blocks import `SwiftUI`, `UIKit` or `Security`; on Linux each of those is a
/// stand-in module compiled first from `Tests/DocsTests/StandIns/<Name>.swift`, which holds only
/// the names the docs use and ships in no product.
enum DocCompiler {
  /// Every library module of the package: what a block without imports sees.
  static let libraryModules = [
    "StateStore", "ActionLog", "StateStoreTesting", "LoginFeature", "LoginHTTPClient",
    "LoginFileStores", "LoginDemoBackend", "LoginFeatureTesting", "AppFeature", "ReplayTool",
  ]

  /// What a block without imports imports (and a fragment, besides its own).
  static var defaultImports: [String] {
    #if canImport(FoundationNetworking)
      ["Foundation", "FoundationNetworking", "Testing"] + libraryModules
    #else
      ["Foundation", "Testing"] + libraryModules
    #endif
  }

  static let root = ReplayProcess.packageRoot
  static let testsFolder = root.appendingPathComponent("Tests/DocsTests")

  /// The Markdown files whose blocks are compiled, relative to the package.
  static var markdownFiles: [String] {
    let catalog = "Docs/LoginStore.docc"
    let articles =
      (try? FileManager.default.contentsOfDirectory(
        atPath: root.appendingPathComponent(catalog).path)) ?? []
    return ["README.md"]
      + articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
  }

  /// The Swift sources under `Sources` whose doc comments hold a block that is not Swift (a
  /// printed sample, say), relative to the package.
  static var documentedSources: [String] {
    let sources = root.appendingPathComponent("Sources")
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap {
      $0 as? String
    }
    return (files ?? []).filter { $0.hasSuffix(".swift") }.sorted().map { "Sources/\($0)" }
      .filter { file in
        guard let text = try? DocText(file: file) else { return false }
        return !text.printedBlocks.isEmpty
      }
  }

  /// The blocks of `file`.
  static func blocks(of file: String) throws -> [CodeBlock] {
    let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    return try CodeBlock.blocks(in: text, file: file)
  }

  /// The Swift source at `path` (a file, or every `.swift` file in a folder), for excerpts.
  static func source(at path: String) throws -> String {
    let url = root.appendingPathComponent(path)
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
      throw Failure("\(path) does not exist")
    }
    guard isFolder.boolValue else { return try String(contentsOf: url, encoding: .utf8) }
    let files = FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String }
    return try (files ?? []).filter { $0.hasSuffix(".swift") }.sorted().map {
      try String(contentsOf: url.appendingPathComponent($0), encoding: .utf8)
    }.joined(separator: "\n")
  }

  /// What one compiler run said about a file's blocks: the errors of each block that has some.
  struct Outcome {
    var errorsByBlock: [(block: CodeBlock, errors: [String])]
    /// Errors the compiler reported outside every block (a context file, a stand-in).
    var otherErrors: [String]
    var compilerOutput: String
  }

  /// Type-checks `blocks` (the blocks of one file) as one module.
  static func typecheck(_ blocks: [CodeBlock], of file: String) async throws -> Outcome {
    let folder = try TemporaryFolder()
    var sources: [URL] = []
    for block in blocks where block.kind.isCompiled {
      let source = folder.file("block-\(block.fenceLine).swift")
      try block.swiftSource(defaultImports: defaultImports)
        .write(to: source, atomically: true, encoding: .utf8)
      sources.append(source)
    }
    if sources.isEmpty { return Outcome(errorsByBlock: [], otherErrors: [], compilerOutput: "") }
    let article = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    let context = testsFolder.appendingPathComponent("Context/\(article).swift")
    if FileManager.default.fileExists(atPath: context.path) { sources.append(context) }

    let modules = try builtModules()
    let standIns = folder.file("StandIns")
    try FileManager.default.createDirectory(at: standIns, withIntermediateDirectories: true)
    for name in try standInsImported(by: sources) {
      try await emitStandIn(name, into: standIns)
    }
    let moduleName = "DocBlocks_" + article.filter { $0.isLetter || $0.isNumber }
    let result = try await ProcessRunner.run(
      try swiftc(),
      [
        "-typecheck", "-parse-as-library", "-swift-version", "6", "-module-name", moduleName,
        "-I", modules.path, "-I", standIns.path, "-diagnostic-style", "llvm",
      ] + sources.map(\.path),
      in: root, timeout: .seconds(600), lowPriority: true)
    if result.timedOut { throw Failure("swiftc did not finish within 600 seconds") }
    let output = result.stdout + result.stderr
    let errors = output.split(separator: "\n").map(String.init).filter { $0.contains(": error: ") }
    if result.status != 0 && errors.isEmpty {
      throw Failure("swiftc failed with status \(result.status) and no error line:\n\(output)")
    }
    var byBlock: [(block: CodeBlock, errors: [String])] = []
    var placed = Set<String>()
    for block in blocks {
      let own = errors.filter { line in
        guard line.hasPrefix("\(file):"), let number = Int(line.split(separator: ":")[1]) else {
          return false
        }
        return block.codeLines.contains(number)
      }
      if !own.isEmpty { byBlock.append((block, own)) }
      placed.formUnion(own)
    }
    return Outcome(
      errorsByBlock: byBlock, otherErrors: errors.filter { !placed.contains($0) },
      compilerOutput: output)
  }

  /// The folder that holds the package's built `.swiftmodule` files, next to the test binary.
  static func builtModules() throws -> URL {
    let bundle = Bundle.main.bundleURL
    let candidates = [
      bundle.deletingLastPathComponent().appendingPathComponent("Modules"),
      bundle.appendingPathComponent("Modules"),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("Modules"),
      root.appendingPathComponent(".build/debug/Modules"),
    ]
    if let found = candidates.first(where: {
      FileManager.default.fileExists(
        atPath: $0.appendingPathComponent("StateStore.swiftmodule").path)
    }) {
      return found
    }
    throw Failure(
      "The package's modules are not built; run `swift build` first. Looked in:\n"
        + candidates.map { "  " + $0.path }.joined(separator: "\n"))
  }

  /// `swiftc` of the toolchain on `PATH`.
  static func swiftc() throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    for folder in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw Failure("swiftc is not on PATH (\(path))")
  }

  /// The stand-in modules that `sources` import.
  private static func standInsImported(by sources: [URL]) throws -> [String] {
    let available =
      (try? FileManager.default.contentsOfDirectory(
        atPath: testsFolder.appendingPathComponent("StandIns").path)) ?? []
    let names = Set(available.filter { $0.hasSuffix(".swift") }.map { String($0.dropLast(6)) })
    var used: Set<String> = []
    for source in sources {
      for line in try String(contentsOf: source, encoding: .utf8).split(separator: "\n")
      where line.hasPrefix("import ") {
        let name = line.dropFirst("import ".count).trimmingCharacters(in: .whitespaces)
        if names.contains(name) { used.insert(name) }
      }
    }
    return used.sorted()
  }

  private static func emitStandIn(_ name: String, into folder: URL) async throws {
    let source = testsFolder.appendingPathComponent("StandIns/\(name).swift")
    let result = try await ProcessRunner.run(
      try swiftc(),
      [
        "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", name,
        "-emit-module-path", folder.appendingPathComponent("\(name).swiftmodule").path,
        source.path,
      ],
      in: folder, timeout: .seconds(300), lowPriority: true)
    guard result.status == 0, !result.timedOut else {
      throw Failure("The stand-in \(name) does not compile:\n\(result.stdout)\(result.stderr)")
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}
