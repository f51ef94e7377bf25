#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a path is, in words, when it is not a regular file: the readers refuse those (a FIFO
/// would block its reader until something writes to it, for ever if nothing does).
package enum FileKind {
  /// `"a FIFO"`, `"a device"`, …, or `nil` for a regular file.
  ///
  /// - Parameter mode: `st_mode` from `stat`, `lstat` or `fstat`.
  /// - Returns: The words, to follow "is".
  package static func notRegular(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFIFO: "a FIFO"
    case S_IFCHR, S_IFBLK: "a device"
    case S_IFDIR: "a folder"
    case S_IFLNK: "a symbolic link"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}
