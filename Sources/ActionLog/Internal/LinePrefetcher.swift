import Dispatch
import StateStore

/// Reads a log's lines and decodes them on a background thread, ahead of the reader that
/// takes them, so reading and decoding a step overlaps what the reader's caller does with the
/// step before (a replay reduces it and digests its state).
///
/// The lines are read and parsed ahead in order, by one `parse` that may keep what it needs of
/// the lines before (the reader checks each step's recorded state there). The reader checks the
/// rest of each line against the ones before, in order, as it takes it, so every warning and
/// error is the one a reader without this part would give, at the same line. The lines come in batches; at most ``maximumBatches`` wait,
/// so memory stays bounded when the caller is slower. A read error, or the end of the file,
/// ends the reading; taking again gives it again, as ``LineReader`` does.
///
/// The lines and the parsing belong to the background thread alone once handed over; they
/// sit behind the package's lock type all the same. A prefetcher is used by one thread;
/// dropping it stops the background reading.
final class LinePrefetcher<Parsed> {
  /// Lines in a batch at most (a batch also ends past ``batchBytes`` bytes). Tests read logs
  /// longer than ``maximumBatches`` of these (`PrefetchingReaderTests.manyBatches`).
  static var batchLines: Int { 256 }
  static var batchBytes: Int { 1 << 20 }
  static var maximumBatches: Int { 8 }

  /// A taken line (or the end, or a read error), with where the reading was after it.
  private struct Entry {
    /// `nil` at the end of the file.
    var parsed: Result<Parsed?, ActionLogError>
    var lineNumber: Int
    var bytesConsumed: Int
  }

  private struct Queue {
    var batches: [[Entry]] = []
    var producerWaits = false
    var isStopped = false
  }

  private struct Producer {
    let lines: LineReader
    let parse: (LineReader.Line) -> Parsed
  }

  private let queue = Guarded(Queue())
  private let available = DispatchSemaphore(value: 0)
  private let space = DispatchSemaphore(value: 0)
  /// The batch being taken, last entry first.
  private var batch: [Entry] = []
  /// The end or the read error, once taken: given again on every later take.
  private var last: Result<Parsed?, ActionLogError>?

  /// The number of the last line taken (see ``LineReader/lineNumber``).
  private(set) var lineNumber: Int
  /// The bytes of the file taken as lines so far (see ``LineReader/bytesConsumed``).
  private(set) var bytesConsumed: Int

  /// Starts reading `lines` on a background thread, each non-empty line parsed by `parse`.
  /// `lines` and `parse` are the background thread's from now on.
  init(lines: LineReader, parse: @escaping (LineReader.Line) -> Parsed) {
    lineNumber = lines.lineNumber
    bytesConsumed = lines.bytesConsumed
    let producer = Guarded(Producer(lines: lines, parse: parse))
    DispatchQueue.global(qos: .userInitiated).async {
      [queue, available, space] in
      Self.produce(producer, into: queue, available: available, space: space)
    }
  }

  deinit {
    let wakesProducer = queue.withLock { queue in
      queue.isStopped = true
      queue.batches = []
      defer { queue.producerWaits = false }
      return queue.producerWaits
    }
    if wakesProducer { space.signal() }
  }

  /// The next non-empty line, parsed, or `nil` at the end of the file.
  ///
  /// - Throws: What ``LineReader/next()`` throws, at the line it throws at.
  func take() throws(ActionLogError) -> Parsed? {
    if let last { return try last.get() }
    if batch.isEmpty {
      available.wait()
      let wakesProducer: Bool
      (batch, wakesProducer) = queue.withLock { queue in
        defer { queue.producerWaits = false }
        return (queue.batches.removeFirst(), queue.producerWaits)
      }
      if wakesProducer { space.signal() }
      // Taken from the end, so each entry is moved out, not copied.
      batch.reverse()
    }
    let entry = batch.removeLast()
    lineNumber = entry.lineNumber
    bytesConsumed = entry.bytesConsumed
    switch entry.parsed {
    case .success(let parsed?): return parsed
    case .success(nil), .failure:
      last = entry.parsed
      batch = []
      return try entry.parsed.get()
    }
  }

  private static func produce(
    _ producer: Guarded<Producer>, into queue: Guarded<Queue>,
    available: DispatchSemaphore, space: DispatchSemaphore
  ) {
    var isDone = false
    while !isDone {
      let batch = producer.withLock { producer in
        var batch: [Entry] = []
        var bytes = 0
        while batch.count < batchLines, bytes < batchBytes, !isDone {
          let lines = producer.lines
          let parsed: Result<Parsed?, ActionLogError>
          do throws(ActionLogError) {
            if let line = try lines.next() {
              if line.bytes.isEmpty { continue }
              bytes += line.bytes.count
              parsed = .success(producer.parse(line))
            } else {
              parsed = .success(nil)
              isDone = true
            }
          } catch {
            parsed = .failure(error)
            isDone = true
          }
          batch.append(
            Entry(
              parsed: parsed, lineNumber: lines.lineNumber, bytesConsumed: lines.bytesConsumed))
        }
        return batch
      }
      let waits = queue.withLock { queue -> Bool in
        guard !queue.isStopped else {
          isDone = true
          return false
        }
        queue.batches.append(batch)
        queue.producerWaits = queue.batches.count >= maximumBatches
        return queue.producerWaits
      }
      available.signal()
      if waits, !isDone { space.wait() }
      if queue.withLock({ $0.isStopped }) { isDone = true }
    }
  }
}
