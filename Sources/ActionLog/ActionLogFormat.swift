import Foundation
import StateStore

/// The on-disk format of an action log, version 1: JSON Lines, one JSON object per line.
///
/// Each kind of line is one type, and the type reads itself (`Decodable`) and writes itself:
/// it states its fields — keys, order, values — once, and both the recorder's writer and, for
/// the header and the step, the public `Encodable` conformance write that one list, so the two
/// cannot disagree. Every key of every line is spelled once, in the package's
/// `ActionLogFormat.Key`.
///
/// - The header, ``ActionLogHeader``: the first line.
/// - A step, ``RecordedTransition``: one reduced action. A checkpoint is a step that also
///   carries the full state.
/// - The marker lines (a gap, a stopped and a closed marker): the reader turns a gap into
///   ``ActionLogEntry/gap(line:dropped:state:)`` and a stopped marker into a warning; their
///   types are the package's own.
///
/// The header is a versioned envelope that a reader checks before anything else:
///
/// <!-- sample: lines of Tests/ActionLogTests/Fixtures/login.jsonl -->
/// ```text
/// {"format":"loginstore.actionlog","version":1,"feature":"login","created":"2026-11-25T01:54:55Z",…,"checkpointInterval":4,"initialState":{…}}
/// ```
///
/// A step line (no `kind` key) records one reduced action: its sequence number, when it was
/// sent (milliseconds since recording started), who sent it,
/// the action, the effects the reducer returned, the values the reducer read (`inputs`, on a
/// step that read the date, a new id or a random number: ``StateStore/StepInputs``), and the
/// ``StateDigest`` of the state after it. Every `checkpointInterval`-th step also carries the full state after it, in canonical
/// JSON, under `checkpoint`; every other step its `patch`, what the action changed in the state
/// (specified in the "Action logs and replay" article), so a reader rebuilds the recorded state
/// of every step (``ActionLogReader/recordedState()``):
///
/// <!-- sample: lines of Tests/ActionLogTests/Fixtures/login.jsonl -->
/// ```text
/// {"seq":1,"time":1,"origin":"user","action":{"edit":{"_0":{"field":"username","value":"d"}}},"effects":[],"digest":"07271524a878dfd1","patch":[{"at":["username"],"value":"d"},{"at":["usernameEdited"],"value":true}]}
/// {"seq":4,"time":1,"origin":"user",…,"digest":"837ddd3667cb5497","checkpoint":{…}}
/// {"seq":6,"time":7,"origin":"effect","action":{"loginResponse":…},"effects":[…],"digest":"…","patch":[…]}
/// ```
///
/// Marker lines have a `kind`:
///
/// - `{"kind":"gap","dropped":12,"state":{…}}` — the recorder fell behind and dropped 12
///   transitions; `state` is the state before the next step line, so a replay resumes there.
/// - `{"kind":"stopped","reason":"maximumFileSize","limit":1048576}` — the recorder stopped
///   because the next line would have passed the maximum file size. Nothing follows.
/// - `{"kind":"stopped","reason":"lineTooLong","limit":16777216}` — the recorder stopped
///   because the next line would have been longer than a reader accepts
///   (``RecordingOptions/maximumLineLength``). Nothing follows.
/// - `{"kind":"closed"}` — the recorder was closed normally. Nothing follows.
///
/// Keys come in the order shown, and values are the package's canonical JSON (specified in the
/// "Action logs and replay" article: keys sorted by their UTF-8 bytes, numbers and strings
/// written one way), so any `Codable` state, action and effect fits and the same session gives
/// the same bytes on every platform. A ``StateStore/Secret`` encodes as its shape mask:
/// the password itself never reaches the file, and a replay re-validates the mask exactly as
/// the original run validated the password.
///
/// Read a log with ``ActionLogReader``, which checks every line against this format and
/// decodes it in the canonical form its header names:
///
/// ```swift
/// let reader = try ActionLogReader<CounterState, CounterAction, Never>(url: log)
/// while let entry = try reader.next() {
///   if case .transition(let step) = entry { print(step.sequenceNumber) }   // 1, 2, …
/// }
/// ```
public enum ActionLogFormat {
  /// The header's `format` value.
  public static let name = "loginstore.actionlog"
  /// The version this build writes and reads.
  public static let version = 1
  /// The digest algorithm this build writes, named with its version in every header: FNV-1a 64
  /// of the state's canonical JSON, in the canonical form's second version
  /// (`fnv1a64-canonical-v2`, a `Duration` as a number of seconds).
  ///
  /// A reader also reads, replays and verifies logs of the first version,
  /// `fnv1a64-canonical-v1` (a `Duration` as two words of attoseconds), in that version; a
  /// header without the name (logs recorded before it was written) means the first version.
  public static let digestAlgorithm = CanonicalForm.current.digestAlgorithm

  /// Every key of every line: the one place a key is spelled.
  ///
  /// The line types decode and encode with these keys, the recorder's writer builds its
  /// fixed fragments from them, and the reader's messages name them.
  ///
  /// ```swift
  /// ActionLogFormat.Key.seq.rawValue   // "seq"
  /// ```
  package enum Key: String, CodingKey, CaseIterable, Sendable {
    /// Header: the format's name, ``ActionLogFormat/name``.
    case format
    /// Header: the format's version, ``ActionLogFormat/version``.
    case version
    /// Header: the recorded feature's name.
    case feature
    /// Header: when recording started, ISO 8601, to the second.
    case created
    /// Header: the launch that wrote a flight recorder's segment (``ActionLogHeader/launch``);
    /// missing in a plain log and in segments recorded before launches were named.
    case launch
    /// Header: how many steps lie between two checkpoints; 0 for none.
    case checkpointInterval
    /// Header: the state before the first step.
    case initialState
    /// Step: the store's sequence number of the action.
    case seq
    /// Step: when the action was sent, in whole milliseconds since recording started (the
    /// header's `created`); missing in logs recorded before steps had times.
    case time
    /// Step: `user` or `effect` (``StateStore/ActionOrigin``).
    case origin
    /// Step: the action.
    case action
    /// Step: the effects the reducer returned.
    case effects
    /// Step: the values the reducer read (``StateStore/StepInputs``: the date, new ids, random
    /// numbers), on steps that read any; missing in logs recorded before reducers had inputs,
    /// which read none.
    case inputs
    /// Step: the ``StateDigest`` of the state after the action, 16 hex digits. Header: the
    /// digest algorithm, ``ActionLogFormat/digestAlgorithm``.
    case digest
    /// Step: what the action changed in the state, as operations on the state before it, on
    /// every step that is not a checkpoint (missing in logs recorded before steps had patches).
    case patch
    /// Step: the full state after the action, on checkpoint steps only.
    case checkpoint
    /// Marker: what kind of marker the line is (`MarkerKind`).
    case kind
    /// Gap marker: how many transitions were dropped.
    case dropped
    /// Gap marker: the state before the next step.
    case state
    /// Stopped marker: why the recorder stopped (`StopReason`). Warning marker: what the
    /// recorder met, in words.
    case reason
    /// Stopped marker: the limit that was reached, in bytes.
    case limit
  }

  /// The `kind` of a marker line. A step line and the header have no `kind`.
  package enum MarkerKind: String, Codable, CaseIterable, Sendable {
    /// `Gap`: transitions were dropped here.
    case gap
    /// `Stopped`: the recorder stopped early; nothing follows.
    case stopped
    /// `Closed`: the recorder was closed normally; nothing follows.
    case closed
    /// `Warning`: the recorder met a problem that did not stop it; the log goes on.
    case warning
  }

  /// Why a recorder stopped early: the `reason` of a `Stopped` marker.
  package enum StopReason: String, CaseIterable, Sendable {
    /// The next line would have passed ``RecordingOptions/maximumFileSize``.
    case maximumFileSize
    /// The next line would have been longer than ``RecordingOptions/maximumLineLength``, the
    /// longest line a reader accepts.
    case lineTooLong
  }
}
