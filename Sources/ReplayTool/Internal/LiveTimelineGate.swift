/// Who may ask `replay --serve` for anything: the developer at this machine, holding the URL it
/// printed.
///
/// - Every request carries the run's token in its query (`?token=…`): a random value of 256
///   bits made for this run, printed in the URL and nowhere else. Without it, or with another
///   one, the answer is 403 with no content.
/// - `Host` names the server as the browser reached it (`127.0.0.1:PORT`, `localhost:PORT` or
///   `[::1]:PORT`): a page of another site whose name was rebound to 127.0.0.1 sends its own
///   name, and is refused.
/// - An `Origin`, when present, is the server's own: another site's page cannot read or send
///   to it even if it guessed the token.
///
/// Every answer carries the page's Content-Security-Policy, `Cache-Control: no-store` (the
/// page holds the log's names; the token is in its address) and `X-Content-Type-Options:
/// nosniff`; none says why a request was refused beyond its status.
struct LiveTimelineGate: Sendable {
  /// The run's token, as it appears in the URL (64 hexadecimal digits).
  let token: String
  /// The port the server listens on.
  let port: UInt16

  /// A gate with a new random token.
  init(port: UInt16) {
    var generator = SystemRandomNumberGenerator()
    self.init(
      token: (0..<4).map { _ in Self.hex(generator.next() as UInt64) }.joined(), port: port)
  }

  init(token: String, port: UInt16) {
    self.token = token
    self.port = port
  }

  /// The URL to open, token included.
  var pageURL: String { "http://127.0.0.1:\(port)/?token=\(token)" }

  /// `nil` when the request may be answered, else the refusal to send.
  func refusal(of request: LoopbackServer.Request) -> LoopbackServer.Response? {
    let hosts = ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"]
    guard let host = request.header("host")?.lowercased(), hosts.contains(host) else {
      return secured(.plain(403, "forbidden"))
    }
    if let origin = request.header("origin"), !hosts.contains(where: { origin == "http://" + $0 }) {
      return secured(.plain(403, "forbidden"))
    }
    guard let given = request.query["token"], Self.same(given, token) else {
      return secured(.plain(403, "forbidden"))
    }
    return nil
  }

  /// `response` with the headers every answer carries.
  func secured(_ response: LoopbackServer.Response) -> LoopbackServer.Response {
    var response = response
    response.headers += [
      ("Content-Security-Policy", TimelinePage.contentSecurityPolicy(live: true)),
      ("Cache-Control", "no-store"),
      ("X-Content-Type-Options", "nosniff"),
      ("Referrer-Policy", "no-referrer"),
    ]
    return response
  }

  /// Compares in time that does not depend on where the two differ.
  private static func same(_ given: String, _ token: String) -> Bool {
    let a = Array(given.utf8)
    let b = Array(token.utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
