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
/// No caller ever waits on URLSession. FoundationNetworking runs every session of the process on
/// one serial queue, and creating, resuming and cancelling a task wait on it (Swift 6.3.1) — for
/// as long as a hostile answer (an endless run of chunked trailers) keeps it parsing. So every
/// call into the session is made on the loader's own serial queue, and the caller waits only on
/// its continuation: an exchange that ends (at its deadline, cancelled) returns at once, and the
/// task's cancellation completes whenever URLSession gets to it.
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
    /// The host is an IPv6 address, which FoundationNetworking cannot connect to (Linux only);
    /// nothing was sent.
    case ipv6AddressLiteral
  }

  private let session: URLSession
  private let delegate: SessionDelegate
  /// Where every call into `session` is made: never on the caller's thread.
  private let sessionQueue = DispatchQueue(label: "LoginHTTPClient.CappedDataLoader.session")

  init(configuration: URLSessionConfiguration) {
    let delegate = SessionDelegate()
    self.delegate = delegate
    self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }

  deinit {
    // The session keeps its delegate (and its connections) until it is invalidated; that waits
    // on URLSession too, so it happens on the session queue, not wherever the last reference
    // went away.
    sessionQueue.async { [session] in session.finishTasksAndInvalidate() }
  }

  /// Sends `request` and returns its status and, for a `200`, its body.
  ///
  /// Returns as soon as the exchange ends — an answer, a failure, or the calling task
  /// cancelled — without waiting for URLSession to stop the transfer.
  ///
  /// - Parameters:
  ///   - request: The request to send.
  ///   - limit: The most body bytes accepted.
  /// - Returns: The response and the body (empty unless the status is `200`).
  /// - Throws: ``Failure``.
  func load(_ request: URLRequest, limit: Int) async throws(Failure) -> (HTTPURLResponse, Data) {
    if Task.isCancelled { throw .cancelled }
    #if canImport(FoundationNetworking)
      // FoundationNetworking refuses an IPv6 address as the host (swift-corelibs-foundation
      // issue 5496); say so at once rather than as an unexplained failure.
      if Self.isIPv6Literal(request.url) { throw .ipv6AddressLiteral }
    #endif
    let exchange = Exchange(limit: limit, queue: sessionQueue)
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        exchange.wait(continuation)
        sessionQueue.async { [session, delegate] in
          let task = session.dataTask(with: request)
          delegate.register(exchange, for: task)
          exchange.start(task)
        }
      }
    } onCancel: {
      exchange.finish(.failure(.cancelled))
    }
    return try result.get()
  }

  /// Whether the host of `url` is an IPv6 address (`http://[::1]:8080`).
  static func isIPv6Literal(_ url: URL?) -> Bool {
    url?.host?.contains(":") == true
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
    var task: URLSessionDataTask?
    var response: HTTPURLResponse?
    var body = Data()
    /// How many pieces of body have arrived.
    var deliveries = 0
    /// Set once: the first outcome wins, later ones are dropped.
    var outcome: Result?
  }

  private let limit: Int
  /// The loader's session queue, where the task is started and cancelled.
  private let queue: DispatchQueue
  private let state = Guarded(State())

  init(limit: Int, queue: DispatchQueue) {
    self.limit = limit
    self.queue = queue
  }

  /// Hands over the caller's continuation — answered at once when the exchange has already
  /// ended (the caller was cancelled before it got here).
  func wait(_ continuation: CheckedContinuation<Result, Never>) {
    let earlyOutcome = state.withLock { state -> Result? in
      if let outcome = state.outcome { return outcome }
      state.continuation = continuation
      return nil
    }
    if let earlyOutcome { continuation.resume(returning: earlyOutcome) }
  }

  /// Starts `task`, on the session queue — unless the exchange has already ended, when it is
  /// cancelled instead.
  func start(_ task: URLSessionDataTask) {
    let hasEnded = state.withLock { state -> Bool in
      state.task = task
      return state.outcome != nil
    }
    if hasEnded { task.cancel() } else { task.resume() }
  }

  /// Ends the exchange with `outcome` if it has not ended yet, and answers the caller at once.
  /// Unless the outcome comes from the task's completion, the task is cancelled later, on the
  /// session queue: cancelling waits on URLSession, which a hostile answer can keep busy.
  func finish(_ outcome: Result, cancelTask: Bool = true) {
    let (continuation, task) = state.withLock {
      state -> (CheckedContinuation<Result, Never>?, URLSessionDataTask?) in
      guard state.outcome == nil else { return (nil, nil) }
      state.outcome = outcome
      state.body = Data()
      defer { state.continuation = nil }
      return (state.continuation, state.task)
    }
    continuation?.resume(returning: outcome)
    if cancelTask, let task { queue.async { task.cancel() } }
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

  /// The most pieces of body one answer may come in: 4,096, or one per 256 bytes of the cap
  /// when that is more.
  ///
  /// FoundationNetworking spends a few hundred bytes on every piece libcurl hands over, beyond
  /// the piece itself, and keeps them until the transfer ends: a body of a million one-byte
  /// chunks held about 330 MiB against a 1 MiB cap. No real answer comes in pieces this small,
  /// so an answer in more pieces than this ends as too large.
  private var maximumDeliveries: Int { max(4_096, limit / 256) }

  /// A chunk of the body arrived.
  func received(_ data: Data) {
    let overflow = state.withLock { state -> Bool in
      guard state.outcome == nil else { return false }
      state.deliveries += 1
      guard state.body.count + data.count <= limit, state.deliveries <= maximumDeliveries else {
        return true
      }
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
