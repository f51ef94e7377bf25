import Foundation
import LoginFeature
import LoginFileStores
import StateStore
import Testing
import ToolTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file stores against real files in a temporary folder.
struct FileStoresTests {
  static let user = User(id: "1", username: "demo", displayName: "Demo User")
  static let session = Session(
    user: user, token: "t0k3n", expiresAt: Date(timeIntervalSince1970: 1_767_225_600))
  static let start = Date(timeIntervalSince1970: 1_767_225_600)
  static let failure = LockoutChange.failedAttempt(
    counted: 1, lockingAt: 5, lockFor: .seconds(30))

  @Test func aSessionRoundTripsThroughA0600FileReplacedAtomically() async throws {
    let temporary = try TemporaryFolder()
    let url = temporary.file("session.json")
    let store = FileSessionStore(url: url)
    #expect(try await store.load() == nil)
    try await store.save(Self.session)
    try await store.save(Self.session)
    #expect(try await store.load() == Self.session)
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    // No temporary files are left behind; the lock file stays for the next writer.
    #expect(try temporary.names() == [".session.json.lock", "session.json"])
    try await store.clear()
    #expect(try await store.load() == nil)
    try await store.clear()
  }

  @Test(
    arguments: [
      ("garbage", "session.json: not valid JSON"),
      ("", "session.json: empty"),
      (
        #"{"format":"loginstore.lockout","version":1}"#,
        "session.json: not a loginstore.session file"
      ),
      (
        #"{"format":"loginstore.session","version":2}"#,
        "session.json: version 2 (this build reads 1)"
      ),
      (
        #"{"format":"loginstore.session","version":1,"body":{"token":7}}"#,
        "session.json: malformed loginstore.session data"
      ),
    ])
  func anUnreadableSessionFileIsATypedErrorThatNamesTheFile(content: String, message: String)
    async throws
  {
    let temporary = try TemporaryFolder()
    let url = temporary.file("session.json")
    try Data(content.utf8).write(to: url)
    do {
      _ = try await FileSessionStore(url: url).load()
      Issue.record("loaded \(content)")
    } catch {
      #expect("\(error)" == message)
    }
  }

  /// What someone else may have left where the store keeps its file: each must survive every
  /// save, clear and update, byte for byte.
  static let foreignFiles: [(name: String, content: String, reason: String)] = [
    ("another app's JSON", #"{"name":"x"}"#, "not a loginstore.lockout file"),
    ("notes", "notes\n", "not valid JSON"),
    (
      "a newer version", #"{"format":"loginstore.lockout","version":2}"#,
      "version 2 (this build reads 1)"
    ),
    ("an empty file", "", "empty"),
    ("an oversized file", String(repeating: " ", count: 200_000), "larger than 65536 bytes"),
  ]

  @Test(arguments: foreignFiles.indices)
  func aFileTheStoreDidNotWriteIsNeverReplacedOrRemoved(index: Int) async throws {
    let foreign = Self.foreignFiles[index]
    let temporary = try TemporaryFolder()
    let url = temporary.file("lockout.json")
    try Data(foreign.content.utf8).write(to: url)
    let store = FileLockoutStore(url: url)
    await #expect(
      throws: StoredFileError(path: url.path, reason: "\(foreign.reason); refusing to replace it")
    ) {
      try await store.update { _ in LockoutRecord(failedAttempts: 1) }
    }
    await #expect(
      throws: StoredFileError(path: url.path, reason: "\(foreign.reason); refusing to replace it")
    ) {
      try await store.update { _ in nil }
    }
    await #expect(throws: StoredFileError(path: url.path, reason: foreign.reason)) {
      try await store.load()
    }
    #expect(try Data(contentsOf: url) == Data(foreign.content.utf8), "\(foreign.name) changed")

    let sessionURL = temporary.file("session.json")
    try Data(foreign.content.utf8).write(to: sessionURL)
    let sessions = FileSessionStore(url: sessionURL)
    for (verb, attempt) in [
      ("replace", { try await sessions.save(Self.session) }),
      ("remove", { try await sessions.clear() }),
    ] as [(String, () async throws -> Void)] {
      do {
        try await attempt()
        Issue.record("\(foreign.name): the session store did \(verb) it")
      } catch {
        #expect("\(error)".hasSuffix("; refusing to \(verb) it"), "\(error)")
      }
    }
    #expect(try Data(contentsOf: sessionURL) == Data(foreign.content.utf8))
  }

  @Test func aDamagedFileOfTheStoresOwnFormatIsReplaced() async throws {
    let temporary = try TemporaryFolder()
    let url = temporary.file("lockout.json")
    try Data(#"{"format":"loginstore.lockout","version":1,"body":{"failedAttempts":"x"}}"#.utf8)
      .write(to: url)
    let store = FileLockoutStore(url: url)
    await #expect(
      throws: StoredFileError(path: url.path, reason: "malformed loginstore.lockout data")
    ) {
      try await store.load()
    }
    // Read as no record: the failure is the first one kept.
    let kept = try await store.update { Self.failure.applied(to: $0, at: Self.start, seen: nil) }
    #expect(kept == LockoutRecord(failedAttempts: 1))
    #expect(try await store.load() == LockoutRecord(failedAttempts: 1))
  }

  @Test func aSymlinkIsNeitherFollowedNorReplaced() async throws {
    let temporary = try TemporaryFolder()
    let target = temporary.file("elsewhere.json")
    try Data("{}".utf8).write(to: target)
    let link = temporary.file("lockout.json")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    await #expect(throws: StoredFileError(path: link.path, reason: "is a symbolic link")) {
      try await FileLockoutStore(url: link).load()
    }
    await #expect(
      throws: StoredFileError(
        path: link.path, reason: "is a symbolic link; refusing to replace it")
    ) {
      try await FileLockoutStore(url: link).update { _ in LockoutRecord(failedAttempts: 2) }
    }
    #expect(try String(contentsOf: target, encoding: .utf8) == "{}")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
  }

  @Test(.timeLimit(.minutes(5)))
  func aFIFOOrAFolderAtThePathIsRefusedWithoutWaiting() async throws {
    let temporary = try TemporaryFolder()
    let fifo = temporary.file("session.json")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    // Opening the FIFO must not wait for a writer: the answer comes now.
    await #expect(throws: StoredFileError(path: fifo.path, reason: "is not a regular file")) {
      try await FileSessionStore(url: fifo).load()
    }
    await #expect(
      throws: StoredFileError(
        path: fifo.path, reason: "is not a regular file; refusing to remove it")
    ) {
      try await FileSessionStore(url: fifo).clear()
    }
    let folder = temporary.file("lockout.json")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    await #expect(throws: StoredFileError(path: folder.path, reason: "is not a regular file")) {
      try await FileLockoutStore(url: folder).load()
    }
    await #expect(
      throws: StoredFileError(
        path: folder.path, reason: "is not a regular file; refusing to replace it")
    ) {
      try await FileLockoutStore(url: folder).update { _ in LockoutRecord(failedAttempts: 1) }
    }
    #expect(FileManager.default.fileExists(atPath: folder.path))
  }

  @Test(.timeLimit(.minutes(5)))
  func aLockFileThatIsNotAFileIsATypedErrorWithoutWaiting() async throws {
    let temporary = try TemporaryFolder()
    let url = temporary.file("session.json")
    #expect(mkfifo(temporary.file(".session.json.lock").path, 0o600) == 0)
    await #expect(
      throws: StoredFileError(
        path: url.path, reason: "its lock file .session.json.lock is not a regular file")
    ) {
      try await FileSessionStore(url: url).save(Self.session)
    }
    let link = temporary.file(".lockout.json.lock")
    try FileManager.default.createSymbolicLink(
      at: link, withDestinationURL: temporary.file("elsewhere"))
    await #expect(throws: StoredFileError.self) {
      try await FileLockoutStore(url: temporary.file("lockout.json")).update { _ in nil }
    }
    #expect(!FileManager.default.fileExists(atPath: temporary.file("elsewhere").path))
  }

  @Test func aSaveIntoAMissingFolderIsATypedError() async {
    let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/lockout.json")
    await #expect(
      throws: StoredFileError(
        path: url.path,
        reason: "No such file or directory (its lock file .lockout.json.lock cannot be opened)")
    ) {
      try await FileLockoutStore(url: url).update { _ in LockoutRecord(failedAttempts: 1) }
    }
  }

  /// Many writers at once, each with a store of its own on one file (as separate processes
  /// would have): every failed attempt is counted. Without the lock, read-modify-writes
  /// interleave and counts are lost.
  @Test(.timeLimit(.minutes(5)))
  func concurrentUpdatesCountEveryFailedAttempt() async throws {
    let temporary = try TemporaryFolder()
    let url = temporary.file("lockout.json")
    // Four writers of ten updates each: each waits for the lock at most `lockWait`, polling,
    // so the others can keep it from one; on a loaded two-core machine eight writers kept one
    // waiting past a real-time 5 s, with every update's `fsync` slowed by builds beside it.
    let writers = 4
    let updatesEach = 10
    let change = LockoutChange.failedAttempt(counted: 1, lockingAt: 1_000, lockFor: .seconds(30))
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<writers {
        group.addTask {
          // The test is about counts, not about the wait: the 5 s `lockWait` runs on a clock
          // twelve times slower than real time, so a loaded machine cannot starve a writer
          // past it (a real-time 5 s was passed at loads of 10 and more).
          let store = FileLockoutStore(
            url: url, lockClock: StretchedClock(factor: 12), lockPollInterval: .milliseconds(2))
          for _ in 0..<updatesEach {
            try await store.update { change.applied(to: $0, at: Self.start, seen: nil) }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(
      try await FileLockoutStore(url: url).load()
        == LockoutRecord(failedAttempts: writers * updatesEach))
  }

  /// Holds `.lockout.json.lock` in `folder` as another process would; closing the descriptor
  /// releases it.
  private static func holdLock(in folder: TemporaryFolder) throws -> Int32 {
    let lock = open(folder.file(".lockout.json.lock").path, O_RDWR | O_CREAT, 0o600)
    try #require(lock >= 0)
    try #require(flock(lock, LOCK_EX) == 0)
    return lock
  }

  /// Wakes the store's every sleep on `clock`, one at a time, until the clock reads `end`;
  /// each time, the store must be asleep on the clock, waiting for the lock. (The stores here
  /// try every second, not every 2 ms, so a busy machine steps through 5 s quickly.)
  private static func step(_ clock: ManualClock, to end: ManualClock.Instant) async throws {
    while clock.now < end {
      try #require(
        await clock.waitForSleepers(1, timeout: .seconds(10)),
        "the store waits for the lock on its clock until \(clock.now.duration(to: end)) later")
      await clock.advance(to: try #require(clock.nextDeadline))
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func aHeldLockIsWaitedForFiveSecondsOnTheStoresClockAndThenReported() async throws {
    let temporary = try TemporaryFolder()
    let url = temporary.file("lockout.json")
    let lock = try Self.holdLock(in: temporary)
    defer { close(lock) }
    let clock = ManualClock()
    let store = FileLockoutStore(url: url, lockClock: clock, lockPollInterval: .seconds(1))
    let attempt = Task { try await store.update { _ in LockoutRecord(failedAttempts: 1) } }
    try await Self.step(clock, to: clock.now.advanced(by: .seconds(5)))
    await #expect(
      throws: StoredFileError(
        path: url.path,
        reason: "another process has held its lock file .lockout.json.lock for over 5.0 seconds")
    ) {
      try await attempt.value
    }
    #expect(clock.sleeperCount == 0)
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }

  @Test(.timeLimit(.minutes(1)))
  func aLockReleasedWithinTheWaitIsTakenAtTheNextTry() async throws {
    let temporary = try TemporaryFolder()
    let url = temporary.file("lockout.json")
    let lock = try Self.holdLock(in: temporary)
    let clock = ManualClock()
    let start = clock.now
    let store = FileLockoutStore(url: url, lockClock: clock, lockPollInterval: .seconds(1))
    let attempt = Task { try await store.update { _ in LockoutRecord(failedAttempts: 1) } }
    try await Self.step(clock, to: start.advanced(by: .seconds(2)))
    close(lock)
    try #require(await clock.waitForSleepers(1, timeout: .seconds(10)))
    await clock.advance(to: try #require(clock.nextDeadline))
    #expect(try await attempt.value == LockoutRecord(failedAttempts: 1))
    #expect(start.duration(to: clock.now) == .seconds(3), "taken at the next try, not at 5 s")
    #expect(try await store.load() == LockoutRecord(failedAttempts: 1))
  }

  // MARK: - Real file systems

  @Test(.enabled(if: Mount.isAvailable, "needs root and a kernel that allows mounts"))
  func aReadOnlyFolderIsATypedErrorForEverySaveAndClear() async throws {
    let temporary = try TemporaryFolder()
    try await FileSessionStore(url: temporary.file("session.json")).save(Self.session)
    let view = try Mount.readOnlyView(of: temporary.url)
    let sessions = FileSessionStore(url: view.url.appendingPathComponent("session.json"))
    #expect(try await sessions.load() == Self.session)
    await #expect(
      throws: StoredFileError(
        path: view.url.appendingPathComponent("session.json").path,
        reason: "Read-only file system")
    ) {
      try await sessions.clear()
    }
    await #expect(throws: StoredFileError.self) { try await sessions.save(Self.session) }
    // No lock file was ever made here: opening it is the error.
    await #expect(
      throws: StoredFileError(
        path: view.url.appendingPathComponent("lockout.json").path,
        reason: "Read-only file system (its lock file .lockout.json.lock cannot be opened)")
    ) {
      try await FileLockoutStore(url: view.url.appendingPathComponent("lockout.json"))
        .update { Self.failure.applied(to: $0, at: Self.start, seen: nil) }
    }
    #expect(try await sessions.load() == Self.session)
  }

  @Test(.enabled(if: Mount.isAvailable, "needs root and a kernel that allows mounts"))
  func aFullDiskIsATypedErrorAndKeepsTheOldFile() async throws {
    let disk = try Mount.smallDisk(bytes: 64 * 1024)
    let url = disk.url.appendingPathComponent("lockout.json")
    let store = FileLockoutStore(url: url)
    try await store.update { Self.failure.applied(to: $0, at: Self.start, seen: nil) }
    // Fill what is left.
    let filler = open(disk.url.appendingPathComponent("filler").path, O_WRONLY | O_CREAT, 0o600)
    #expect(filler >= 0)
    let block = [UInt8](repeating: 0x2E, count: 4_096)
    while block.withUnsafeBytes({ write(filler, $0.baseAddress, $0.count) }) > 0 {}
    close(filler)
    await #expect(
      throws: StoredFileError(path: url.path, reason: "No space left on device")
    ) {
      try await store.update { Self.failure.applied(to: $0, at: Self.start, seen: nil) }
    }
    #expect(try await store.load() == LockoutRecord(failedAttempts: 1))
    // Nothing half-written is left beside it.
    let names = try FileManager.default.contentsOfDirectory(atPath: disk.url.path).sorted()
    #expect(names == [".lockout.json.lock", "filler", "lockout.json"])
  }
  /// A process killed between writing its temporary file and renaming it leaves
  /// `.lockout.json.<pid>.<random>.tmp`. The next save removes such files — regular files of
  /// exactly that name pattern, for this store's file — and nothing else.
  @Test func theNextSaveRemovesTheTemporaryFilesOfKilledProcessesAndNothingElse() async throws {
    let folder = try TemporaryFolder()
    let leftovers = [".lockout.json.4242.3735928559.tmp", ".lockout.json.7.0.tmp"]
    let others = [
      ".lockout.json.4242.tmp", ".lockout.json.x1.2.tmp", "lockout.json.1.2.tmp",
      ".lockout.json.1.2.tmp.bak", ".session.json.1.2.tmp", ".lockout.json.1.2.3.tmp",
      "notes.txt",
    ]
    for name in leftovers + others { try Data("x".utf8).write(to: folder.file(name)) }
    // A folder and a symbolic link of the pattern are not the store's leftovers either.
    try FileManager.default.createDirectory(
      at: folder.file(".lockout.json.5.6.tmp"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: folder.file(".lockout.json.8.9.tmp").path, withDestinationPath: "notes.txt")

    try await FileLockoutStore(url: folder.file("lockout.json")).update { _ in
      LockoutRecord(failedAttempts: 1)
    }

    let remaining = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
    #expect(remaining.isDisjoint(with: leftovers), "\(remaining)")
    #expect(
      remaining
        == Set(
          others + [
            ".lockout.json.5.6.tmp", ".lockout.json.8.9.tmp", "lockout.json", ".lockout.json.lock",
          ]))
  }

  /// A digit followed by a combining mark (`1́`, `1⃣`, `5̸`) is one `Character` that sorts
  /// between "0" and "9": an update deleted such names as leftovers. Only ASCII digits, on
  /// bytes, make a temporary file's number; an empty number makes none.
  @Test func anUpdateLeavesNamesThatOnlyLookLikeTemporaryFiles() async throws {
    let folder = try TemporaryFolder()
    let leftover = ".lockout.json.12.34.tmp"
    let lookalikes = [
      ".lockout.json.1\u{301}.2.tmp", ".lockout.json.1\u{20E3}.2.tmp",
      ".lockout.json.5\u{338}.6.tmp", ".lockout.json.1.2\u{301}.tmp",
      ".lockout.json.\u{FF11}.2.tmp", ".lockout.json.\u{0663}.2.tmp",
      ".lockout.json.\u{00B9}.2.tmp",
      ".lockout.json..1.tmp", ".lockout.json.1..tmp", ".lockout.json...tmp",
      ".lockout.json.1.2.tmp\u{301}", ".lockout.json\u{301}.1.2.tmp",
    ]
    for name in [leftover] + lookalikes { try Data("x".utf8).write(to: folder.file(name)) }

    try await FileLockoutStore(url: folder.file("lockout.json")).update { _ in
      LockoutRecord(failedAttempts: 1)
    }

    // Compared as bytes: `Set<String>` would call canonically equivalent names one.
    let remaining = Set(
      try FileManager.default.contentsOfDirectory(atPath: folder.url.path).map { Array($0.utf8) })
    #expect(!remaining.contains(Array(leftover.utf8)))
    for name in lookalikes {
      #expect(remaining.contains(Array(name.utf8)), "deleted \(name.unicodeScalars.map(\.value))")
    }
  }
}

/// Real time, slowed `factor` times: a wait of 5 s on it takes `5 × factor` real seconds.
private struct StretchedClock: Clock {
  typealias Duration = Swift.Duration
  typealias Instant = ContinuousClock.Instant

  let factor: Int
  private let origin = ContinuousClock.now

  var now: Instant { origin + (ContinuousClock.now - origin) / factor }
  var minimumResolution: Duration { ContinuousClock().minimumResolution }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try await ContinuousClock().sleep(until: origin + (deadline - origin) * factor)
  }
}
