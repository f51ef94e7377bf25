import Foundation

/// The one rule for a path a tool writes to — a file it creates, or a folder it makes: the
/// folder it goes in must exist. Only the last part of a path is ever created, so a mistyped
/// path never grows a tree of folders, and every option words it the same way, naming the
/// whole path as typed: `--record 'a/b/log.jsonl': the folder 'a/b' does not exist`. The tools
/// exit with status 2 for it, as for any command line that cannot be carried out as given.
package enum MissingFolder {
  /// Why `path` cannot be written to: its folder does not exist or is not a folder; `nil`
  /// when it is a folder (whether `path` itself exists is for the caller to judge).
  ///
  /// - Parameters:
  ///   - path: The path as typed.
  ///   - option: The option that names it (`--record`), or `nil` for an argument.
  /// - Returns: One line, without the tool's name.
  package static func problem(of path: String, option: String?) -> String? {
    let parent = Self.parent(of: path)
    var isFolder: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder)
    if exists, isFolder.boolValue { return nil }
    let subject = (option.map { $0 + " " } ?? "") + Sanitized.path(path)
    return exists
      ? "\(subject): \(Sanitized.path(parent)) is not a folder"
      : "\(subject): the folder \(Sanitized.path(parent)) does not exist"
  }

  /// The folder `path` is in, as typed: what comes before its last `/` (trailing and repeated
  /// slashes aside), `/` for a name in the root, `.` for a name without a folder.
  ///
  /// Read on bytes: `NSString.deletingLastPathComponent` traps on `"."` with the
  /// corelibs Foundation of Swift 6.3 on Linux.
  package static func parent(of path: String) -> String {
    let slash = UInt8(ascii: "/")
    var bytes = Array(path.utf8)
    while bytes.count > 1, bytes.last == slash { bytes.removeLast() }
    guard var end = bytes.lastIndex(of: slash) else { return "." }
    while end > 0, bytes[end - 1] == slash { end -= 1 }
    return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
  }
}
