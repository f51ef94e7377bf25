import ActionLog
import Testing

/// When a recorder wakes its writer: once when it is idle, never while a drain or a linger is
/// on its way, and again once a whole linger passed without a write.
struct WriterWakeupsTests {
  /// The events of one test, each with what it returned.
  struct Script {
    var wakeups = WriterWakeups()

    /// Something was buffered: whether the writer is woken.
    mutating func buffered() -> Bool { wakeups.buffered() }

    /// A drain ended: whether the linger timer is armed.
    mutating func drainEnded(wrote: Bool, isOpen: Bool = true) -> Bool {
      wakeups.drainEnded(wrote: wrote, isOpen: isOpen)
    }

    /// The linger timer fired: whether it is armed again.
    mutating func lingerEnded(isOpen: Bool = true) -> Bool {
      wakeups.lingerEnded(isOpen: isOpen)
    }
  }

  @Test func anIdleWriterIsWokenOnceForWhatIsBufferedBeforeItDrains() {
    var script = Script()
    let woken = (0..<3).map { _ in script.buffered() }
    #expect(woken == [true, false, false])
    #expect(script.wakeups.isDrainScheduled)
  }

  @Test func aDrainThatWroteLingersAndStepsMeanwhileDoNotWakeTheWriter() {
    var script = Script()
    _ = script.buffered()
    let armed = script.drainEnded(wrote: true)
    #expect(armed, "the linger timer is armed")
    #expect(script.wakeups.isLingering)
    let woken = (0..<100).map { _ in script.buffered() }
    #expect(!woken.contains(true), "no step wakes a lingering writer")
    // The timer fires: no drain wrote during the linger, so it is not armed again, and the
    // drain that follows takes the buffered steps, and lingers again because it wrote.
    let armedAgain = script.lingerEnded()
    #expect(!armedAgain)
    #expect(!script.wakeups.isLingering)
    let armedAfterWriting = script.drainEnded(wrote: true)
    #expect(armedAfterWriting)
    let wokenAfter = script.buffered()
    #expect(!wokenAfter)
  }

  @Test func theWriterLingersOnWhileDrainsKeepWritingAndGoesIdleAfterAQuietLinger() {
    var script = Script()
    _ = script.buffered()
    var events: [Bool] = []
    events.append(script.drainEnded(wrote: true))  // armed
    events.append(script.drainEnded(wrote: true))  // a flush's drain wrote: one timer at a time
    events.append(script.lingerEnded())  // steps are still coming: armed again
    events.append(script.drainEnded(wrote: false))  // the timer's drain found none
    events.append(script.buffered())  // still lingering: no wake
    events.append(script.lingerEnded())  // a quiet linger: not armed again
    events.append(script.drainEnded(wrote: false))
    #expect(events == [true, false, true, false, false, false, false])
    #expect(!script.wakeups.isDrainScheduled)
    let woken = script.buffered()
    #expect(woken, "an idle writer is woken again")
  }

  @Test func aDrainThatWroteNothingLeavesTheWriterIdle() {
    var script = Script()
    script.wakeups.drainScheduled()  // a flush
    let wokenDuringFlush = script.buffered()
    let armed = script.drainEnded(wrote: false)
    let wokenAfter = script.buffered()
    #expect([wokenDuringFlush, armed, wokenAfter] == [false, false, true])
    #expect(!script.wakeups.isLingering)
  }

  @Test func aRecordingThatNoLongerTakesStepsNeverLingers() {
    var stopped = Script()
    _ = stopped.buffered()
    let armed = stopped.drainEnded(wrote: true, isOpen: false)
    #expect(!armed)
    #expect(!stopped.wakeups.isLingering)
    #expect(!stopped.wakeups.isDrainScheduled)

    var lingering = Script()
    _ = lingering.buffered()
    let events = [
      lingering.drainEnded(wrote: true), lingering.drainEnded(wrote: true),
      lingering.lingerEnded(isOpen: false),
    ]
    #expect(events == [true, false, false], "stopped: the timer is not armed again")
    #expect(!lingering.wakeups.isLingering)
  }
}
