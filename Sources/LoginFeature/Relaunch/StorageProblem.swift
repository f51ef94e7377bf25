import Foundation

/// Words for a store that could not be read, safe for logs: the error's own description when it
/// is one of ours (``StoredFileError``), else only its type — never the data.
enum StorageProblem {
  static func describe(_ error: any Error) -> String {
    if let error = error as? StoredFileError { return error.description }
    return "\(type(of: error))"
  }

  static func seconds(_ duration: Duration) -> TimeInterval {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
