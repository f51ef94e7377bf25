import Foundation

/// A folder of its own under the temporary directory, removed with the value.
package final class TemporaryFolder {
  package let url: URL

  package init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("LoginStoreTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// The URL of `name` in the folder.
  package func file(_ name: String) -> URL {
    url.appendingPathComponent(name)
  }

  /// Writes `lines`, each followed by a newline unless `terminated` is false for the last one.
  @discardableResult
  package func write(_ name: String, lines: [String], terminated: Bool = true) throws -> URL {
    let url = file(name)
    let text = lines.joined(separator: "\n") + (terminated && !lines.isEmpty ? "\n" : "")
    try Data(text.utf8).write(to: url)
    return url
  }

  /// The non-empty lines of the file at `url`.
  package func lines(of url: URL) throws -> [String] {
    try String(decoding: Data(contentsOf: url), as: UTF8.self)
      .split(separator: "\n").map(String.init)
  }

  /// The names in the folder, sorted (hidden ones too).
  package func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }
}
