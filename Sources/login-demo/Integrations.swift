import ActionLog
import AppFeature
import Foundation
import LoginFeature
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
    clock: any Clock<Duration>
  ) throws(DemoFailure) -> any LoginAPI {
    if let text = options.apiURL {
      guard let url = URL(string: text) else { throw .usage("--api: not a URL: '\(text)'") }
      return HTTPLoginAPI(baseURL: url)
    }
    return DemoLoginAPI(latency: options.latency, clock: clock)
  }

  /// Starts writing the action log of `--record`, if given.
  ///
  /// - Parameters:
  ///   - store: The store to record.
  ///   - options: The command line.
  /// - Returns: What stops the recording and closes the file, or `nil` without `--record`.
  /// - Throws: ``DemoFailure`` when the file cannot be created.
  @MainActor
  static func startRecording(
    _ store: Store<AppReducer>,
    _ options: DemoOptions
  ) throws(DemoFailure) -> Recording? {
    guard let path = options.recordPath else { return nil }
    let url = URL(fileURLWithPath: path)
    do {
      let recorder = try store.record(to: url, feature: AppReducer.actionLogFeature) { error in
        // Reported once; the demo keeps working without the log.
        let line = "login-demo: recording stopped: \(error.description.prefix { $0 != "\n" })\n"
        FileHandle.standardError.write(Data(line.utf8))
      }
      return Recording { await recorder.close() }
    } catch {
      throw DemoFailure("cannot record to '\(path)': \(error.description)")
    }
  }

  /// A recording in progress.
  struct Recording {
    /// Flushes the log and closes it; called once, when the demo quits.
    let stop: @MainActor () async -> Void
  }
}
