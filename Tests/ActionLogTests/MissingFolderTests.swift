import ActionLog
import Foundation
import Testing
import ToolTestSupport

/// The one rule for a path a tool writes to: its folder must exist, said the same way by every
/// option (`MissingFolder`).
struct MissingFolderTests {
  @Test(arguments: [
    (".", "."), ("..", "."), ("/", "/"), ("/a", "/"), ("a", "."), ("a/b", "a"), ("a//b/", "a"),
    ("//a", "/"), ("a/b/c.jsonl", "a/b"), ("é/ü", "é"),
  ])
  func theFolderOfAPathIsWhatComesBeforeItsLastSlash(_ path: String, _ parent: String) {
    #expect(MissingFolder.parent(of: path) == parent)
  }

  @Test func aPathWhoseFolderIsMissingOrAFileIsNamedWhole() throws {
    let folder = try TemporaryFolder()
    let file = folder.file("file.txt")
    try Data("x".utf8).write(to: file)
    #expect(MissingFolder.problem(of: folder.file("out.html").path, option: "--html") == nil)
    #expect(MissingFolder.problem(of: ".", option: "--html") == nil)
    let missing = folder.file("missing/dir/out.html").path
    #expect(
      MissingFolder.problem(of: missing, option: "--html")
        == "--html '\(missing)': the folder '\(folder.file("missing/dir").path)' does not exist")
    #expect(
      MissingFolder.problem(of: file.path + "/out.html", option: nil)
        == "'\(file.path)/out.html': '\(file.path)' is not a folder")
  }
}
