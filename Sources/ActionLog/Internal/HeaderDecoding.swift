import Foundation

/// Checks the header line and maps every way it can be wrong to its error.
enum HeaderDecoding {
  /// The fields checked before the rest of the header — the initial state above all — is
  /// decoded: a log of another format, version or feature is named as such, not as a state
  /// that does not fit.
  private struct Probe: Decodable {
    var format: String?
    var version: Int?
    var feature: String?
    var digest: String?

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: ActionLogFormat.Key.self)
      format = try container.decodeIfPresent(String.self, forKey: .format)
      version = try container.decodeIfPresent(Int.self, forKey: .version)
      feature = try? container.decodeIfPresent(String.self, forKey: .feature)
      digest = try? container.decodeIfPresent(String.self, forKey: .digest)
    }
  }

  /// Reads the first non-empty line as the header.
  ///
  /// - Parameter expectedFeature: The feature the header must name, checked before the header's
  ///   initial state is decoded; `nil` for any.
  /// - Returns: The header, the decoder of the canonical form it names, for the lines after
  ///   it, and the header's line.
  static func decode<Header: Decodable>(
    _ type: Header.Type, from lines: LineReader, expectedFeature: String? = nil
  ) throws(ActionLogError) -> (header: Header, decoder: CanonicalJSONDecoder, line: Data) {
    var first: LineReader.Line?
    while let line = try lines.next() {
      if !line.bytes.isEmpty {
        first = line
        break
      }
    }
    guard let line = first else { throw .emptyFile }
    guard let probe = try? CanonicalJSONDecoder().decode(Probe.self, from: line.bytes) else {
      if !LineClassifier.isText(line.bytes) { throw .notText(line: line.number) }
      if let reason = LineClassifier.unreadableJSON(line.bytes) {
        throw .malformedLine(line: line.number, reason: reason)
      }
      // The recorder writes the format first: this is a header the app did not finish.
      if !line.isTerminated, line.bytes.starts(with: Data(ActionLogFormat.headerOpening.utf8)) {
        throw .malformedLine(
          line: line.number, reason: "the header is cut off (the app stopped while writing it)")
      }
      throw .missingHeader(line: line.number)
    }
    guard let format = probe.format else { throw .missingHeader(line: line.number) }
    guard format == ActionLogFormat.name else { throw .foreignFormat(format) }
    guard let version = probe.version else {
      throw .malformedLine(
        line: line.number, reason: "missing '\(ActionLogFormat.Key.version.rawValue)'")
    }
    guard version == ActionLogFormat.version else {
      throw .unsupportedVersion(found: version, supported: ActionLogFormat.version)
    }
    // A header without the name was recorded before it was written: the first version.
    guard let form = probe.digest.map(CanonicalForm.init(digestAlgorithm:)) ?? .v1 else {
      throw .malformedLine(
        line: line.number,
        reason: "the digest algorithm \(Sanitized.name(probe.digest ?? "")) is not one this "
          + "build verifies ("
          + CanonicalForm.allCases.map(\.digestAlgorithm).joined(separator: ", ") + ")")
    }
    if let expectedFeature, let feature = probe.feature, feature != expectedFeature {
      throw .featureMismatch(expected: expectedFeature, found: feature)
    }
    let decoder = CanonicalJSONDecoder(form: form)
    do {
      return (try decoder.decode(Header.self, from: line.bytes), decoder, line.bytes)
    } catch {
      throw .malformedLine(line: line.number, reason: DecodingErrorReason.describe(error))
    }
  }
}
