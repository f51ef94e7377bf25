/// A state's canonical JSON as the log's writer encoded it, with where each remembered leaf of
/// an `IdentifiedList` lies in it, and its digest.
///
/// Two states encoded one after the other by one encoder share the `RememberedLeaf` objects of
/// the leaves a step did not touch (see `CanonicalJSONEncoder+Leaves.swift`), and a leaf's
/// bytes never change: where both states hold the same leaf object at a place, their bytes
/// there are the same without comparing them. The step's patch (`StatePatch`) skips those
/// leaves, and the digest resumes after the leaves the two states share from the start. The
/// leaf objects are this package's and are kept alive here, so one is never mistaken for
/// another; nothing asks a host's `==`.
package struct EncodedState {
  /// One leaf's bytes in the state: where they start, and the leaf.
  package struct Run {
    var start: Int
    var leaf: CanonicalJSONEncoder.RememberedLeaf

    var end: Int { start + leaf.bytes.count }
  }

  /// The canonical JSON.
  package let bytes: [UInt8]
  /// The leaves, in the order of their bytes.
  package let runs: [Run]
  /// The FNV-1a hash state after each run's bytes: where the next state's digest may resume.
  private let hashAfterRun: [UInt64]
  /// The 64-bit FNV-1a hash of ``bytes``: the step's digest.
  package let digest: UInt64

  /// The state encoded as `bytes`, with its leaves at `runs`; its digest resumes from
  /// `before`'s hash state after the last leaf both share from the start, when the bytes up to
  /// there are the same.
  init(bytes: [UInt8], runs: [Run], after before: EncodedState?) {
    self.bytes = bytes
    self.runs = runs
    // The leaves that both states hold at the same places from the start, with the same bytes
    // between them: everything before the end of the last such leaf is the same bytes.
    var shared = 0
    if let before {
      var checked = 0
      while shared < runs.count, shared < before.runs.count,
        runs[shared].start == before.runs[shared].start,
        runs[shared].leaf === before.runs[shared].leaf,
        bytes[checked..<runs[shared].start] == before.bytes[checked..<runs[shared].start]
      {
        checked = runs[shared].end
        shared += 1
      }
    }
    var hashes = [UInt64]()
    hashes.reserveCapacity(runs.count)
    var hash = StateDigest.offsetBasis
    var position = 0
    if shared > 0, let before {
      hashes.append(contentsOf: before.hashAfterRun[..<shared])
      hash = hashes[shared - 1]
      position = runs[shared - 1].end
    }
    for run in runs[shared...] {
      hash = StateDigest.fnv1a(bytes[position..<run.end], continuing: hash)
      hashes.append(hash)
      position = run.end
    }
    hashAfterRun = hashes
    digest = StateDigest.fnv1a(bytes[position...], continuing: hash)
  }

  /// The first run that starts at `position` or after it.
  func firstRun(from position: Int) -> Int {
    var low = 0
    var high = runs.count
    while low < high {
      let middle = (low + high) / 2
      if runs[middle].start < position { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
