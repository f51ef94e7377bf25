import Foundation
import StateStore

extension RecorderCore {
  /// The writer's side: the file, the encoders and the batch buffers, used on the writer queue
  /// only (and in `init`, before the queue sees the core). Writing a batch says how it ended;
  /// the shell tells the buffer and the budget.
  struct Writer {
    /// How writing a batch ended.
    enum Outcome {
      /// Written (or nothing to write): the file's size now, when it was written.
      case written(fileSize: Int?)
      /// The writer stopped for good, with the error to report (none for a size limit).
      case stopped(ActionLogError?)
    }

    let file: LogFile
    let options: RecordingOptions
    // Both encoders write every `PersonalData` as its mask when the options mask personal data,
    // at any depth of a state, an action or an effect: nothing is redacted value by value.
    let canonicalEncoder: CanonicalJSONEncoder
    // The state after every transition: a log must hold the state the app had, so nothing is
    // copied from an earlier encoding on the word of the host's `==` (a type whose `==` looks at
    // an `id` only was logged with its old fields). Only the bytes of a list's leaves are kept,
    // under the leaf's own identity (`CanonicalJSONEncoder+Leaves.swift`). It encodes the
    // header's and the gaps' states too, so one encoder, not two, holds buffers the size of a
    // state.
    let stateEncoder: CanonicalJSONEncoder
    /// The `stopped` markers the writer may need, made once.
    let stoppedMarker: Data
    let lineTooLongMarker: Data

    var output = Data()
    /// The emptied buffer of the last batch, kept with its capacity for the next drain.
    var spare: [Item] = []
    var transitionsWritten = 0
    var linesWritten = 0
    var isStopped = false
    // What the batch being written measured, for the budget.
    var stepLines = 0
    var stepBytes = 0
    var lastStateBytes: Int?
    /// The canonical JSON of the state before the next step (the header's, a gap's or the last
    /// step's): what the next step's patch is made against, byte for byte, and where its
    /// digest may resume.
    var stateBefore: EncodedState?

    /// The most bytes of a written batch whose buffer is kept for the next one.
    static var keptOutputBytes: Int { 1 << 20 }

    init(file: LogFile, options: RecordingOptions) throws(ActionLogError) {
      self.file = file
      self.options = options
      canonicalEncoder = CanonicalJSONEncoder(masksPersonalData: options.masksPersonalData)
      stateEncoder = CanonicalJSONEncoder(
        masksPersonalData: options.masksPersonalData, remembersLeaves: true)
      stoppedMarker = try Self.line(
        ActionLogFormat.Stopped(reason: .maximumFileSize, limit: options.maximumFileSize))
      lineTooLongMarker = try Self.line(
        ActionLogFormat.Stopped(reason: .lineTooLong, limit: options.maximumLineLength))
    }

    /// Encodes the batch's lines into one `Data` and writes it with one call, so lines land
    /// whole and in order.
    mutating func write(_ batch: [Item], budget: RecorderBudget) -> Outcome {
      guard !isStopped else { return .written(fileSize: nil) }
      // A batch of small lines reuses the buffer; one that held a large state gives it back.
      output.removeAll(keepingCapacity: output.count <= Self.keptOutputBytes)
      stepLines = 0
      stepBytes = 0
      lastStateBytes = nil
      defer {
        budget.measured(stateBytes: lastStateBytes, lines: stepLines, bytes: stepBytes)
      }
      for item in batch {
        let line: Data
        do {
          line = try encode(item)
        } catch {
          // The lines before it in this batch are whole and readable: they are kept.
          return stop(flushOutput() ?? error)
        }
        if line.count > options.maximumLineLength {
          // A reader would refuse the line and everything after it: end the log before it.
          let limit = options.maximumLineLength
          guard !item.isHeader else {
            return stop(
              .recordingStopped(
                line: 1,
                reason: "the header would have been longer than the limit of \(limit) bytes a "
                  + "reader accepts; nothing was recorded"))
          }
          output.append(lineTooLongMarker)
          return stop(
            flushOutput()
              ?? .recordingStopped(
                line: linesWritten + 1,
                reason: ActionLogFormat.Stopped(reason: .lineTooLong, limit: limit).explanation))
        }
        if let maximum = options.maximumFileSize, !item.isHeader,
          file.size + output.count + line.count + 1 + stoppedMarker.count > maximum
        {
          output.append(stoppedMarker)
          return stop(flushOutput())
        }
        if output.isEmpty {
          output = line  // no copy: a line holding a large state is megabytes
        } else {
          output.append(line)
        }
        output.append(CanonicalJSON.newline)
        linesWritten += 1
        if case .transition = item {
          stepLines += 1
          stepBytes += line.count + 1
        }
      }
      if let failure = flushOutput() { return stop(failure) }
      return .written(fileSize: file.size)
    }

    /// Writes the closing marker (unless the writer stopped) and closes the file; the error
    /// writing it threw, if any.
    mutating func close() -> ActionLogError? {
      var failure: ActionLogError?
      if !isStopped {
        isStopped = true
        do throws(ActionLogError) {
          var closed = Data()
          try ActionLogFormat.Closed().appendLine(to: &closed, using: canonicalEncoder)
          closed.append(CanonicalJSON.newline)
          try file.write(closed)
        } catch {
          failure = error
        }
      }
      file.close()
      return failure
    }

    /// Writes `output`; the error it threw, if any.
    private func flushOutput() -> ActionLogError? {
      do throws(ActionLogError) {
        try file.write(output)
        return nil
      } catch {
        return error
      }
    }

    /// Stops for good; the shell discards what is buffered and reports `error`.
    private mutating func stop(_ error: ActionLogError?) -> Outcome {
      isStopped = true
      file.close()
      return .stopped(error)
    }

    /// One line, without its newline. The line types in ActionLogFormat.swift state its fields,
    /// in the documented key order, and `ActionLogFormat.LineWriter` writes them around
    /// canonical (sorted-key) JSON values, so the same session always gives the same bytes.
    /// Secrets encode as their masks, and personal data too when the options say so (the
    /// encoders' `userInfo`).
    mutating func encode(_ item: Item) throws(ActionLogError) -> Data {
      var line = Data()
      switch item {
      case .transition(let step, let time):
        transitionsWritten += 1
        let isCheckpoint =
          options.checkpointInterval > 0 && transitionsWritten % options.checkpointInterval == 0
        // A checkpoint holds the state whole; every other step its patch against the state
        // before it, made by comparing canonical bytes (never by the host's `==`).
        // The patch skips, and the digest resumes after, the leaves of lists that this state
        // shares with the one before (the encoder's own objects; see `EncodedState`).
        let after = try encoded(step.stateAfter)
        lastStateBytes = after.bytes.count
        var patch: [UInt8]?
        if !isCheckpoint, let stateBefore {
          patch = StatePatch.patch(from: stateBefore, to: after)
        }
        let replaced = stateBefore
        stateBefore = after
        if let replaced { stateEncoder.reuseBuffer(of: replaced) }
        try ActionLogFormat.LineWriter.append(to: &line, using: canonicalEncoder) {
          (fields: inout ActionLogFormat.LineWriter) throws(ActionLogError) in
          try RecordedTransition<State, Action, Effect>.writeFields(
            sequenceNumber: step.sequenceNumber, time: time, origin: step.origin,
            action: step.action, effects: step.effects, inputs: step.inputs,
            digest: StateDigest.hex(after.digest),
            patch: patch, checkpoint: isCheckpoint ? after.bytes : nil, to: &fields)
        }
      case .gap(let dropped, let state):
        try ActionLogFormat.Gap(dropped: dropped, state: state)
          .appendLine(to: &line, using: stateEncoder)
        stateBefore = try encoded(state)
      case .warning(let message):
        try ActionLogFormat.Warning(message: message).appendLine(
          to: &line, using: canonicalEncoder)
      case .header(let header):
        try header.appendLine(to: &line, using: stateEncoder)
        stateBefore = try encoded(header.initialState)
      case .headerLine(let result):
        return try result.get()
      }
      return line
    }

    /// The canonical JSON of `state`, with its leaves and its digest.
    private func encoded(_ state: State) throws(ActionLogError) -> EncodedState {
      do {
        return try stateEncoder.encodeState(state, after: stateBefore)
      } catch {
        throw .encodingFailed(CanonicalJSON.failure(error, encoding: State.self))
      }
    }

    /// A `stopped` marker's whole line, newline included.
    private static func line(_ marker: ActionLogFormat.Stopped) throws(ActionLogError) -> Data {
      var line = Data()
      try marker.appendLine(to: &line, using: CanonicalJSONEncoder())
      line.append(CanonicalJSON.newline)
      return line
    }
  }
}
