import Foundation

/// Words for a store that could not be read, safe for logs: the error's own description when it
/// is a ``StorageError``, else only its type — never the data.
enum StorageProblem {
  static func describe(_ error: any Error) -> String {
    if let error = error as? any StorageError { return error.description }
    return "\(type(of: error))"
  }

  static func seconds(_ duration: Duration) -> TimeInterval {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
