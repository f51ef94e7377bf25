#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signals that end a program: a process the tests start must receive them.
///
/// The test runner's threads block nearly every signal (Dispatch's threads do), and a child
/// inherits the mask of the thread that starts it. A `replay --follow` started by a test then
/// ignored SIGTERM, and a tmux server's shell and its `sleep` outlived `kill-server` by ten
/// minutes. Every process the tests start is started with these unblocked.
package enum TerminationSignals {
  /// SIGINT, SIGTERM, SIGHUP and SIGQUIT.
  package static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// The set of ``numbers``.
  package static var set: sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    for number in numbers { sigaddset(&set, number) }
    return set
  }

  /// Runs `body` with the termination signals unblocked on the calling thread, so a process it
  /// starts (with Foundation's `Process`, which passes the thread's mask on) receives them;
  /// then restores the thread's mask.
  package static func unblocked<T>(_ body: () throws -> T) rethrows -> T {
    var unblock = set
    var previous = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &unblock, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return try body()
  }
}
