import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real mount for the tests where the file system matters: a read-only view of a folder, or
/// a small tmpfs that fills up. Unmounted (lazily, so a file left open cannot keep it) when the
/// value goes away.
///
/// Mounting needs root (and a kernel that lets this container mount). Where it cannot, the
/// initializers throw ``Unavailable`` with the reason, and the test skips with that message.
package final class Mount {
  /// Where the file system is mounted.
  package let url: URL
  private let owner: TemporaryFolder

  /// Why a mount could not be made; the test says it in its skip message.
  package struct Unavailable: Error, CustomStringConvertible {
    package var description: String
  }

  /// Whether this process can mount here: root, in a kernel and container that allow it. Found
  /// out once, by mounting a tiny tmpfs.
  package static let isAvailable: Bool = {
    guard let probe = try? smallDisk(bytes: 4_096) else { return false }
    withExtendedLifetime(probe) {}
    return true
  }()

  private init(url: URL, owner: TemporaryFolder) {
    self.url = url
    self.owner = owner
  }

  deinit {
    _ = try? Self.mount(["-l", url.path], program: "/bin/umount")
  }

  /// `folder`, seen read-only at a new path (a read-only bind mount): writes there fail with
  /// `EROFS`, whoever the process is.
  package static func readOnlyView(of folder: URL) throws -> Mount {
    let owner = try TemporaryFolder()
    let view = owner.file("read-only")
    try FileManager.default.createDirectory(at: view, withIntermediateDirectories: false)
    try mount(["--bind", folder.path, view.path])
    let mounted = Mount(url: view, owner: owner)
    try mount(["-o", "remount,ro,bind", view.path])
    return mounted
  }

  /// A new tmpfs of `bytes`: writes past it fail with `ENOSPC`.
  package static func smallDisk(bytes: Int) throws -> Mount {
    let owner = try TemporaryFolder()
    let disk = owner.file("disk")
    try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: false)
    try mount(["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", disk.path])
    return Mount(url: disk, owner: owner)
  }

  private static func mount(_ arguments: [String], program: String = "/bin/mount") throws {
    guard getuid() == 0 else { throw Unavailable(description: "mounting needs root") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    let errors = try ProcessRunner.starting {
      let errors = Pipe()
      process.standardError = errors
      try process.run()
      return errors
    }
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Unavailable(
        description: "\(program) \(arguments.joined(separator: " ")) failed: "
          + String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      )
    }
  }
}
