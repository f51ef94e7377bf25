#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a `pthread_mutex`, shared by this package's modules and tests; a thread may
/// wait on it until the value is ready (``withLock(when:_:)``).
///
/// Why not `Synchronization.Mutex`: on Linux its lock is invisible to ThreadSanitizer, which
/// then reports races on every value it guards; a pthread mutex is intercepted, so
/// `swift test --sanitize=thread` stays meaningful. Same shape as `Mutex`: `withLock { $0… }`.
@usableFromInline
// `@unchecked`: every access to `value` and `waiters` holds `mutex`.
package final class Guarded<Value>: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let condition: UnsafeMutablePointer<pthread_cond_t>
  /// Threads waiting in ``withLock(when:_:)``: every change wakes them while there are any.
  @usableFromInline var waiters = 0
  @usableFromInline var value: Value

  @usableFromInline
  package init(_ value: Value) {
    self.value = value
    mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value; a thread waiting for the value to be
  /// ready then looks again.
  @inlinable
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { unlock() }
    return try body(&value)
  }

  /// Waits until the value's `isReady` holds, then runs `body` with exclusive access to it.
  ///
  /// The lock is released while waiting: whoever changes the value (in any `withLock`) wakes
  /// the waiting thread, which looks again. Blocks the calling thread, so it is for threads
  /// of the package's own (a writer, a reader ahead), never for the main actor.
  ///
  /// ```swift
  /// let batch = queue.withLock(when: \.hasItems) { $0.takeAll() }
  /// ```
  package func withLock<Result>(
    when isReady: KeyPath<Value, Bool>, _ body: (inout Value) -> Result
  ) -> Result {
    pthread_mutex_lock(mutex)
    defer { unlock() }
    while !value[keyPath: isReady] {
      waiters += 1
      pthread_cond_wait(condition, mutex)
      waiters -= 1
    }
    return body(&value)
  }

  @inlinable
  func unlock() {
    if waiters > 0 { pthread_cond_broadcast(condition) }
    pthread_mutex_unlock(mutex)
  }
}
