import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Words a person can act on for a transport failure: what went wrong, and where.
///
/// Built from the error code and the URL's host and port only — never from a body, a header
/// or the credentials. ``LoginServiceError/message`` wraps it: "Could not reach the server
/// (connection refused at 127.0.0.1:9). Please check your connection."
enum TransportFailureDescription {
  /// `host:port` of `url`, with the scheme's default port when none is given.
  static func address(of url: URL) -> String {
    let host = url.host ?? "the server"
    let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    return "\(host):\(port)"
  }

  /// A short description of a failure with `code` while talking to `url`.
  static func describe(_ code: URLError.Code, url: URL) -> String {
    let address = address(of: url)
    switch code {
    case .cannotConnectToHost:
      return "connection refused at \(address)"
    case .cannotFindHost, .dnsLookupFailed:
      return "no server named \(url.host ?? "(none)") was found"
    case .notConnectedToInternet:
      return "this device is offline"
    case .networkConnectionLost:
      return "the connection to \(address) was lost"
    case .badServerResponse:
      return "\(address) sent a malformed HTTP answer"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot,
      .clientCertificateRejected, .clientCertificateRequired:
      return "no secure connection could be made to \(address)"
    case .badURL, .unsupportedURL:
      return "the address \(url.scheme ?? "")://\(address) is not a valid HTTP URL"
    case .httpTooManyRedirects, .redirectToNonExistentLocation:
      return "\(address) redirected too often or to nowhere"
    case .dataLengthExceedsMaximum:
      return "\(address) sent an answer that is too long"
    default:
      return "network error \(code.rawValue) at \(address)"
    }
  }
}
