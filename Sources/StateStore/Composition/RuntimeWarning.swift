#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A programmer error that the runtime noticed and survived: reported, never a crash.
///
/// Two are reported: an action sent to an optional child feature that is not there (see
/// `ifLet(_:child:)`; the action is ignored), and, in debug builds, a child's effect
/// whose cancellation in the parent is not the child's in its namespace (see
/// ``ChildFeature/cancellation(of:)``). The warning goes to ``reporter``:
///
/// - by default, in a debug build, one line on standard error; in a release build, nowhere;
/// - inside a `TestStore`, a test failure at the line that sent the action;
/// - anywhere else you like, for the whole app — set ``appReporter`` once at launch, and every
///   task that has not chosen its own uses it:
///
///   ```swift
///   RuntimeWarning.appReporter = .init { warning in logger.fault("\(warning.message)") }
///   ```
///
/// - or for one task and the tasks it starts:
///
///   ```swift
///   RuntimeWarning.$reporter.withValue(.init { warning in log(warning.message) }) {
///     store.send(.twoFactor(.verifyButtonTapped))
///   }
///   ```
///
/// <!-- sample: optional-child-warning -->
/// ```text
/// [StateStore] warning: LoginAction.twoFactor(TwoFactorAction.verifyButtonTapped) was sent to the optional child 'twoFactor', which is absent; the action was ignored.
/// ```
public struct RuntimeWarning: Sendable, Equatable, CustomStringConvertible {
  /// One sentence saying what happened and what was done about it. Values appear as ``Dump``
  /// renders them, so secrets show their masks only.
  public var message: String
  /// What to do about it, when the message alone does not say: a test store adds it to the
  /// failure. `nil` for a warning whose message says it.
  public var advice: String?

  /// Creates a warning.
  ///
  /// - Parameters:
  ///   - message: What happened.
  ///   - advice: What to do about it, when the message alone does not say.
  public init(message: String, advice: String? = nil) {
    self.message = message
    self.advice = advice
  }

  /// The message.
  public var description: String { message }

  /// Where warnings go, for the current task and the tasks it creates: by default,
  /// ``appReporter``.
  @TaskLocal public static var reporter = Reporter.app

  /// Where warnings go in every task that has not bound ``reporter`` for itself: by default
  /// ``Reporter/standardError``. Set it once at launch to route warnings into the app's own
  /// logger; it may be set from any thread.
  public static var appReporter: Reporter {
    get { appWide.withLock { $0 } }
    set { appWide.withLock { $0 = newValue } }
  }

  private static let appWide = Guarded(Reporter.standardError)

  /// Reports `message` through the current ``reporter``.
  ///
  /// - Parameters:
  ///   - message: What happened.
  ///   - advice: What to do about it, when the message alone does not say.
  public static func report(_ message: String, advice: String? = nil) {
    reporter(RuntimeWarning(message: message, advice: advice))
  }

  /// Receives runtime warnings: see ``RuntimeWarning/reporter``.
  ///
  /// A struct around the function, not the function itself: with Swift 6.3 on Linux, a task
  /// local whose value is a bare function type crashes optimized builds when it is bound.
  public struct Reporter: Sendable {
    private let report: @Sendable (RuntimeWarning) -> Void

    /// Creates a reporter that calls `report` with each warning.
    ///
    /// - Parameter report: Called with each warning, on the thread that noticed it.
    public init(_ report: @escaping @Sendable (RuntimeWarning) -> Void) {
      self.report = report
    }

    /// Reports `warning`.
    ///
    /// - Parameter warning: The warning.
    public func callAsFunction(_ warning: RuntimeWarning) {
      report(warning)
    }

    /// Writes `[StateStore] warning: <message>` to standard error in debug builds, on one line
    /// with control and other invisible characters escaped (`\u{1B}`); does nothing in
    /// release builds.
    public static let standardError = Reporter { warning in
      #if DEBUG
        _ = WriteAll.write("[StateStore] warning: \(oneLine(warning.message))\n", to: 2)
      #endif
    }

    /// Forwards each warning to ``RuntimeWarning/appReporter``, as it is when the warning
    /// comes: the default of ``RuntimeWarning/reporter``.
    public static let app = Reporter { warning in RuntimeWarning.appReporter(warning) }

    /// Drops every warning: for code that reduces actions in bulk on purpose (a replay, a
    /// property test) where an action for an absent child is expected.
    public static let ignoring = Reporter { _ in }

    /// `message` with its line breaks and other invisible characters escaped.
    package static func oneLine(_ message: String) -> String {
      ShownText.escaped(message)
    }
  }
}
