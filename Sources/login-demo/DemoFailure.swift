/// Why `login-demo` stops early: a one-line message and an exit status.
///
/// Printed as `login-demo: <message>` on stderr. Status 2 is a bad command line or script,
/// 1 anything else (a file that cannot be read, a terminal that cannot be set up).
package struct DemoFailure: Error, Equatable {
  /// The message, without the `login-demo: ` prefix.
  package var message: String
  /// The process's exit status.
  package var exitCode: Int32

  init(_ message: String, exitCode: Int32 = 1) {
    self.message = message
    self.exitCode = exitCode
  }

  /// A bad command line (exit status 2), said in the error's words.
  init(_ error: DemoOptionsError) {
    self.init(error.description, exitCode: 2)
  }

  /// A usage error (exit status 2).
  static func usage(_ message: String) -> DemoFailure {
    DemoFailure(message, exitCode: 2)
  }
}
