/// Everything that can go wrong while recording, reading, replaying or verifying an action log.
///
/// Every message is one line a person can act on, names the line or step it is about, and
/// never contains a value from the file beyond a sanitized name (an action case, a format
/// name): no raw line text, no secret. A ``divergence(step:action:reason:diff:)`` names its
/// action on one line and adds the state or effect diff below its headline, both read from
/// canonical JSON, so secrets show as the masks the log holds.
///
/// <!-- sample: action-log-errors -->
/// ```text
/// line 7: unknown action case 'frobnicate'
/// this build reads version 1; the file is version 2
/// ```
///
/// Five cases are warnings rather than failures. Four a replay meets, goes on after and reports
/// in ``ReplaySession/warnings``: ``truncatedLastLine(line:)``, ``transitionsDropped(line:count:)``,
/// ``recordingStopped(line:reason:)`` and ``recorderWarning(line:message:)``; a flight recorder
/// tells its `onError` the fifth, ``folderWarning(_:)``, and records on. ``isWarning`` tells
/// them apart.
public enum ActionLogError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file holds nothing (or only blank lines).
  case emptyFile
  /// The first line is JSON but not an action log header.
  case missingHeader(line: Int)
  /// The header names another format.
  case foreignFormat(String)
  /// The header's version is one this build cannot read.
  case unsupportedVersion(found: Int, supported: Int)
  /// The log records another feature than the reader expects.
  case featureMismatch(expected: String, found: String)
  /// A line is not valid JSON or does not have the shape of its kind.
  case malformedLine(line: Int, reason: String)
  /// A transition's action is a case this build does not know.
  case unknownAction(line: Int, name: String)
  /// A line is longer than the reader's limit; reading stopped there with bounded memory.
  case lineTooLong(line: Int, limit: Int)
  /// A line is binary data, not UTF-8 text.
  case notText(line: Int)
  /// Warning: the last line has no newline and does not parse — the app stopped mid-write.
  case truncatedLastLine(line: Int)
  /// Warning: the recorder fell behind and dropped transitions; replay resumes from the state
  /// recorded at this line.
  case transitionsDropped(line: Int, count: Int)
  /// Warning: the recorder stopped at this line (for example at its maximum file size).
  case recordingStopped(line: Int, reason: String)
  /// Warning: the recorder met a problem that did not stop it, and wrote it into the log at
  /// this line — a flight recorder's old segment it could not delete to keep its folder within
  /// budget. `message` is the recorder's words, as the line holds them.
  case recorderWarning(line: Int, message: String)
  /// Verification found a step whose replayed state or effects differ from the recording.
  case divergence(step: Int, action: String, reason: String, diff: String?)
  /// A value has no canonical JSON: its type, and what was met where (a NaN at `a.b`, say).
  case encodingFailed(String)
  /// The file could not be opened, read or written.
  case ioError(String)
  /// The file changed under a reader that does not follow it: cut shorter, or rewritten from
  /// its start (the app recorded its path again), while it was read. Nothing from this line on
  /// is the log that was opened.
  case rewrittenWhileRead(line: Int)
  /// Warning: a flight recorder left something in its folder as it was, and recording went on:
  /// a file with a segment's name that it did not write (never counted, never deleted), or a
  /// segment it could not delete to keep the folder within its budget. Each is said once, to
  /// `onError` and in a `warning` line of the segment being written.
  case folderWarning(String)
  /// A segment of a flight recording could not be replayed: the file, and what is wrong with
  /// it (the first line of the underlying error).
  case badSegment(file: String, reason: String)

  /// Whether this is a warning that does not stop a replay.
  public var isWarning: Bool {
    switch self {
    case .truncatedLastLine, .transitionsDropped, .recordingStopped, .recorderWarning,
      .folderWarning:
      true
    default: false
    }
  }

  /// A one-line message (plus, for a divergence, the diff below it).
  public var description: String {
    switch self {
    case .emptyFile:
      return "the file is empty: an action log starts with a header line"
    case .missingHeader(let line):
      return "line \(line): missing header: an action log starts with "
        + ActionLogFormat.headerOpening + ActionLogFormat.separator(.version)
        + "\(ActionLogFormat.version),…}"
    case .foreignFormat(let format):
      return "not an action log: the header's format is \(Sanitized.name(format)), "
        + "expected '\(ActionLogFormat.name)'"
    case .unsupportedVersion(let found, let supported):
      return "this build reads version \(supported); the file is version \(found)"
    case .featureMismatch(let expected, let found):
      return "the log records feature \(Sanitized.name(found)); "
        + "this replayer is for \(Sanitized.name(expected))"
    case .malformedLine(let line, let reason):
      return "line \(line): malformed: \(reason)"
    case .unknownAction(let line, let name):
      return "line \(line): unknown action case \(Sanitized.name(name))"
    case .lineTooLong(let line, let limit):
      return "line \(line): longer than the limit of \(limit) bytes; reading stopped there"
    case .notText(let line):
      return "line \(line): binary data, not text; is this an action log?"
    case .truncatedLastLine(let line):
      return "line \(line): the last line is incomplete (the app stopped mid-write); "
        + "everything before it was replayed"
    case .transitionsDropped(let line, let count):
      return "line \(line): \(count) transition\(count == 1 ? " was" : "s were") dropped "
        + "while recording (the writer fell behind); replay resumes from the state recorded there"
    case .recordingStopped(let line, let reason):
      return "line \(line): recording stopped here: \(reason)"
    case .recorderWarning(let line, let message):
      return "line \(line): the recorder warned: \(Sanitized.text(message))"
    case .divergence(let step, let action, let reason, let diff):
      let headline = "step \(step) (\(action)): \(reason)"
      guard let diff else { return headline }
      return headline + "\n" + diff
    case .encodingFailed(let what):
      return "could not encode \(what) as canonical JSON"
    case .ioError(let message):
      return "I/O error: \(message)"
    case .rewrittenWhileRead(let line):
      return "line \(line): the file was rewritten or cut while it was read (was its path "
        + "recorded again?); nothing from here on is the log that was opened: read it again"
    case .folderWarning(let message):
      return "warning: \(message)"
    case .badSegment(let file, let reason):
      return "\(Sanitized.name(file)): \(reason)"
    }
  }
}
