import LoginFeature
import StateStore

/// The one place where `--api` and `--record` plug into the modules other work is adding.
///
/// Both options are parsed and validated by ``DemoOptions``; until `HTTPLoginAPI` and the
/// `ActionLog` module are part of this build, using them stops with a one-line error and exit
/// status 2. Connecting them is a change to these two functions only.
enum Integrations {
  /// The login service the demo signs in with: ``DemoLoginAPI`` on `clock`, or the HTTP
  /// service of `--api`.
  ///
  /// - Parameters:
  ///   - options: The command line.
  ///   - clock: The clock the demo service's latency runs on.
  /// - Returns: The service.
  /// - Throws: ``DemoFailure`` when the service of `--api` is not available.
  static func loginAPI(
    _ options: DemoOptions,
    clock: any Clock<Duration>
  ) throws(DemoFailure) -> any LoginAPI {
    if options.apiURL != nil {
      // Wire HTTPLoginAPI here, e.g. `return HTTPLoginAPI(baseURL: url)`.
      throw .usage("--api needs HTTPLoginAPI, which this build does not have yet")
    }
    return DemoLoginAPI(latency: options.latency, clock: clock)
  }

  /// Starts writing the action log of `--record`, if given.
  ///
  /// - Parameters:
  ///   - store: The store to record.
  ///   - options: The command line.
  /// - Returns: What stops the recording and closes the file, or `nil` without `--record`.
  /// - Throws: ``DemoFailure`` when recording is not available or the file cannot be written.
  @MainActor
  static func startRecording(
    _ store: Store<LoginReducer>,
    _ options: DemoOptions
  ) throws(DemoFailure) -> Recording? {
    guard options.recordPath != nil else { return nil }
    // Wire the ActionLog recorder here: observe `store.observeTransitions`, write each
    // transition to the file, and return a `Recording` whose `stop` closes it.
    throw .usage("--record needs the ActionLog module, which this build does not have yet")
  }

  /// A recording in progress.
  struct Recording {
    /// Stops recording and closes the log; called once, when the demo quits.
    let stop: @MainActor () -> Void
  }
}
