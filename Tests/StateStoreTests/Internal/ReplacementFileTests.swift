import Foundation
import StateStore
import Testing
import ToolTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The package's one safe file replacement: the new file lands whole and private, or the old
/// one stays as it was, with no temporary file left beside it either way.
struct ReplacementFileTests {
  private static func contents(_ url: URL) throws -> String {
    try String(contentsOf: url, encoding: .utf8)
  }

  private static func permissions(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  @Test func theRenameLandsAPrivateFileInPlaceOfTheOldOne() throws {
    let folder = try TemporaryFolder()
    let target = try folder.write("page.html", lines: ["old"])
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
    let file = try ReplacementFile(replacing: target.path)
    try file.write("new ")
    try file.write(Array("page\n".utf8))
    #expect(try Self.contents(target) == "old\n", "nothing is in place before the commit")
    try file.commit()
    #expect(try Self.contents(target) == "new page\n")
    #expect(try Self.permissions(target) == 0o600)
    #expect(try folder.names() == ["page.html"])
  }

  @Test func itsTemporaryFileIsBesideTheTargetAndRecognizedAsOne() throws {
    let folder = try TemporaryFolder()
    let file = try ReplacementFile(replacing: folder.file("session.json").path)
    let names = try folder.names()
    #expect(names.count == 1)
    #expect(names.allSatisfy { ReplacementFile.isTemporaryFile($0, of: "session.json") })
    #expect(!ReplacementFile.isTemporaryFile(names[0], of: "lockout.json"))
    file.discard()
    #expect(try folder.names() == [])
  }

  @Test func aFileDroppedBeforeItsCommitLeavesTheOldOneAndNoTemporary() throws {
    let folder = try TemporaryFolder()
    let target = try folder.write("state.json", lines: ["old"])
    do {
      let file = try ReplacementFile(replacing: target.path)
      try file.write("half of the new")
    }
    #expect(try Self.contents(target) == "old\n")
    #expect(try folder.names() == ["state.json"])
  }

  @Test func aFailedRenameLeavesWhatIsThereAndNoTemporary() throws {
    let folder = try TemporaryFolder()
    let target = folder.file("out")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
    try folder.write("out/kept", lines: ["kept"])
    let file = try ReplacementFile(replacing: target.path)
    try file.write("new\n")
    #expect {
      try file.commit()
    } throws: { error in
      (error as? ReplacementFile.Failure)?.step == .rename
    }
    #expect(try Self.contents(folder.file("out/kept")) == "kept\n")
    #expect(try folder.names() == ["out"])
  }

  @Test func aSymbolicLinkAtTheTargetIsReplacedNeverWrittenThrough() throws {
    let folder = try TemporaryFolder()
    let precious = try folder.write("precious.txt", lines: ["precious"])
    let link = folder.file("link.html")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: precious)
    let file = try ReplacementFile(replacing: link.path)
    try file.write("page\n")
    try file.commit()
    #expect(try Self.contents(precious) == "precious\n")
    let kind = try FileManager.default.attributesOfItem(atPath: link.path)[.type]
    #expect(kind as? FileAttributeType == .typeRegular, "the link itself was replaced")
    #expect(try Self.contents(link) == "page\n")
  }

  @Test func aMissingFolderIsAFailureToCreate() {
    #expect(throws: ReplacementFile.Failure(.create, code: ENOENT)) {
      _ = try ReplacementFile(replacing: "/nonexistent-\(UUID().uuidString)/page.html")
    }
  }

  @Test(.enabled(if: Mount.isAvailable, "needs root and a kernel that allows mounts"))
  func aFullDiskMidwayLeavesTheOldFileAndNoTemporary() throws {
    let disk = try Mount.smallDisk(bytes: 64 * 1024)
    let target = disk.url.appendingPathComponent("state.json")
    try Data("old\n".utf8).write(to: target)
    let file = try ReplacementFile(replacing: target.path)
    let block = [UInt8](repeating: 0x2E, count: 4_096)
    #expect(throws: ReplacementFile.Failure(.write, code: ENOSPC)) {
      for _ in 0..<64 { try file.write(block) }
    }
    #expect(try Self.contents(target) == "old\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: disk.url.path) == ["state.json"])
  }
}
