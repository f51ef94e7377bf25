#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file that replaces the one at a path whole, or not at all: the package's one safe file
/// replacement (the state files of `LoginFileStores`, the timeline page of `replay --html`).
///
/// The new contents go to a temporary file beside the target, `.<name>.<pid>.<random>.tmp`,
/// created new with mode 0600 and never through a symbolic link (``PrivateFile``). ``commit()``
/// flushes it to stable storage, closes it, and renames it over the target — `rename` replaces
/// a link at the target, it never writes through one — then flushes the folder so the rename
/// lasts too. A reader sees the old file or the new one; a failure at any step, or a file
/// dropped before its commit, removes the temporary file and leaves the old one as it was.
///
/// ```swift
/// let file = try ReplacementFile(replacing: "state/session.json")
/// try file.write(bytes)
/// try file.commit()
/// ```
///
/// What may be replaced is the caller's to decide, before and (with ``finish()`` and
/// ``putInPlace()`` apart) right before the rename. A process killed before the rename leaves
/// its temporary file behind; ``isTemporaryFile(_:of:)`` recognizes one.
package final class ReplacementFile {
  /// A step that failed, and why.
  package struct Failure: Error, Equatable {
    /// Where the replacement stopped.
    package enum Step: Equatable, Sendable {
      /// Creating the temporary file.
      case create
      /// Writing to it.
      case write
      /// Flushing it to stable storage or closing it.
      case finish
      /// Renaming it over the target.
      case rename
    }

    /// Where the replacement stopped.
    package var step: Step
    /// The `errno` of the system call that failed.
    package var code: Int32

    /// The error number in words (`No space left on device`).
    package var message: String { SystemError.message(code) }

    package init(_ step: Step, code: Int32) {
      self.step = step
      self.code = code
    }
  }

  /// The path the file replaces.
  package let path: String
  /// The temporary file written until ``putInPlace()``.
  package let temporaryPath: String
  private var descriptor: Int32
  /// Renamed into place, or discarded.
  private var isOver = false

  /// Creates the temporary file beside `path`.
  ///
  /// - Throws: ``Failure`` at ``Failure/Step/create`` (`ENOENT` for a missing folder, `EACCES`
  ///   or `EROFS` for one that cannot be written).
  package init(replacing path: String) throws(Failure) {
    let (folder, name) = Self.split(path)
    let temporary =
      folder + Self.temporaryPrefix(of: name)
      + "\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let descriptor = PrivateFile.createNew(at: temporary)
    guard descriptor >= 0 else { throw Failure(.create, code: errno) }
    self.path = path
    self.temporaryPath = temporary
    self.descriptor = descriptor
  }

  deinit {
    discard()
  }

  /// Writes all of `bytes` after what was written before.
  ///
  /// - Throws: ``Failure`` at ``Failure/Step/write``; the temporary file is removed. (`EBADF`
  ///   once the file is finished or given up.)
  package func write(_ bytes: some Collection<UInt8>) throws(Failure) {
    guard descriptor >= 0 else { throw Failure(.write, code: EBADF) }
    let failure =
      bytes.withContiguousStorageIfAvailable {
        WriteAll.write(UnsafeRawBufferPointer($0), to: descriptor)
      } ?? Array(bytes).withUnsafeBytes { WriteAll.write($0, to: descriptor) }
    if let failure { throw fail(.write, failure) }
  }

  /// Writes all of `text`'s UTF-8 after what was written before.
  ///
  /// - Throws: ``Failure`` at ``Failure/Step/write``; the temporary file is removed.
  package func write(_ text: String) throws(Failure) {
    guard descriptor >= 0 else { throw Failure(.write, code: EBADF) }
    if let failure = WriteAll.write(text, to: descriptor) { throw fail(.write, failure) }
  }

  /// Flushes the file to stable storage, closes it and renames it over ``path``.
  ///
  /// - Throws: ``Failure``; the temporary file is removed and the old file left as it was.
  package func commit() throws(Failure) {
    try finish()
    try putInPlace()
  }

  /// The first half of ``commit()``: flushes the file to stable storage and closes it, so the
  /// caller can look at the target once more before ``putInPlace()``.
  ///
  /// - Throws: ``Failure`` at ``Failure/Step/finish``; the temporary file is removed.
  package func finish() throws(Failure) {
    guard descriptor >= 0 else { return }
    let flushed = PrivateFile.flushToStableStorage(descriptor)
    let closed = PrivateFile.close(descriptor)
    descriptor = -1
    if let failure = flushed ?? closed { throw fail(.finish, failure) }
  }

  /// The second half of ``commit()``: renames the finished file over ``path``, then flushes
  /// the folder. The new file is in place once the rename is done, so a folder that cannot be
  /// flushed (some file systems refuse) is not a failure.
  ///
  /// - Throws: ``Failure`` at ``Failure/Step/rename`` (`EISDIR` for a folder at ``path``); the
  ///   temporary file is removed.
  package func putInPlace() throws(Failure) {
    guard descriptor < 0, !isOver else { throw Failure(.rename, code: EBADF) }
    guard rename(temporaryPath, path) == 0 else { throw fail(.rename, errno) }
    isOver = true
    let (folder, _) = Self.split(path)
    let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      _ = PrivateFile.flushToStableStorage(directory)
      PrivateFile.close(directory)
    }
  }

  /// Gives up: closes the file and removes it, unless it is in place already. Dropping the
  /// file does the same.
  package func discard() {
    if descriptor >= 0 { PrivateFile.close(descriptor) }
    descriptor = -1
    if !isOver { unlink(temporaryPath) }
    isOver = true
  }

  private func fail(_ step: Failure.Step, _ code: Int32) -> Failure {
    discard()
    return Failure(step, code: code)
  }

  /// Whether `entry`, a name in the folder of a file named `name`, is one of its temporary
  /// files: `.<name>.<digits>.<digits>.tmp`, exactly, where a digit is an ASCII `0`–`9`.
  ///
  /// Compared byte by byte, never by `Character`: a digit followed by a combining mark
  /// (`1́`, `1⃣`) is one `Character` that sorts between `"0"` and `"9"`, and a name the package
  /// never wrote.
  package static func isTemporaryFile(_ entry: String, of name: String) -> Bool {
    let entry = Array(entry.utf8)
    let prefix = Array(temporaryPrefix(of: name).utf8)
    let suffix = Array(".tmp".utf8)
    guard entry.count > prefix.count + suffix.count, entry.starts(with: prefix),
      entry.reversed().starts(with: suffix.reversed())
    else { return false }
    let middle = entry[prefix.count..<(entry.count - suffix.count)]
    let parts = middle.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    return parts.count == 2
      && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { (0x30...0x39).contains($0) } }
  }

  /// `.<name>.`: how the temporary files of a file named `name` begin.
  private static func temporaryPrefix(of name: String) -> String {
    ".\(name)."
  }

  /// `path`'s folder, with its final `/` (empty for a bare name), and its last component
  /// (without trailing slashes, like `URL.lastPathComponent`).
  private static func split(_ path: String) -> (folder: String, name: String) {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return ("", String(trimmed)) }
    return (String(trimmed[...slash]), String(trimmed[trimmed.index(after: slash)...]))
  }
}
