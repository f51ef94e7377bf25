import ActionLog
import AppFeature
import Foundation
import LoginDemoBackend
import LoginFeature
import LoginFileStores
import LoginHTTPClient
import StateStore

/// Where `--api` and `--record` plug in: `HTTPLoginAPI` and the `ActionLog` recorder.
///
/// Both options are parsed and validated by ``DemoOptions``.
enum Integrations {
  /// The login service the demo signs in with: ``DemoLoginAPI`` on `clock`, or the HTTP
  /// service of `--api`.
  ///
  /// - Parameters:
  ///   - options: The command line.
  ///   - clock: The clock the demo service's latency runs on.
  /// - Returns: The service.
  /// - Throws: ``DemoFailure`` when the URL of `--api` cannot be used.
  static func loginAPI(
    _ options: DemoOptions,
    clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date
  ) throws(DemoFailure) -> any LoginAPI {
    if let text = options.apiURL {
      guard let url = URL(string: text) else {
        throw .usage("--api: not a URL: \(Sanitized.url(text))")
      }
      return HTTPLoginAPI(baseURL: url)
    }
    return DemoLoginAPI(latency: options.latency, clock: clock, now: now)
  }

  /// The app's dependencies for `options`: the service, the stores, the router and alerts
  /// the screen shows, on `clock`, with `now` as the wall clock.
  ///
  /// - Parameters:
  ///   - options: The command line.
  ///   - router: The demo's router.
  ///   - alerts: The demo's alert presenter.
  ///   - clock: The clock latencies, timers and the profile's delay run on.
  ///   - now: The wall-clock time.
  /// - Returns: The dependencies.
  /// - Throws: ``DemoFailure`` when `--api` or `--state-dir` cannot be used.
  @MainActor
  static func dependencies(
    _ options: DemoOptions, router: DemoRouter, alerts: DemoAlertPresenter,
    clock: any Clock<Duration>, now: @escaping @Sendable () -> Date
  ) throws(DemoFailure) -> AppDependencies {
    let stores = try stores(options)
    return AppDependencies(
      login: LoginDependencies(
        api: try loginAPI(options, clock: clock, now: now),
        router: router,
        alertPresenter: alerts,
        sessionStore: stores.sessions,
        clock: clock,
        lockoutStore: stores.lockout,
        now: now
      ),
      profiles: DemoProfileAPI(clock: clock)
    )
  }

  /// Where the session and the lockout are kept: files in `--state-dir`, or memory, which a
  /// relaunch does not see.
  ///
  /// A missing folder is created (0700) when its parent exists, and standard error says so
  /// (`login-demo: created state folder 'DIR'`); a mistyped path never grows a tree of folders.
  ///
  /// - Parameter options: The command line.
  /// - Returns: The two stores.
  /// - Throws: ``DemoFailure`` with exit status 2 when the path is not a folder or its parent
  ///   does not exist (a bad command line), 1 when the folder cannot be made (no permission).
  static func stores(
    _ options: DemoOptions
  ) throws(DemoFailure) -> (sessions: any SessionStore, lockout: any LockoutStore) {
    guard let path = options.stateDirectory else {
      return (InMemorySessionStore(), InMemoryLockoutStore())
    }
    try makeStateFolder(path)
    let folder = URL(fileURLWithPath: path)
    return (
      FileSessionStore(url: folder.appendingPathComponent("session.json")),
      FileLockoutStore(url: folder.appendingPathComponent("lockout.json"))
    )
  }

  /// Makes sure `path` is a folder: an existing one is taken as it is, a missing one is made
  /// (only the last folder of the path) and announced on standard error.
  ///
  /// `mkdir(2)` first and its answer read after, so a folder made or removed in between by
  /// another process is never mistaken.
  private static func makeStateFolder(_ path: String) throws(DemoFailure) {
    if mkdir(path, 0o700) == 0 {
      _ = WriteAll.write(
        "login-demo: created state folder \(Sanitized.path(path))\n", to: STDERR_FILENO)
      return
    }
    let error = errno
    switch error {
    case EEXIST:
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
        isFolder.boolValue
      else { throw DemoFailure(DemoOptionsError.stateDirectoryNotAFolder(path)) }
    case ENOENT, ENOTDIR:
      throw DemoFailure(
        DemoOptionsError.missingFolder(
          MissingFolder.problem(of: path, option: "--state-dir")
            ?? "--state-dir \(Sanitized.path(path)): \(SystemError.message(error))"))
    default:
      throw DemoFailure(
        "cannot create the state folder \(Sanitized.path(path)): "
          + SystemError.message(error))
    }
  }

  /// Starts writing the action log of `--record` and the segments of `--flight-recorder`, if
  /// given.
  ///
  /// - Parameters:
  ///   - store: The store to record.
  ///   - options: The command line.
  ///   - clock: The clock step times are measured on: the app's own.
  ///   - onStop: Called once, on a background queue, with `recording stopped: <why>` when
  ///     writing fails; the demo keeps working without the log.
  ///   - onWarning: Called on a background queue with `warning: <what>` when a flight recorder
  ///     warns (a file in its folder it leaves alone, a segment it cannot delete), once for
  ///     each; recording goes on.
  /// - Returns: What stops the recording and closes the file, or `nil` without either option.
  /// - Throws: ``DemoFailure`` when the file cannot be created, or is the script (a usage
  ///   error). A recording already started is closed first, so no log is left half written.
  @MainActor
  static func startRecording(
    _ store: Store<AppReducer>,
    _ options: DemoOptions,
    clock: RecordingClock = .continuous,
    onStop: @escaping @Sendable (String) -> Void,
    onWarning: @escaping @Sendable (String) -> Void
  ) async throws(DemoFailure) -> Recording? {
    let failure = Guarded<String?>(nil)
    let warnings = Guarded<[String]>([])
    let reportStop: @Sendable (ActionLogError) -> Void = { error in
      let words = String(error.description.prefix { $0 != "\n" })
      if error.isWarning {
        // `folderWarning`'s words begin with "warning: ".
        warnings.withLock { $0.append(words) }
        onWarning(words)
        return
      }
      let message = "recording stopped: \(words)"
      let isFirst = failure.withLock { first in
        guard first == nil else { return false }
        first = message
        return true
      }
      if isFirst { onStop(message) }
    }
    // A path whose folder is not there is a bad command line, said before anything starts.
    for (option, path) in [
      ("--record", options.recordPath), ("--flight-recorder", options.flightRecorderDirectory),
    ] {
      if let path, let problem = MissingFolder.problem(of: path, option: option) {
        throw DemoFailure(DemoOptionsError.missingFolder(problem))
      }
    }
    var stops: [@MainActor () async -> Void] = []
    if let path = options.recordPath {
      if let script = options.scriptPath, isSameFile(path, script) {
        throw .usage("--record \(Sanitized.path(path)) is the script; record to another file")
      }
      do {
        let recorder = try store.record(
          to: URL(fileURLWithPath: path), feature: AppReducer.actionLogFeature,
          options: RecordingOptions(clock: clock), onError: reportStop)
        stops.append { await recorder.close() }
      } catch {
        throw DemoFailure("cannot record to \(Sanitized.path(path)): \(error.description)")
      }
    }
    if let path = options.flightRecorderDirectory {
      do {
        let recorder = try store.recordFlight(
          to: URL(fileURLWithPath: path), feature: AppReducer.actionLogFeature,
          options: FlightRecorderOptions(recording: RecordingOptions(clock: clock)),
          onError: reportStop)
        stops.append { await recorder.close() }
      } catch {
        for stop in stops { await stop() }
        throw DemoFailure(
          "cannot record to the folder \(Sanitized.path(path)): \(error.description)")
      }
    }
    guard !stops.isEmpty else { return nil }
    let targets =
      (options.recordPath.map { [Sanitized.path($0)] } ?? [])
      + (options.flightRecorderDirectory.map { ["the folder " + Sanitized.path($0)] } ?? [])
    return Recording(
      target: targets.joined(separator: " and "),
      stop: {
        for stop in stops { await stop() }
      },
      failure: { failure.withLock { $0 } },
      warnings: { warnings.withLock { $0 } })
  }

  /// Whether both paths name one existing file, however they are spelled.
  private static func isSameFile(_ first: String, _ second: String) -> Bool {
    var one = stat()
    var two = stat()
    guard stat(first, &one) == 0, stat(second, &two) == 0 else { return false }
    return one.st_dev == two.st_dev && one.st_ino == two.st_ino
  }

  /// A recording in progress.
  struct Recording {
    /// What is recorded, for the screen: the log's file, the flight recorder's folder, or both.
    var target: String = ""
    /// Flushes the log and closes it; called once, when the demo quits.
    let stop: @MainActor () async -> Void
    /// Why recording stopped early (`recording stopped: …`), or `nil`: the demo then exits
    /// with status 1.
    let failure: @Sendable () -> String?
    /// What the recorders warned of and recorded on after (`warning: …`), in order.
    let warnings: @Sendable () -> [String]
  }
}
