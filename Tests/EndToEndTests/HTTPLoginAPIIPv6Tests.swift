import Foundation
import LoginFeature
import LoginHTTPClient
import StateStore
import Testing

/// `HTTPLoginAPI` with an IPv6 address as its host.
///
/// FoundationNetworking (Linux) cannot connect to an IPv6 address literal, so there the login
/// fails at once — sending nothing, waiting for no deadline — and says what to do instead. On
/// Apple platforms URLSession connects to such addresses itself; nothing here applies.
struct HTTPLoginAPIIPv6Tests {
  #if canImport(FoundationNetworking)
    /// Written out in full (no `::`) an IPv6 address is still one.
    @Test(arguments: [
      "http://[::1]:9", "https://[::1]", "http://[fe80::1]:8080/api/v1",
      "http://[2001:db8:0:0:0:0:0:1]:8080", "https://[0:0:0:0:0:0:0:1]",
    ])
    func anIPv6AddressFailsAtOnceAndSaysToUseAHostName(baseURL: String) async throws {
      let url = try #require(URL(string: baseURL))
      let host = try #require(url.host)
      // The deadline runs on a clock that never moves, and URLSession's backstop is 30 s: only
      // a refusal before any wait ends the login with these words (a request that went out
      // would be refused at ::1, or time out). No wall-clock bound: on two busy cores this task
      // can wait for a thread longer than any refusal takes (33–42 s seen in the full suite).
      let api = HTTPLoginAPI(baseURL: url, timeout: .seconds(30), clock: ManualClock())

      let result = await api.loginResult("demo")

      let bracketed = host.hasPrefix("[") ? host : "[\(host)]"
      #expect(
        result
          == .failure(
            .transport(
              "FoundationNetworking on Linux cannot connect to an IPv6 address literal "
                + "(\(bracketed)); use a host name that resolves to it")))
    }
  #endif
}
