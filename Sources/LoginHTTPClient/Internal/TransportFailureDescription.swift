import Foundation
import LoginFeature

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Words a person can act on for a transport failure: what went wrong, and where.
///
/// Built from the error code and the URL's host and port only — never from a body, a header
/// or the credentials. ``LoginFeature/LoginServiceError/message`` wraps it: "Could not reach the server
/// (connection refused at 127.0.0.1:9). Please check your connection."
///
/// Every code a data task can end with has its own words; the code number shows only for the
/// ones no person could act on anyway ("…failed unexpectedly, error -1"). FoundationNetworking
/// reports most of libcurl's failures as `unknown` (-1), so the loader narrows that down first
/// where it can (a failure after the headers is a lost connection).
enum TransportFailureDescription {
  /// `host:port` of `url`, with the scheme's default port when none is given, and an IPv6
  /// address in brackets (`[::1]:8080`).
  static func address(of url: URL) -> String {
    let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    guard let host = url.host, !host.isEmpty else { return "the server:\(port)" }
    let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    return "\(bracketed):\(port)"
  }

  /// Why a URL whose host is an IPv6 address cannot be used on Linux, and what to use instead.
  static func ipv6AddressLiteral(in url: URL) -> String {
    let host = url.host ?? ""
    let bracketed = host.hasPrefix("[") ? host : "[\(host)]"
    return "FoundationNetworking on Linux cannot connect to an IPv6 address literal "
      + "(\(bracketed)); use a host name that resolves to it"
  }

  /// A short description of a failure with `code` while talking to `url`, to go in parentheses
  /// after "Could not reach the server".
  static func describe(_ code: URLError.Code, url: URL) -> String {
    let address = address(of: url)
    switch code {
    // Reaching the server at all.
    case .cannotConnectToHost:
      return "connection refused at \(address)"
    case .cannotFindHost, .dnsLookupFailed:
      return "no server named \(url.host ?? "(none)") was found"
    case .notConnectedToInternet:
      return "this device is offline"
    case .internationalRoamingOff:
      return "this device is offline: data roaming is turned off"
    case .dataNotAllowed:
      return "this device is offline: it may not use mobile data"
    case .callIsActive:
      return "a phone call is using the connection"
    case .cannotLoadFromNetwork:
      return "this device may not use the network right now"
    case .timedOut:
      return "\(address) did not answer in time"
    case .networkConnectionLost:
      return "the connection to \(address) was lost"

    // What the server answered.
    case .badServerResponse, .cannotParseResponse:
      // What a server that closes without a byte gets too, on Linux (FoundationNetworking
      // reports it as a bad response in some runs): words true of both.
      return "\(address) closed the connection without a valid HTTP answer"
    case .zeroByteResource:
      return "\(address) closed the connection without answering"
    case .cannotDecodeRawData, .cannotDecodeContentData:
      return "\(address) sent an answer that could not be decoded"
    case .dataLengthExceedsMaximum:
      return "\(address) sent an answer that is too long"
    case .resourceUnavailable:
      return "\(address) has no login service at that address"
    case .userAuthenticationRequired, .userCancelledAuthentication:
      return "\(address) asked for a separate HTTP sign-in"
    case .httpTooManyRedirects, .redirectToNonExistentLocation:
      return "\(address) redirected the login elsewhere"
    case .requestBodyStreamExhausted:
      return "the login could not be sent to \(address) in full"

    // A secure connection.
    case .secureConnectionFailed:
      return "no secure connection could be made to \(address)"
    case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
      return "the certificate of \(address) is not trusted"
    case .serverCertificateHasBadDate:
      return "the certificate of \(address) has expired"
    case .serverCertificateNotYetValid:
      return "the certificate of \(address) is not valid yet"
    case .clientCertificateRejected:
      return "\(address) rejected this device's certificate"
    case .clientCertificateRequired:
      return "\(address) requires a certificate this device does not have"
    case .appTransportSecurityRequiresSecureConnection:
      return "this app allows only secure (https) connections, and \(address) is not one"

    // The address itself.
    case .badURL, .unsupportedURL:
      return "\(url.scheme ?? "")://\(address) is not an address this device can use"

    default:
      return "the connection to \(address) failed unexpectedly, error \(code.rawValue)"
    }
  }
}
