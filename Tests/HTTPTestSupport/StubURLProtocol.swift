import Foundation
import LoginFeature
import LoginHTTPClient
import StateStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A request as the stub received it.
package struct RecordedRequest: Sendable {
  package var method: String?
  package var url: URL?
  package var headers: [String: String]
  package var body: Data
  package var timeout: TimeInterval
}

/// What the stub answers a request with.
package enum StubAnswer: Sendable {
  /// A response with `status`, `headers` and `body` in chunks (one chunk by default).
  case respond(status: Int, headers: [String: String], chunks: [Data])
  /// A transport failure.
  case fail(URLError.Code)
  /// Nothing, ever: the request hangs until it is cancelled or times out.
  case never

  /// A JSON (or any) body, with its `Content-Length` declared.
  package static func respond(_ status: Int, _ body: String = "") -> StubAnswer {
    .respond(
      status: status,
      headers: ["Content-Type": "application/json", "Content-Length": "\(body.utf8.count)"],
      chunks: [Data(body.utf8)])
  }
}

/// A fake service on a host name of its own, answered by ``StubURLProtocol``.
///
/// Each test gets a fresh host, so tests running in parallel never see each other's stubs.
package struct StubService: Sendable {
  package let host = "stub-\(UUID().uuidString.lowercased()).test"
  /// Every request the stub received, in order.
  package let requests: AsyncStream<RecordedRequest>
  /// One element each time URLSession stopped a request (it was cancelled, or it ended).
  package let stops: AsyncStream<Void>

  package init(_ answer: StubAnswer) {
    let (requests, continuation) = AsyncStream.makeStream(of: RecordedRequest.self)
    let (stops, stopped) = AsyncStream.makeStream(of: Void.self)
    self.requests = requests
    self.stops = stops
    StubURLProtocol.routes.withLock {
      $0[host] = StubURLProtocol.Registration(
        answer: answer, received: continuation, stopped: stopped)
    }
  }

  package var baseURL: URL { URL(string: "http://\(host):8080/api")! }

  /// How long a stubbed exchange may take by default: far beyond what a busy machine needs.
  ///
  /// The stub answers at once, but every URLSession of the process shares FoundationNetworking's
  /// one queue (Linux), which other tests' real servers can keep busy for seconds on a loaded
  /// machine; the client's 10-second default then ran out in the middle of the suite. Tests of
  /// the deadline itself pass a timeout and a clock of their own.
  package static let patientTimeout = Duration.seconds(120)

  /// An API client whose URLSession goes through the stub.
  package func api(
    timeout: Duration = StubService.patientTimeout,
    maximumResponseSize: Int = HTTPLoginAPI.defaultMaximumResponseSize,
    clock: any Clock<Duration> = ContinuousClock()
  ) -> HTTPLoginAPI {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [StubURLProtocol.self]
    return HTTPLoginAPI(
      baseURL: baseURL, timeout: timeout, maximumResponseSize: maximumResponseSize,
      configuration: configuration, clock: clock)
  }

  /// The first request received (waits for it).
  package func firstRequest() async -> RecordedRequest? {
    await requests.first { _ in true }
  }

  /// Whether URLSession stopped a request within `timeout` (of real time).
  package func stopped(within timeout: Duration) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
      group.addTask { await stops.first { _ in true } != nil }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
  }
}

/// Answers requests to a ``StubService`` host with its scripted ``StubAnswer``.
package final class StubURLProtocol: URLProtocol {
  /// One stub host: its scripted answer, and where its requests and its end are reported.
  struct Registration: Sendable {
    let answer: StubAnswer
    let received: AsyncStream<RecordedRequest>.Continuation
    let stopped: AsyncStream<Void>.Continuation
  }

  static let routes = Guarded<[String: Registration]>([:])

  override package class func canInit(with request: URLRequest) -> Bool {
    guard let host = request.url?.host else { return false }
    return routes.withLock { $0[host] != nil }
  }

  override package class func canonicalRequest(for request: URLRequest) -> URLRequest {
    request
  }

  override package func startLoading() {
    guard let url = request.url, let host = url.host,
      let route = Self.routes.withLock({ $0[host] })
    else { return }
    route.received.yield(
      RecordedRequest(
        method: request.httpMethod, url: url, headers: request.allHTTPHeaderFields ?? [:],
        body: Self.body(of: request), timeout: request.timeoutInterval))

    switch route.answer {
    case .respond(let status, let headers, let chunks):
      guard
        let response = HTTPURLResponse(
          url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
      else { return }
      client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
      for chunk in chunks { client?.urlProtocol(self, didLoad: chunk) }
      client?.urlProtocolDidFinishLoading(self)
    case .fail(let code):
      client?.urlProtocol(self, didFailWithError: URLError(code))
    case .never:
      break
    }
  }

  override package func stopLoading() {
    guard let host = request.url?.host, let route = Self.routes.withLock({ $0[host] }) else {
      return
    }
    route.stopped.yield()
  }

  /// The body, whether URLSession kept it as data or turned it into a stream.
  private static func body(of request: URLRequest) -> Data {
    if let body = request.httpBody { return body }
    guard let stream = request.httpBodyStream else { return Data() }
    stream.open()
    defer { stream.close() }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while stream.hasBytesAvailable {
      let count = stream.read(&buffer, maxLength: buffer.count)
      guard count > 0 else { break }
      data.append(buffer, count: count)
    }
    return data
  }
}
