import Foundation

/// The one encoder configuration used for digests and checkpoints.
enum CanonicalJSON {
  static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  static let newline = UInt8(ascii: "\n")
}
