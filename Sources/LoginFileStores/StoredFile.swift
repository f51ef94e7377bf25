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

/// Why a stored session or lockout file could not be read or written. Its description names
/// the file and the reason, never the file's content.
public struct StoredFileError: StorageError, Equatable {
  /// The file's path.
  public var path: String
  /// What is wrong, e.g. "not valid JSON" or "is a symbolic link".
  public var reason: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - reason: What is wrong.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `<file name>: <reason>`.
  public var description: String {
    "\(URL(fileURLWithPath: path).lastPathComponent): \(reason)"
  }
}

/// One small JSON file in a versioned envelope, written atomically with mode 0600.
///
/// Writes go to a temporary file in the same folder (created exclusively, never through a
/// symbolic link), are flushed to disk, then renamed over the target: a reader sees the old
/// file or the new one, never half of one, and a process killed mid-write leaves the old one.
/// Reads refuse a symbolic link, a file over 64 KiB, another format or a newer version.
struct StoredFile<Body: Codable>: Sendable {
  let url: URL
  let format: String
  static var version: Int { 1 }
  static var sizeLimit: Int { 64 * 1024 }

  private struct Envelope: Codable {
    var format: String
    var version: Int
    var body: Body?
  }

  private struct Probe: Decodable {
    var format: String?
    var version: Int?
  }

  private func error(_ reason: String) -> StoredFileError {
    StoredFileError(path: url.path, reason: reason)
  }

  /// The body, or `nil` when there is no file.
  func load() throws(StoredFileError) -> Body? {
    // Non-blocking: opening a FIFO left at the path must not wait for a writer forever.
    let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT { return nil }
      if code == ELOOP { throw error("is a symbolic link; refusing to read it") }
      throw error(String(cString: strerror(code)))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw error(String(cString: strerror(errno))) }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw error("is not a regular file; refusing to read it")
    }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw error(String(cString: strerror(errno)))
      }
      if count == 0 { break }
      data.append(contentsOf: buffer[0..<count])
      if data.count > Self.sizeLimit { throw error("larger than \(Self.sizeLimit) bytes") }
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    guard let probe = try? decoder.decode(Probe.self, from: data) else {
      throw error(data.isEmpty ? "empty" : "not valid JSON")
    }
    guard probe.format == format else { throw error("not a \(format) file") }
    guard probe.version == Self.version else {
      throw error(
        "version \(probe.version.map(String.init) ?? "?") (this build reads \(Self.version))")
    }
    do {
      return try decoder.decode(Envelope.self, from: data).body
    } catch {
      throw self.error("malformed \(format) data")
    }
  }

  /// Replaces the file with `body`, atomically, mode 0600.
  func save(_ body: Body) throws(StoredFileError) {
    let data: Data
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      encoder.dateEncodingStrategy = .iso8601
      data = try encoder.encode(Envelope(format: format, version: Self.version, body: body))
    } catch {
      throw self.error("could not be encoded")
    }
    let folder = url.deletingLastPathComponent().path
    let temporary =
      folder + "/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let descriptor = open(
      temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
    guard descriptor >= 0 else { throw error(String(cString: strerror(errno))) }
    let failure: String? = data.withUnsafeBytes { bytes in
      if let code = WriteAll.write(bytes, to: descriptor) { return String(cString: strerror(code)) }
      return fsync(descriptor) == 0 ? nil : String(cString: strerror(errno))
    }
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw error(failure)
    }
    guard rename(temporary, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw error(reason)
    }
    // The rename itself lasts only once the folder is on disk.
    let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      _ = fsync(directory)
      close(directory)
    }
  }

  /// Removes the file; no file is fine.
  func remove() throws(StoredFileError) {
    guard unlink(url.path) == 0 || errno == ENOENT else {
      throw error(String(cString: strerror(errno)))
    }
  }
}
