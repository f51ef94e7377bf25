/// The on-disk format of an action log, version 1: JSON Lines, one JSON object per line.
///
/// The first line is the header, a versioned envelope that a reader checks before anything
/// else:
///
/// ```text
/// {"format":"loginstore.actionlog","version":1,"feature":"counter","created":"2026-11-22T04:56:22Z","checkpointInterval":100,"initialState":{"count":0}}
/// ```
///
/// Each further line is one kind of entry. A transition line (no `kind` key) records one
/// reduced action: its sequence number, who sent it, the action, the effects the reducer
/// returned, and the ``StateDigest`` of the state after it. Every `checkpointInterval`-th
/// transition also carries the full state after it, in canonical JSON, under `checkpoint`:
///
/// ```text
/// {"seq":1,"origin":"user","action":{"increment":{}},"effects":[],"digest":"a3f0c9e2d4b61785"}
/// {"seq":100,"origin":"effect","action":{"loaded":{"_0":7}},"effects":[],"digest":"…","checkpoint":{"count":7}}
/// ```
///
/// Marker lines have a `kind`:
///
/// - `{"kind":"gap","dropped":12,"state":{…}}` — the recorder fell behind and dropped 12
///   transitions; `state` is the state before the next transition line, so a replay resumes
///   there.
/// - `{"kind":"stopped","reason":"maximumFileSize","limit":1048576}` — the recorder stopped
///   because the next line would have passed the maximum file size. Nothing follows.
/// - `{"kind":"stopped","reason":"lineTooLong","limit":16777216}` — the recorder stopped
///   because the next line would have been longer than a reader accepts
///   (``RecordingOptions/maximumLineLength``). Nothing follows.
/// - `{"kind":"closed"}` — the recorder was closed normally. Nothing follows.
///
/// Values are encoded with `JSONEncoder` (default strategies), so any `Codable` state, action
/// and effect fits. A ``StateStore/Secret`` encodes as its shape mask: the password itself never reaches
/// the file, and a replay re-validates the mask exactly as the original run validated the
/// password.
public enum ActionLogFormat {
  /// The header's `format` value.
  public static let name = "loginstore.actionlog"
  /// The version this build writes and reads.
  public static let version = 1
}
