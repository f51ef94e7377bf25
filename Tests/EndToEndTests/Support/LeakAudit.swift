import Foundation
import StateStore
import Testing

/// Collects the text every output channel produced and checks it for canary secrets.
///
/// A canary is a secret with a value no other text contains. The audit looks for each canary's
/// clear value and for every 6-character piece of it that its mask does not also contain (so a
/// half-masked rendering is caught too). A finding names the channel, the canary, whether its
/// whole value or only a piece was found (canaries may share a piece, such as `Canary`) and the
/// UTF-8 offset — never the canary's text, so the audit's own failure leaks nothing.
///
/// ```swift
/// let audit = LeakAudit(canaries: ["password": "Canary-Pw-7f3e9"])
/// audit.record("Dump.render", Dump.render(state), showing: ["Secret(Aaaaaa*Aa*0a0a0)"])
/// audit.check()
/// ```
final class LeakAudit {
  /// One channel's text, and the masks it must show.
  struct Entry {
    var channel: String
    var text: String
    var masks: [String]
  }

  /// The length of the pieces of a canary looked for.
  static let pieceLength = 6

  /// The canaries by name.
  let canaries: [(name: String, secret: Secret)]
  private(set) var entries: [Entry] = []

  init(canaries: KeyValuePairs<String, Secret>) {
    self.canaries = canaries.map { ($0.key, $0.value) }
  }

  /// Adds the text `channel` produced.
  ///
  /// - Parameters:
  ///   - channel: A name for the failure messages, e.g. `replay --state`.
  ///   - text: Everything the channel produced.
  ///   - masks: Strings that must appear in `text`, proving a secret was rendered, masked.
  func record(_ channel: String, _ text: String, showing masks: [String] = []) {
    entries.append(Entry(channel: channel, text: text, masks: masks))
  }

  /// The pieces of `secret` looked for: the whole value and every piece of ``pieceLength``
  /// characters that is not also part of its mask.
  static func pieces(of secret: Secret) -> [String] {
    let value = Array(secret.reveal())
    let mask = secret.mask
    var pieces = [String(value)]
    if value.count > pieceLength {
      for start in 0...(value.count - pieceLength) {
        let piece = String(value[start..<(start + pieceLength)])
        if !mask.contains(piece) { pieces.append(piece) }
      }
    }
    return pieces
  }

  /// Every problem found: a canary (or a piece of one) in a channel, a channel that produced
  /// nothing, a mask a channel does not show. Never contains a canary's text.
  func problems() -> [String] {
    var problems: [String] = []
    for entry in entries {
      if entry.text.isEmpty {
        problems.append("Channel '\(entry.channel)' produced no text: the audit proves nothing.")
      }
      for canary in canaries {
        let found = Self.pieces(of: canary.secret).enumerated().compactMap { index, piece in
          entry.text.range(of: piece).map {
            (
              whole: index == 0,
              offset: entry.text.utf8.distance(from: entry.text.startIndex, to: $0.lowerBound)
            )
          }
        }
        if let first = found.min(by: { $0.offset < $1.offset }) {
          let what = found.contains { $0.whole } ? "the whole" : "a piece of the"
          problems.append(
            "Channel '\(entry.channel)' leaks \(what) \(canary.name) canary at UTF-8 offset "
              + "\(first.offset) of \(entry.text.utf8.count).")
        }
      }
      for (index, mask) in entry.masks.enumerated() where !entry.text.contains(mask) {
        problems.append(
          "Channel '\(entry.channel)' does not show expected mask #\(index + 1), "
            + "\(Dump.quoted(mask)): the secret was not rendered there.")
      }
    }
    return problems
  }

  /// Records one Swift Testing issue per problem, at the caller's line.
  func check(sourceLocation: SourceLocation = #_sourceLocation) {
    for problem in problems() {
      Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
  }
}
