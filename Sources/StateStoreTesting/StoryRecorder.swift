import StateStore

/// The journal of a test store's run: its steps, interleaved in order with what fakes did.
///
/// A ``TestStore`` writes a mark for every action it sees. Fakes (a recording router, an alert
/// presenter, a stub API) add what they performed, so a story shows the routes and alerts in
/// the place they happened:
///
/// ```swift
/// struct RecordingRouter: Router {
///   func navigate(to route: Route) async {
///     StoryRecorder.current?.performed("navigate(to: \(Dump.render(route)))")
///   }
/// }
/// ```
///
/// While a test store sends or receives an action, ``current`` is its recorder, and every
/// effect task started from there inherits it, so fakes need no wiring. A fake that runs
/// outside a store's effects can be handed the recorder (``TestStore/story``) directly.
///
/// Recording is thread-safe; lines from concurrent effects appear in the order they were
/// recorded.
public final class StoryRecorder: Sendable {
  enum Entry: Sendable, Equatable {
    /// The test store's transition with this sequence number.
    case step(Int)
    /// A line a fake recorded.
    case performed(String)
    /// A free-form note.
    case note(String)
  }

  private let entries = Guarded<[Entry]>([])

  /// The recorder of the test store whose action is being reduced, or whose effects are
  /// running, in this task; `nil` elsewhere.
  @TaskLocal public static var current: StoryRecorder?

  /// Creates an empty journal.
  public init() {}

  /// Records that a fake performed something: a route, an alert, a saved session.
  ///
  /// The story shows it as `performed: <description>`. Render values with `Dump.render` so
  /// secrets stay masked.
  ///
  /// - Parameter description: What was performed, on one line.
  public func performed(_ description: String) {
    entries.withLock { $0.append(.performed(description)) }
  }

  /// Records a free-form line; the story shows it as `note: <text>`.
  ///
  /// - Parameter text: The note, on one line.
  public func note(_ text: String) {
    entries.withLock { $0.append(.note(text)) }
  }

  /// The lines fakes recorded with ``performed(_:)``, in order.
  public var performedLines: [String] {
    entries.withLock { entries in
      entries.compactMap { entry in
        if case .performed(let line) = entry { return line }
        return nil
      }
    }
  }

  func step(_ sequenceNumber: Int) {
    entries.withLock { $0.append(.step(sequenceNumber)) }
  }

  var allEntries: [Entry] { entries.withLock { $0 } }
}
