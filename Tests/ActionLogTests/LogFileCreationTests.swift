import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// Where a recorder may write: a new file (created 0600), an earlier action log or an empty
/// file (replaced, made 0600), a device. Never through a symbolic link, never over anything
/// else.
@MainActor
struct LogFileCreationTests {
  private func record(to url: URL) async throws {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.record(to: url, feature: "counter")
    store.send(.increment)
    await recorder.close()
  }

  private func permissions(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  @Test func aNewLogIsReadableByItsOwnerOnly() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("new.jsonl")
    try await record(to: url)
    #expect(try permissions(url) == 0o600)
    #expect(try Replayer(reducer: Counter()).replay(url).stepCount == 1)
  }

  @Test func anEarlierLogIsReplacedAndMadePrivate() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("old.jsonl")
    try await record(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: url.path)
    try await record(to: url)
    #expect(try permissions(url) == 0o600)
    #expect(try Replayer(reducer: Counter()).replay(url).stepCount == 1)
  }

  @Test func anEmptyFileIsReplaced() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("empty.jsonl")
    try Data().write(to: url)
    try await record(to: url)
    #expect(try permissions(url) == 0o600)
    #expect(try Replayer(reducer: Counter()).replay(url).stepCount == 1)
  }

  @Test func aSymbolicLinkIsNotFollowed() throws {
    let folder = try TemporaryFolder()
    let target = folder.file("precious.txt")
    try Data("precious\n".utf8).write(to: target)
    let link = folder.file("link.jsonl")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let store = Store(initialState: Counter.State(), reducer: Counter())
    #expect(
      throws: ActionLogError.ioError(
        "'link.jsonl' is a symbolic link; an action log is never written through one")
    ) {
      _ = try store.record(to: link, feature: "counter")
    }
    #expect(try String(contentsOf: target, encoding: .utf8) == "precious\n")
  }

  @Test func aDanglingSymbolicLinkIsNotFollowed() throws {
    let folder = try TemporaryFolder()
    let link = folder.file("dangling.jsonl")
    try FileManager.default.createSymbolicLink(
      at: link, withDestinationURL: folder.file("created-elsewhere.jsonl"))
    let store = Store(initialState: Counter.State(), reducer: Counter())
    #expect(
      throws: ActionLogError.ioError(
        "'dangling.jsonl' is a symbolic link; an action log is never written through one")
    ) {
      _ = try store.record(to: link, feature: "counter")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("created-elsewhere.jsonl").path))
  }

  @Test(arguments: ["hello\n", "type username demo\n", #"{"format":"other"}"#])
  func aFileThatIsNotAnActionLogIsNotOverwritten(_ contents: String) throws {
    let folder = try TemporaryFolder()
    let url = folder.file("notes.txt")
    try Data(contents.utf8).write(to: url)
    let store = Store(initialState: Counter.State(), reducer: Counter())
    #expect(
      throws: ActionLogError.ioError(
        "'notes.txt' is not an action log; it was left as it was (record to a new file)")
    ) {
      _ = try store.record(to: url, feature: "counter")
    }
    #expect(try String(contentsOf: url, encoding: .utf8) == contents)
  }

  @Test func aDeviceCanBeRecordedTo() async throws {
    let errors = ErrorBox()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.record(
      to: URL(fileURLWithPath: "/dev/null"), feature: "counter",
      onError: { errors.append($0) })
    store.send(.increment)
    await recorder.flush()
    #expect(recorder.isRecording, "the header and the step were written")
    await recorder.close()
    #expect(errors.values.isEmpty)
  }

  @Test func aFolderIsRefused() throws {
    let folder = try TemporaryFolder()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    #expect(throws: ActionLogError.self) {
      _ = try store.record(to: folder.url, feature: "counter")
    }
  }
}
