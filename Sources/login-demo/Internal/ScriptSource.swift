import ActionLog
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where script mode reads its lines: a file (`--script FILE`) or stdin, one line at a time.
enum ScriptSource {
  /// The lines of the file at `path`, or of stdin when `path` is `nil`.
  ///
  /// - Throws: ``DemoFailure`` when the file cannot be read.
  static func lines(path: String?) throws(DemoFailure) -> AnySequence<String> {
    guard let path else {
      return AnySequence { AnyIterator { readLine(strippingNewline: true) } }
    }
    guard let file = fopen(path, "r") else {
      throw DemoFailure(
        "cannot read script \(Sanitized.path(path)): \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
      if count == 0 { break }
      bytes += buffer[0..<count]
    }
    if ferror(file) != 0 {
      throw DemoFailure("cannot read script \(Sanitized.path(path))")
    }
    var text = String(decoding: bytes, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    if text.isEmpty { return AnySequence([]) }
    return AnySequence(
      text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
  }
}
