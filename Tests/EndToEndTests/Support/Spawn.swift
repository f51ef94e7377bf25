import Foundation
import ToolTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program with `posix_spawn` and `waitpid`, its file descriptors above 2 closed.
///
/// For tmux, whose server outlives the command that starts it: Foundation's `Process` notices
/// a child's exit through a descriptor the child inherits, and a daemon that keeps it would
/// make `waitUntilExit()` wait forever. Closing every descriptor above stderr in the child
/// also keeps the tmux server (and the app it runs) from holding the pipes of other tests.
enum Spawn {
  /// Runs `executable arguments` with stdin from `/dev/null` and waits for it.
  ///
  /// - Returns: Its exit status and what it wrote to stdout and stderr.
  /// - Throws: ``DemoProcessError`` when it cannot be started.
  static func run(
    _ executable: String,
    _ arguments: [String],
    environment: [String: String]
  ) throws -> (status: Int32, output: String) {
    let outputFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("spawn-output-\(UUID().uuidString)").path
    defer { unlink(outputFile) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    if let closeFrom = closeFrom { _ = closeFrom(&actions, 3) }

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    // The child starts with the termination signals unblocked and at their default action,
    // whatever this thread blocks (see `TerminationSignals`): a tmux server, and the shell
    // in its pane, end on `kill-server`.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    pthread_sigmask(SIG_SETMASK, nil, &mask)
    for number in TerminationSignals.numbers { sigdelset(&mask, number) }
    var defaults = TerminationSignals.set
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
      throw DemoProcessError(
        "cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { break }
    }
    let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
    // WIFEXITED / WEXITSTATUS by hand: the macros are not imported.
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (exitStatus, output)
  }

  private typealias CloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run
  /// time because the Glibc module does not import it.
  private static let closeFrom: CloseFrom? = {
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: CloseFrom.self)
  }()
}
