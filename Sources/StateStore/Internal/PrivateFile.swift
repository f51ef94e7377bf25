#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls every file the package writes is made with: created new, readable by its
/// owner only, never through a symbolic link; closed and flushed with their errors kept.
///
/// The log files (`ActionLog`), the state files (`LoginFileStores`) and the timeline page
/// (`ReplayTool`) all create their files here, the latter two through ``ReplacementFile``.
package enum PrivateFile {
  /// Creates a new file at `path` for writing, mode 0600 (`O_CREAT | O_EXCL | O_NOFOLLOW`):
  /// whatever is at the path already — a file, a folder, a symbolic link, even a dangling
  /// one — is left as it was.
  ///
  /// - Returns: The descriptor, or -1 with `errno` set (`EEXIST` when something is there).
  package static func createNew(at path: String) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
  }

  /// Closes `descriptor`.
  ///
  /// - Returns: `nil`, or the `errno` of a late write error the close reported.
  @discardableResult
  package static func close(_ descriptor: Int32) -> Int32? {
    #if canImport(Darwin)
      Darwin.close(descriptor) == 0 ? nil : errno
    #elseif canImport(Musl)
      Musl.close(descriptor) == 0 ? nil : errno
    #else
      Glibc.close(descriptor) == 0 ? nil : errno
    #endif
  }

  /// Flushes `descriptor` (a file or a folder) to stable storage.
  ///
  /// - Returns: `nil`, or the `errno` when it fails.
  package static func flushToStableStorage(_ descriptor: Int32) -> Int32? {
    #if canImport(Darwin)
      // On Apple platforms `fsync` stops at the drive's cache; only F_FULLFSYNC reaches the
      // medium. File systems that refuse it (some network and FAT volumes) get `fsync`.
      if fcntl(descriptor, F_FULLFSYNC) == 0 { return nil }
    #endif
    return fsync(descriptor) == 0 ? nil : errno
  }
}
