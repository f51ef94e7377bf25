import Foundation
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder written by a ``FlightRecorder``: its segments, in order, and a replay across them.
///
/// ```swift
/// let recording = try FlightRecording(folder: logsFolder)
/// let replay = try recording.replay(with: AppReducer())
/// while let event = try replay.next() {
///   if case .step(let step) = event { print(TransitionFormatter().format(step.transition)) }
/// }
/// ```
public struct FlightRecording: Sendable {
  /// One segment file.
  public struct Segment: Sendable, Equatable {
    /// Its number: `segment-000007.jsonl` is 7.
    public var number: Int
    /// Its file.
    public var url: URL
    /// The launch that wrote it (``ActionLogHeader/launch``); `nil` for a segment recorded
    /// before launches were named, or whose header cannot be read.
    public var launch: String?

    /// Creates a segment.
    ///
    /// - Parameters:
    ///   - number: Its number.
    ///   - url: Its file.
    ///   - launch: The launch that wrote it.
    public init(number: Int, url: URL, launch: String? = nil) {
      self.number = number
      self.url = url
      self.launch = launch
    }
  }

  /// The folder.
  public let folder: URL
  /// The segments kept: the regular files that bear a segment's name, launch by launch in the
  /// order the launches began (by their oldest segment kept), each launch's in order. Launches
  /// that wrote into the folder at the same time interleave their numbers; a replay reads each
  /// launch whole. Segments recorded before launches were named count as one launch.
  public let segments: [Segment]
  /// What bears a segment's name but is not a file — a FIFO, a device, a folder, a symbolic
  /// link — each named: `'segment-000003.jsonl' is a FIFO, not a segment file; skipped`. A
  /// replay reads none of them, and starts its warnings with these.
  public let warnings: [String]
  /// Every number that bears a segment's name, file or not.
  let listedNumbers: Set<Int>

  /// Lists the segments of `folder`.
  ///
  /// - Parameter folder: A folder written by a ``FlightRecorder``.
  /// - Throws: ``ActionLogError/ioError(_:)`` when the folder cannot be read or holds no
  ///   segment file.
  public init(folder: URL) throws(ActionLogError) {
    try self.init(folder: folder, shownAs: folder.path)
  }

  /// Lists the segments of `folder`, naming it in errors as `shownAs`: the path as a person
  /// typed it (`replay logs/rec` says `'logs/rec'`, not `'rec'`).
  ///
  /// - Parameters:
  ///   - folder: A folder written by a ``FlightRecorder``.
  ///   - shownAs: The folder's path as errors name it, through ``Sanitized/path(_:)``.
  /// - Throws: What ``init(folder:)`` throws.
  package init(folder: URL, shownAs: String) throws(ActionLogError) {
    self.folder = folder
    let numbers = try Self.segmentNumbers(in: folder, shownAs: shownAs)
    var segments: [Segment] = []
    var warnings: [String] = []
    for number in numbers {
      let url = Self.segmentURL(number, in: folder)
      if let problem = Self.notAFile(url) {
        warnings.append(problem)
      } else {
        segments.append(Segment(number: number, url: url, launch: Self.launch(of: url)))
      }
    }
    guard !segments.isEmpty else {
      throw .ioError(
        "\(Sanitized.path(shownAs)) holds no segment-NNNNNN.jsonl files"
          + (warnings.isEmpty ? "" : " (\(warnings.joined(separator: "; ")))"))
    }
    // Stable: each launch's segments stay in number order, launches in order of their first.
    var firstOfLaunch: [String?: Int] = [:]
    for segment in segments where firstOfLaunch[segment.launch] == nil {
      firstOfLaunch[segment.launch] = segment.number
    }
    self.segments = segments.enumerated().sorted {
      (firstOfLaunch[$0.element.launch] ?? 0, $0.offset)
        < (firstOfLaunch[$1.element.launch] ?? 0, $1.offset)
    }.map(\.element)
    self.warnings = warnings
    listedNumbers = Set(numbers)
  }

  /// The launch named in the header of the segment at `url`. A header that cannot be read
  /// names none here: the replay reads it again and reports why, naming the file.
  private static func launch(of url: URL) -> String? {
    do {
      return try ActionLogHeaderInfo(contentsOf: url).launch
    } catch {
      return nil
    }
  }

  /// Why the thing at `url` is not read as a segment — a warning naming it — or `nil` for a
  /// regular file. A symbolic link is not followed; a FIFO would block its reader forever.
  package static func notAFile(_ url: URL) -> String? {
    var info = stat()
    let name = Sanitized.name(url.lastPathComponent)
    guard lstat(url.path, &info) == 0 else {
      return "\(name) cannot be read: \(SystemError.message(errno)); skipped"
    }
    guard let kind = FileKind.notRegular(info.st_mode) else { return nil }
    return "\(name) is \(kind), not a segment file; skipped"
  }

  /// Replays the kept window with `reducer`, segment after segment.
  ///
  /// - Parameters:
  ///   - reducer: The feature's reducer.
  ///   - verify: Whether to check every step against the recording.
  ///   - options: The line limit and the expected feature of every segment.
  /// - Returns: The replay; call ``FlightReplay/next()`` until it returns `nil`.
  public func replay<R: Reducer>(
    with reducer: R, verify: Bool = true, options: ActionLogReadOptions = .init()
  ) -> FlightReplay<R> {
    FlightReplay(recording: self, reducer: reducer, verifies: verify, options: options)
  }

  // MARK: - Files

  static let prefix = "segment-"
  static let suffix = ".jsonl"

  package static func segmentURL(_ number: Int, in folder: URL) -> URL {
    folder.appendingPathComponent(segmentName(number))
  }

  /// `segment-000007.jsonl` for 7, `segment-1000000000.jsonl` for 1,000,000,000: the one name
  /// each segment has (six digits at least, as many as its number needs).
  static func segmentName(_ number: Int) -> String {
    let digits = String(number)
    return prefix + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + suffix
  }

  /// The numbers of the segments in `folder`, in order; an error names the folder as
  /// `shownAs` (its whole path by default).
  package static func segmentNumbers(
    in folder: URL, shownAs: String? = nil
  ) throws(ActionLogError) -> [Int] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    } catch {
      throw .ioError("cannot list \(Sanitized.path(shownAs ?? folder.path))")
    }
    return names.compactMap { name -> Int? in
      guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
      let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
      // Any number of digits: `Int` refuses only numbers past `Int.max`.
      // Compared byte by byte: a digit followed by a combining mark is one `Character` that
      // `==` and `hasPrefix` may call a digit, and is no segment's name.
      guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
        let number = Int(digits),
        // `segment-1.jsonl` next to `segment-000001.jsonl` would be segment 1 twice.
        name.utf8.elementsEqual(segmentName(number).utf8)
      else { return nil }
      return number
    }.sorted()
  }

  static func makeFolder(_ folder: URL) throws(ActionLogError) {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw .ioError("\(Sanitized.name(folder.lastPathComponent)) is not a folder")
      }
      return
    }
    // Only the last folder of the path: a mistyped path never grows a tree of folders.
    if let problem = MissingFolder.problem(of: folder.path, option: nil) {
      throw .ioError("cannot create the folder \(problem)")
    }
    do {
      try FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .ioError("cannot create the folder \(Sanitized.path(folder.path))")
    }
  }

  /// Deletes the oldest segments while the folder is over `budget`; never `keeping` or newer.
  ///
  /// Only segments the package wrote are counted and deleted: regular files that bear a
  /// segment's name and begin with an action log's header, each checked again (same file)
  /// right before its one `unlink`. Anything else with a segment's name is not the recorder's:
  /// it is left as it is and counts for nothing. A regular file of another program's is named
  /// in a warning; a folder, a link or a FIFO is named by a replay of the folder; an empty file
  /// is left without a word, as it may be a segment another launch has just created.
  ///
  /// A segment that cannot be deleted is passed over, and the next oldest deleted in its place,
  /// so one undeletable file does not let the folder grow without bound.
  ///
  /// - Parameters:
  ///   - folder: The folder of segments.
  ///   - budget: The most bytes its segments may take.
  ///   - newest: The segment being written; it and any newer one are never deleted.
  /// - Returns: What the recorder should warn of: the folder cannot be listed, a file with a
  ///   segment's name is not one, a segment cannot be deleted. A segment already gone counts
  ///   as deleted.
  /// A problem a prune met: ``key`` tells one problem from another (the same problem met at
  /// the next roll has the same key), ``message`` says it.
  struct PruneWarning: Equatable {
    var key: String
    var message: String
  }

  static func prune(_ folder: URL, budget: Int, keeping newest: Int) -> [PruneWarning] {
    // A folder that is gone holds nothing over the budget (the recorder reports the segment it
    // then cannot make).
    guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
    let folderName = Sanitized.name(folder.lastPathComponent)
    var warnings: [PruneWarning] = []
    func warn(_ key: String, _ message: String) {
      warnings.append(PruneWarning(key: key, message: message))
    }
    let numbers: [Int]
    do {
      numbers = try segmentNumbers(in: folder)
    } catch {
      warn("list", "cannot keep \(folderName) within its budget of \(budget) bytes: \(error)")
      return warnings
    }
    var files: [(number: Int, path: String, identity: LogFile.Identity, size: Int)] = []
    for number in numbers {
      let path = segmentURL(number, in: folder).path
      let name = segmentName(number)
      let identity = LogFile.identify(path)
      switch identity {
      case .actionLog(let size, _, _):
        files.append((number, path, identity, size))
      case .empty, .gone, .notAFile:
        // Never counted nor deleted; a replay names what is not a file (``notAFile(_:)``).
        continue
      case .foreign(let reason):
        warn(
          "foreign " + name,
          "\(name) in \(folderName) \(reason): not a segment this recorder wrote, so it is "
            + "left as it is and not counted in the budget")
      case .unreadable(let reason):
        warn(
          "unreadable " + name,
          "\(name) in \(folderName) cannot be read (\(reason)): it is left as it is and not "
            + "counted in the budget")
      }
    }
    var total = files.reduce(0) { $0 + $1.size }
    for oldest in files where total > budget && oldest.number < newest {
      let name = segmentName(oldest.number)
      // The same file as the one checked (it may have grown): another may have taken its name
      // since, and is left alone.
      guard case .actionLog(_, let device, let inode) = oldest.identity,
        case .actionLog(_, device, inode) = LogFile.identify(oldest.path)
      else {
        total -= oldest.size
        continue
      }
      // `unlink` never removes a folder, should one have taken the file's place meanwhile.
      if unlink(oldest.path) != 0, errno != ENOENT {
        warn(
          "undeletable " + name,
          "cannot delete \(name) to keep \(folderName) within its budget of \(budget) bytes: "
            + SystemError.message(errno))
        continue
      }
      total -= oldest.size
    }
    return warnings
  }
}

/// What a replay across a flight recording meets, in order.
public enum FlightReplayEvent<R: Reducer> {
  /// Steps before the first one kept were deleted to stay within the budget (or were never
  /// found): how many, counted from the launch's first step.
  case rotatedOut(steps: Int)
  /// A launch begins here: its number in the window (1 for the first seen), and the segment
  /// and time it began with.
  case launch(number: Int, segment: String, created: Date)
  /// A replayed step.
  case step(ReplayStep<R>)
}

/// A replay across the segments of a ``FlightRecording``: call ``next()`` until it returns
/// `nil`.
///
/// Each segment replays from the state in its own header, so the window starts wherever the
/// oldest kept segment does. Bad input — a segment that is missing from the middle, cut short,
/// or not an action log of the expected feature — is a warning or an error that names the file
/// and line; everything before it has been replayed.
public final class FlightReplay<R: Reducer>
where R.State: Codable & Equatable, R.Action: Codable, R.Effect: Codable {
  /// The recording being replayed.
  public let recording: FlightRecording
  /// The replayed state after the last step.
  public private(set) var state: R.State?
  /// How many steps have been replayed.
  public private(set) var stepCount = 0
  /// Warnings so far, each naming its segment.
  public private(set) var warnings: [String] = []

  private let reducer: R
  private let verifies: Bool
  private let options: ActionLogReadOptions
  private var index = 0
  private var session: ReplaySession<R>?
  private var pending: [FlightReplayEvent<R>] = []
  private var lastSequence: Int?
  private var launches = 0
  private var failure: ActionLogError?
  /// The numbers already said to be missing.
  private var saidMissing: Set<Int> = []
  /// Whether each verified step keeps its state's canonical bytes (see
  /// ``ReplaySession/keepsStateBytes``).
  package var keepsStateBytes = false

  init(recording: FlightRecording, reducer: R, verifies: Bool, options: ActionLogReadOptions) {
    self.recording = recording
    self.reducer = reducer
    self.verifies = verifies
    self.options = options
    warnings = recording.warnings
  }

  /// Replays every remaining event and returns where the replay ended.
  ///
  /// - Returns: The final state (`nil` for a window without steps), the step count and the
  ///   warnings.
  /// - Throws: What ``next()`` throws.
  public func toEnd() throws(ActionLogError) -> (
    finalState: R.State?, stepCount: Int, warnings: [String]
  ) {
    while try next() != nil {}
    return (state, stepCount, warnings)
  }

  /// How many bytes of the segment being replayed have been read (for progress).
  package var bytesReadInSegment: Int { session?.bytesRead ?? 0 }

  /// The segment being replayed.
  public var currentSegment: FlightRecording.Segment? {
    recording.segments.indices.contains(index) ? recording.segments[index] : nil
  }

  /// The next event, or `nil` after the last segment.
  ///
  /// - Returns: The next event.
  /// - Throws: An ``ActionLogError`` whose message starts with the segment's file name. After
  ///   a failure every call throws it again.
  public func next() throws(ActionLogError) -> FlightReplayEvent<R>? {
    if let failure { throw failure }
    do {
      return try advance()
    } catch {
      let named = Self.naming(error, recording.segments[min(index, recording.segments.count - 1)])
      failure = named
      throw named
    }
  }

  private func advance() throws(ActionLogError) -> FlightReplayEvent<R>? {
    while true {
      if !pending.isEmpty { return pending.removeFirst() }
      guard index < recording.segments.count else { return nil }
      let segment = recording.segments[index]
      if session == nil {
        // Listed as a file, but something else may have taken its place since.
        if let problem = FlightRecording.notAFile(segment.url) {
          warnings.append(problem)
          moveOn(from: segment)
          continue
        }
        do {
          let opened = try Replayer(reducer: reducer).steps(
            of: segment.url, verify: verifies, options: options)
          opened.keepsStateBytes = keepsStateBytes
          session = opened
        } catch let error where stepCount == 0 && lastSequence == nil {
          // Before the first step the window may start later: the segments after a bad first
          // one still replay.
          let reason = String(error.description.prefix { $0 != "\n" })
          warnings.append(
            "\(segment.url.lastPathComponent): \(reason); skipped, the replay starts after it")
          moveOn(from: segment)
          continue
        }
      }
      guard let session else { return nil }
      if let step = try session.next() {
        begin(step, in: segment, header: session.header)
        state = session.state
        stepCount += 1
        lastSequence = step.sequenceNumber
        pending.append(.step(step))
        continue
      }
      for warning in session.warnings {
        warnings.append("\(segment.url.lastPathComponent): \(warning.description)")
      }
      if session.stepCount == 0 { state = session.state }
      self.session = nil
      moveOn(from: segment)
    }
  }

  /// Goes to the segment after `segment`, saying which numbers between the two are missing:
  /// those that bear no segment's name at all (another launch's are not missing, and the
  /// skipped ones have a warning of their own), each said once. A new launch starts its count
  /// of steps again.
  private func moveOn(from segment: FlightRecording.Segment) {
    index += 1
    guard index < recording.segments.count else { return }
    let nextSegment = recording.segments[index]
    if nextSegment.launch != segment.launch { lastSequence = nil }
    let next = nextSegment.number
    var missing: [ClosedRange<Int>] = []
    var number = segment.number + 1
    func isMissing(_ number: Int) -> Bool {
      !recording.listedNumbers.contains(number) && !saidMissing.contains(number)
    }
    while number < next {
      guard isMissing(number) else {
        number += 1
        continue
      }
      var end = number
      while end + 1 < next, isMissing(end + 1) { end += 1 }
      missing.append(number...end)
      saidMissing.formUnion(number...end)
      number = end + 1
    }
    for range in missing {
      warnings.append("segments \(range.lowerBound)…\(range.upperBound) are missing")
    }
  }

  /// Notes a launch or a rotated-out start before the first step of a segment.
  private func begin(
    _ step: ReplayStep<R>, in segment: FlightRecording.Segment, header: ActionLogHeader<R.State>
  ) {
    guard
      step.sequenceNumber == 1 || lastSequence == nil
        || step.sequenceNumber != (lastSequence ?? 0) + 1
    else { return }
    if step.sequenceNumber > 1, lastSequence == nil {
      pending.append(.rotatedOut(steps: step.sequenceNumber - 1))
    } else if step.sequenceNumber > 1, let last = lastSequence {
      warnings.append(
        "\(segment.url.lastPathComponent): steps \(last + 1)…\(step.sequenceNumber - 1) are missing"
      )
    }
    if step.sequenceNumber == 1 || lastSequence == nil {
      launches += 1
      pending.append(
        .launch(
          number: launches, segment: segment.url.lastPathComponent, created: header.created))
    }
  }

  private static func naming(
    _ error: ActionLogError, _ segment: FlightRecording.Segment
  ) -> ActionLogError {
    let name = segment.url.lastPathComponent
    switch error {
    case .divergence(let step, let action, let reason, let diff):
      return .divergence(step: step, action: action, reason: "\(name): \(reason)", diff: diff)
    default:
      return .badSegment(file: name, reason: String(error.description.prefix { $0 != "\n" }))
    }
  }
}
