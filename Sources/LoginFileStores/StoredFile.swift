import Foundation
import LoginFeature
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One small JSON file in a versioned envelope, written atomically with mode 0600, and changed
/// only under an exclusive lock and only when it is the store's own.
///
/// - **Ours or not.** A file is the store's own when it is a regular file within 64 KiB whose
///   envelope names this format and version. Anything else at the path — another app's file, a
///   newer version, a folder, a symbolic link, a FIFO, an unreadable or oversized file — is
///   never replaced or removed: saves and clears throw a ``StoredFileError`` that says so, and
///   reads throw one that names the file. An envelope of ours whose body is damaged is ours: a
///   save replaces it.
/// - **One writer at a time.** Every save, clear and read-modify-write takes an exclusive
///   `flock` on a lock file beside the target (`.session.json.lock`), so processes sharing the
///   folder never lose each other's changes. The lock is waited for without blocking a thread,
///   for at most ``lockWait``.
/// - **Atomic and durable.** Writes go to a temporary file in the same folder (created
///   exclusively, never through a symbolic link), reach stable storage (`F_FULLFSYNC` on Apple
///   platforms, where `fsync` stops at the drive's cache), then are renamed over the target: a
///   reader sees the old file or the new one, and a process killed mid-write leaves the old one.
/// - **No leftovers.** A process killed between creating its temporary file and renaming it
///   leaves `.<name>.<pid>.<random>.tmp` behind. Temporary files are written only under the
///   lock, so one that is there while a save, clear or update holds the lock is such a
///   leftover: each of them removes those of its own name pattern, and nothing else.
struct StoredFile<Body: Codable & Sendable>: Sendable {
  let url: URL
  let format: String
  /// What ``lockWait`` is measured on: real time, or a test's clock.
  var lockClock: any Clock<Duration> = ContinuousClock()
  /// How often a lock another process holds is tried again.
  var lockPollInterval: Duration = .milliseconds(2)
  static var version: Int { 1 }
  static var sizeLimit: Int { 64 * 1024 }
  /// The longest a save or clear waits for another process's lock.
  static var lockWait: Duration { .seconds(5) }

  private struct Envelope: Codable {
    var format: String
    var version: Int
    var body: Body?
  }

  private struct Probe: Decodable {
    var format: String?
    var version: Int?
  }

  /// What is at the path.
  private enum Contents {
    case none
    case ours(Body?)
    /// Ours, with a body this build cannot read: replaced by a save.
    case damaged(String)
    /// Not ours: never replaced or removed.
    case foreign(String)
  }

  private func error(_ reason: String) -> StoredFileError {
    StoredFileError(path: url.path, reason: reason)
  }

  /// The body, or `nil` when there is no file.
  func load() throws(StoredFileError) -> Body? {
    switch try contents() {
    case .none: return nil
    case .ours(let body): return body
    case .damaged(let reason), .foreign(let reason): throw error(reason)
    }
  }

  /// Replaces the file with `body` — only when there is none or it is ours.
  func save(_ body: Body) async throws(StoredFileError) {
    try await locked { () throws(StoredFileError) in
      if case .foreign(let reason) = try contents() {
        throw error("\(reason); refusing to replace it")
      }
      try write(body)
    }
  }

  /// Removes the file — only when it is ours; no file is fine.
  func remove() async throws(StoredFileError) {
    try await locked { () throws(StoredFileError) in
      switch try contents() {
      case .none: return
      case .foreign(let reason): throw error("\(reason); refusing to remove it")
      case .ours, .damaged: try unlinkTarget()
      }
    }
  }

  /// Reads the body, applies `change`, and keeps the result (`nil`: removes the file), under
  /// the lock. A damaged file of ours reads as none.
  func update(_ change: (Body?) -> Body?) async throws(StoredFileError) -> Body? {
    try await locked { () throws(StoredFileError) -> Body? in
      let current: Body?
      let exists: Bool
      switch try contents() {
      case .none: (current, exists) = (nil, false)
      case .ours(let body): (current, exists) = (body, true)
      case .damaged: (current, exists) = (nil, true)
      case .foreign(let reason): throw error("\(reason); refusing to replace it")
      }
      let next = change(current)
      if let next {
        try write(next)
      } else if exists {
        try unlinkTarget()
      }
      return next
    }
  }

  // MARK: - Reading

  /// What is at the path; throws only when it cannot be looked at.
  private func contents() throws(StoredFileError) -> Contents {
    // Non-blocking: opening a FIFO left at the path must not wait for a writer forever.
    let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT { return .none }
      if code == ELOOP { return .foreign("is a symbolic link") }
      return .foreign("cannot be read: \(SystemError.message(code))")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw error(SystemError.message(errno)) }
    guard status.st_mode & S_IFMT == S_IFREG else { return .foreign("is not a regular file") }
    guard status.st_size <= Self.sizeLimit else {
      return .foreign("larger than \(Self.sizeLimit) bytes")
    }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return .foreign("cannot be read: \(SystemError.message(errno))")
      }
      if count == 0 { break }
      data.append(contentsOf: buffer[0..<count])
      // It grew while being read.
      if data.count > Self.sizeLimit { return .foreign("larger than \(Self.sizeLimit) bytes") }
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let probe: Probe
    do {
      probe = try decoder.decode(Probe.self, from: data)
    } catch {
      return .foreign(data.isEmpty ? "empty" : "not valid JSON")
    }
    guard probe.format == format else { return .foreign("not a \(format) file") }
    guard probe.version == Self.version else {
      return .foreign(
        "version \(probe.version.map(String.init) ?? "?") (this build reads \(Self.version))")
    }
    do {
      return .ours(try decoder.decode(Envelope.self, from: data).body)
    } catch {
      return .damaged("malformed \(format) data")
    }
  }

  // MARK: - Writing

  /// Replaces the file with `body`, atomically, mode 0600. Call under the lock.
  private func write(_ body: Body) throws(StoredFileError) {
    let data: Data
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      encoder.dateEncodingStrategy = .iso8601
      data = try encoder.encode(Envelope(format: format, version: Self.version, body: body))
    } catch {
      throw self.error("could not be encoded")
    }
    do throws(ReplacementFile.Failure) {
      let file = try ReplacementFile(replacing: url.path)
      try file.write(data)
      try file.commit()
    } catch {
      throw self.error(
        error.step == .rename && error.code == EISDIR
          ? "is a folder; refusing to replace it" : error.message)
    }
  }

  /// Removes the temporary files a killed process left (see "No leftovers" above). Call under
  /// the lock: no other writer's temporary file can exist then. Only regular files of the
  /// exact name pattern are removed; one that cannot be is left for the next time (the save
  /// itself does not depend on it).
  private func removeLeftoverTemporaryFiles() {
    let folder = url.deletingLastPathComponent()
    guard
      let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
    else { return }
    for entry in entries
    where ReplacementFile.isTemporaryFile(entry, of: url.lastPathComponent) {
      let path = folder.appendingPathComponent(entry).path
      var status = stat()
      guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      unlink(path)
    }
  }

  private func unlinkTarget() throws(StoredFileError) {
    guard unlink(url.path) == 0 || errno == ENOENT else { throw error(SystemError.message(errno)) }
  }

  // MARK: - Locking

  /// Runs `body` holding an exclusive `flock` on `.<name>.lock` beside the file.
  private func locked<Result>(
    _ body: () throws(StoredFileError) -> Result
  ) async throws(StoredFileError) -> Result {
    let name = ".\(url.lastPathComponent).lock"
    let path = url.deletingLastPathComponent().appendingPathComponent(name).path
    // Non-blocking: a FIFO left at the lock file's path must not hold the open forever.
    let flags = O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
    var descriptor = open(path, O_RDWR | O_CREAT | flags, mode_t(0o600))
    var code = errno
    if descriptor < 0, code == EROFS || code == EACCES {
      // A read-only folder may still hold the lock file of an earlier launch.
      descriptor = open(path, O_RDONLY | flags)
      if descriptor < 0, errno != ENOENT { code = errno }
    }
    guard descriptor >= 0 else {
      throw error("\(SystemError.message(code)) (its lock file \(name) cannot be opened)")
    }
    // Closing the descriptor releases the lock.
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw error("its lock file \(name) is not a regular file")
    }
    // Polled: a lock another process releases wakes no one here.
    let outcome = try await BoundedWait.poll(
      every: lockPollInterval, timeout: Self.lockWait, clock: lockClock
    ) { () throws(StoredFileError) -> Bool in
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
      let code = errno
      if code == EWOULDBLOCK || code == EAGAIN || code == EINTR { return false }
      throw error("\(SystemError.message(code)) (locking \(name))")
    }
    switch outcome {
    case .done: break
    case .timedOut:
      throw error("another process has held its lock file \(name) for over \(Self.lockWait)")
    case .cancelled:
      throw error("cancelled while waiting for its lock file \(name)")
    }
    removeLeftoverTemporaryFiles()
    return try body()
  }
}
