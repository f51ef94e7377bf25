/// Whether the `count` bytes at `first` and at `second` are the same, compared eight at a time.
@inlinable
func hasSameBytes(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
  var offset = 0
  while offset + 8 <= count {
    guard
      first.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        == second.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    else { return false }
    offset += 8
  }
  while offset < count {
    guard
      first.load(fromByteOffset: offset, as: UInt8.self)
        == second.load(fromByteOffset: offset, as: UInt8.self)
    else { return false }
    offset += 1
  }
  return true
}
