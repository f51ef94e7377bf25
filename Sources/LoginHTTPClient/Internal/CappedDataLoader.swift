import Foundation
import LoginFeature
import StateStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends requests on a URLSession of its own and collects each answer's body up to a cap.
///
/// Why not `data(for:)`: it buffers the whole body before returning, so a server (or a proxy)
/// that answers with gigabytes would grow memory without bound. `bytes(for:)` streams, but does
/// not exist in FoundationNetworking, and per-task delegates are not called there either
/// (observed with Swift 6.3 on Linux). So the loader owns its session and is its delegate:
/// chunks are appended only while the total stays within the cap, and the first chunk past it
/// (or a declared `Content-Length` past it) ends the exchange with ``Failure/tooLarge`` at once
/// and cancels the task.
///
/// A URL whose host is an IPv6 address goes through ``IPv6HTTPTransport`` on Linux instead, with
/// the same rules.
///
/// Only a `200` answer's body is collected: for any other status the exchange ends as soon as
/// the headers arrive, with an empty body, because the login API reads the status alone.
///
/// Redirects are never followed: the session's delegate refuses each one, so a `3xx` answer
/// ends the exchange as it is and the request — with the password in its body — goes nowhere
/// but where it was sent. (A per-task delegate would be ignored by FoundationNetworking.)
final class CappedDataLoader: Sendable {
  /// Why an exchange produced no answer.
  enum Failure: Error, Equatable {
    /// The transport failed (or timed out, or was cancelled by URLSession).
    case url(URLError.Code)
    /// The body was longer than the cap.
    case tooLarge
    /// The calling task was cancelled.
    case cancelled
    /// The answer was not an HTTP response.
    case notHTTP
    /// A failure with no `URLError` code for it (the IPv6 transport's: an `https` IPv6 URL on
    /// Linux, no route to the address), in words for a person.
    case described(String)
  }

  private let session: URLSession
  private let delegate: SessionDelegate

  init(configuration: URLSessionConfiguration) {
    let delegate = SessionDelegate()
    self.delegate = delegate
    self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }

  deinit {
    // The session keeps its delegate (and its connections) until it is invalidated.
    session.finishTasksAndInvalidate()
  }

  /// Sends `request` and returns its status and, for a `200`, its body.
  ///
  /// - Parameters:
  ///   - request: The request to send.
  ///   - limit: The most body bytes accepted.
  /// - Returns: The response and the body (empty unless the status is `200`).
  /// - Throws: ``Failure``.
  func load(_ request: URLRequest, limit: Int) async throws(Failure) -> (HTTPURLResponse, Data) {
    if Task.isCancelled { throw .cancelled }
    #if canImport(FoundationNetworking) && canImport(Glibc)
      // FoundationNetworking refuses IPv6 addresses outright; see IPv6HTTPTransport.
      if IPv6HTTPTransport.handles(request.url) {
        return try await IPv6HTTPTransport.load(request, limit: limit)
      }
    #endif
    let task = session.dataTask(with: request)
    let exchange = Exchange(task: task, limit: limit)
    delegate.register(exchange, for: task)
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        exchange.start(continuation)
      }
    } onCancel: {
      exchange.finish(.failure(.cancelled))
    }
    return try result.get()
  }
}

/// Routes the session's delegate calls to the exchange of each task.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
  private let exchanges = Guarded<[Int: Exchange]>([:])

  func register(_ exchange: Exchange, for task: URLSessionTask) {
    exchanges.withLock { $0[task.taskIdentifier] = exchange }
  }

  private func exchange(for task: URLSessionTask) -> Exchange? {
    exchanges.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let proceed = exchange(for: dataTask)?.received(response) ?? false
    completionHandler(proceed ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    exchange(for: dataTask)?.received(data)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    // A login is never sent on: the 3xx answer itself completes the task.
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    exchange?.completed(error: error, response: task.response)
  }
}

/// One request: its task, what has arrived so far, and the caller waiting for it.
private final class Exchange: Sendable {
  typealias Result = Swift.Result<(HTTPURLResponse, Data), CappedDataLoader.Failure>

  private struct State {
    var continuation: CheckedContinuation<Result, Never>?
    var response: HTTPURLResponse?
    var body = Data()
    /// Set once: the first outcome wins, later ones are dropped.
    var outcome: Result?
  }

  private let task: URLSessionDataTask
  private let limit: Int
  private let state = Guarded(State())

  init(task: URLSessionDataTask, limit: Int) {
    self.task = task
    self.limit = limit
  }

  /// Hands over the caller's continuation and starts the task — unless the exchange has
  /// already ended (the caller was cancelled before it got here).
  func start(_ continuation: CheckedContinuation<Result, Never>) {
    let earlyOutcome = state.withLock { state -> Result? in
      if let outcome = state.outcome { return outcome }
      state.continuation = continuation
      return nil
    }
    if let earlyOutcome {
      continuation.resume(returning: earlyOutcome)
      task.cancel()
    } else {
      task.resume()
    }
  }

  /// Ends the exchange with `outcome` if it has not ended yet; stops the task when the outcome
  /// does not come from its completion.
  func finish(_ outcome: Result, cancelTask: Bool = true) {
    let continuation = state.withLock { state -> CheckedContinuation<Result, Never>? in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      state.body = Data()
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume(returning: outcome)
    if cancelTask { task.cancel() }
  }

  /// The headers arrived. Returns whether the body is wanted.
  func received(_ response: URLResponse) -> Bool {
    guard let http = response as? HTTPURLResponse else {
      finish(.failure(.notHTTP))
      return false
    }
    guard http.statusCode == 200 else {
      finish(.success((http, Data())))
      return false
    }
    if http.expectedContentLength > Int64(limit) {
      finish(.failure(.tooLarge))
      return false
    }
    state.withLock { $0.response = http }
    return true
  }

  /// A chunk of the body arrived.
  func received(_ data: Data) {
    let overflow = state.withLock { state -> Bool in
      guard state.outcome == nil else { return false }
      guard state.body.count + data.count <= limit else { return true }
      state.body.append(data)
      return false
    }
    if overflow { finish(.failure(.tooLarge)) }
  }

  /// The task completed: with the collected answer, or with `error`.
  ///
  /// - Parameters:
  ///   - error: Why the task failed, if it did.
  ///   - response: The task's response, for an answer whose headers never reached
  ///     `received(_:)` (FoundationNetworking completes a refused redirect
  ///     without announcing its response).
  func completed(error: (any Error)?, response: URLResponse?) {
    let collected = state.withLock { state in state.response.map { ($0, state.body) } }
    if let error {
      var code = Self.code(of: error)
      // FoundationNetworking reports most curl failures as "unknown" (-1). Once a 200's headers
      // have arrived the connection plainly worked, so a failure now is the connection lost
      // mid-answer (a server that closes before its declared Content-Length, a reset).
      if code == .unknown, collected != nil { code = .networkConnectionLost }
      finish(.failure(.url(code)), cancelTask: false)
      return
    }
    if let collected {
      finish(.success(collected), cancelTask: false)
    } else if let http = response as? HTTPURLResponse, http.statusCode != 200 {
      finish(.success((http, Data())), cancelTask: false)
    } else {
      finish(.failure(.notHTTP), cancelTask: false)
    }
  }

  private static func code(of error: any Error) -> URLError.Code {
    if let error = error as? URLError { return error.code }
    let error = error as NSError
    guard error.domain == NSURLErrorDomain else { return .unknown }
    return URLError.Code(rawValue: error.code) ?? .unknown
  }
}
