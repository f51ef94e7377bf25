import ActionLog
import Foundation
import LoginFeature
import LoginFeatureTesting
import StateStore
import Testing
import ToolTestSupport

/// A replay reads and decodes its log ahead on a second thread (``LinePrefetcher``) and keeps
/// the actions and effects it has decoded by their bytes. Neither may change what a reader
/// gives: the same entries, warnings and errors, at the same lines, as a reader that reads
/// each line when asked — on the fixtures, on logs damaged in every way the mutator knows,
/// and on a log of many batches.
struct PrefetchingReaderTests {
  typealias Reader = ActionLogReader<LoginState, LoginAction, LoginEffect>
  /// More steps than the prefetcher's batches in flight hold (8 of 256 lines).
  static let manyBatches = 3_000

  @Test func aPrefetchingReaderReadsEveryDamagedLogAsTheDirectReaderDoes() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("log.jsonl")
    var random = SeededGenerator(seed: 28_11_2026)
    var compared = 0
    for name in ["login.jsonl", "login-divergent.jsonl", "login-truncated.jsonl"] {
      let log = try Data(contentsOf: ReplayProcess.fixtures.appendingPathComponent(name))
      try log.write(to: url)
      #expect(
        try Self.difference(
          Self.reading(url, prefetches: true), Self.reading(url, prefetches: false)) == nil)
      let mutator = LogMutator(log)
      for kind in LogMutator.Kind.allCases where kind != .insertHugeLine {
        for _ in 0..<4 {
          let mutant = mutator.mutate(kind, using: &random)
          try mutant.bytes.write(to: url)
          let direct = try Self.reading(url, prefetches: false)
          let prefetched = try Self.reading(url, prefetches: true)
          #expect(Self.difference(prefetched, direct) == nil, "\(mutant.name)")
          compared += 1
        }
      }
    }
    #expect(compared > 100)
  }

  /// Thousands of lines: many batches, a producer that waits for the reader, repeated
  /// actions and effects taken from the decoded ones.
  @Test @MainActor func aLogOfManyBatchesReadsTheSame() async throws {
    let folder = try TemporaryFolder()
    let url = try await Self.recordRandomSession(in: folder, seed: 2_811)
    let direct = try Self.reading(url, prefetches: false)
    #expect(direct.count > Self.manyBatches)
    #expect(try Self.difference(Self.reading(url, prefetches: true), direct) == nil)

    // The actions and effects the reader kept by their bytes are the ones each line decodes to.
    let lines = try StepLineLayoutTests.stepLines(of: url)
    let reader = try Reader(url: url, options: .init(), follows: false, prefetches: true)
    var index = 0
    while case .transition(var step)? = try reader.next() {
      step.line = 0
      let whole = try CanonicalJSONDecoder().decode(
        RecordedTransition<LoginState, LoginAction, LoginEffect>.self, from: lines[index])
      #expect(step == whole, "\(String(decoding: lines[index], as: UTF8.self))")
      index += 1
    }
    #expect(index == lines.count)
  }

  /// A reader dropped before the end stops the background reading (a replay stopped at a
  /// step, or at a divergence); nothing waits on it.
  @Test @MainActor func aReaderDroppedEarlyStops() async throws {
    let folder = try TemporaryFolder()
    let url = try await Self.recordRandomSession(in: folder, seed: 2_812)
    for taken in [0, 1, 300] {
      let reader = try Reader(url: url, options: .init(), follows: false, prefetches: true)
      for _ in 0..<taken { _ = try reader.next() }
      #expect(reader.lineNumber == taken + 1)
    }
  }

  /// A log of ``manyBatches`` random login actions, recorded into `folder`.
  @MainActor
  static func recordRandomSession(in folder: TemporaryFolder, seed: UInt64) async throws -> URL {
    let url = folder.file("long.jsonl")
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.record(to: url, feature: LoginReducer.actionLogFeature)
    var random = SeededGenerator(seed: seed)
    let generator = LoginActionGenerator()
    WarningLog.expectingAbsentChildWarnings {
      for _ in 0..<manyBatches {
        store.send(generator.next(for: store.state, using: &random))
      }
    }
    await recorder.close()
    return url
  }

  /// The first entry where `prefetched` and `direct` differ, as a short text; `nil` when none.
  static func difference(_ prefetched: [String], _ direct: [String]) -> String? {
    guard prefetched != direct else { return nil }
    let index =
      prefetched.indices.first { $0 < direct.count && prefetched[$0] != direct[$0] }
      ?? min(prefetched.count, direct.count)
    func entry(_ entries: [String]) -> String {
      index < entries.count ? String(entries[index].prefix(300)) : "(none)"
    }
    return "entry \(index): prefetched \(entry(prefetched)), direct \(entry(direct))"
  }

  /// What a reader gives, entry by entry, as text: each entry or error with the line number
  /// and the bytes read after it, then the warnings. Reading goes on after an error, as a
  /// caller may, up to a bound.
  static func reading(_ url: URL, prefetches: Bool) throws -> [String] {
    let reader: Reader
    do {
      reader = try Reader(
        url: url, options: ActionLogReadOptions(maximumLineLength: 4_096), follows: false,
        prefetches: prefetches)
    } catch {
      return ["header: \(error)"]
    }
    var result: [String] = []
    for _ in 0..<10_000 {
      do {
        guard let entry = try reader.next() else { break }
        switch entry {
        case .transition(let step): result.append("step \(step.line) \(String(describing: step))")
        case .gap(let line, let dropped, let state):
          result.append("gap \(line) \(dropped) \(String(describing: state))")
        }
      } catch {
        result.append("error \(error)")
      }
      result[result.count - 1] += " @ \(reader.lineNumber) \(reader.bytesRead)"
    }
    result.append("warnings \(reader.warnings)")
    do {
      result.append("recorded \(String(describing: try reader.recordedState()))")
    } catch {
      result.append("recorded: error \(error)")
    }
    return result
  }
}
