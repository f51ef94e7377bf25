import Foundation
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The interactive mode's terminal: raw mode through termios, the alternate screen, and the
/// promise to put everything back on every way out.
///
/// ``open()`` saves the terminal's attributes, switches off canonical mode, echo and signal
/// keys (Ctrl-C arrives as a key), hides the cursor and switches to the alternate screen.
/// ``restore()`` undoes all of it and is idempotent. It runs when the app quits, when it throws
/// (the caller's `defer`), at `exit` (an `atexit` hook), and on SIGINT, SIGTERM, SIGHUP and
/// SIGQUIT (a signal handler that restores, then exits with 128 + the signal number).
final class Terminal: Sendable {
  /// Whether drawing uses colours: stdout is a terminal, `TERM` is not `dumb`, `NO_COLOR` is
  /// not set. Bold, dim and inverse (the cursor, the focused button) are drawn either way.
  let usesColors: Bool

  private init(usesColors: Bool) {
    self.usesColors = usesColors
  }

  /// Switches stdin's terminal to raw mode and stdout to the alternate screen.
  ///
  /// - Returns: The terminal, ready to draw on.
  /// - Throws: ``DemoFailure`` when stdin is not a terminal or its attributes cannot be set.
  @MainActor static func open() throws(DemoFailure) -> Terminal {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else {
      throw DemoFailure(
        "cannot read the terminal's attributes: \(SystemError.message(errno))")
    }
    var raw = original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    // Everything the restoring code needs is in place before a signal can use it.
    restoreState.original = original
    restoreState.isArmed = 1
    atexit { Terminal.restore() }
    for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      signal(signalNumber) { signalNumber in
        Terminal.restore()
        _exit(128 + signalNumber)
      }
    }
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
      let reason = SystemError.message(errno)
      restore()
      throw DemoFailure("cannot switch the terminal to raw mode: \(reason)")
    }
    writeOut(enterSequence)
    let colors =
      isatty(STDOUT_FILENO) == 1 && ProcessEnvironment.value("TERM") != "dumb"
      && ProcessEnvironment.value("NO_COLOR") == nil
    return Terminal(usesColors: colors)
  }

  /// Puts the terminal back as it was before ``open()``; does nothing the second time.
  ///
  /// Safe to call from a signal handler: it only reads memory prepared by ``open()`` and calls
  /// `write` and `tcsetattr`, which are async-signal-safe.
  static func restore() {
    guard restoreState.isArmed == 1 else { return }
    restoreState.isArmed = 0
    writeOut(leaveSequence)
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &restoreState.original)
  }

  /// Draws `lines` over the whole screen, top-left first, clearing what was there; with
  /// `clearing`, the whole screen is cleared first (after a resize, when the terminal may have
  /// reflowed what it held).
  func draw(_ lines: [ScreenLine], clearing: Bool = false) {
    var frame = clearing ? "\u{1B}[2J\u{1B}[H" : "\u{1B}[H"
    var lines = lines
    if let size = Terminal.size(), let message = Terminal.tooSmall(lines, size: size) {
      // A screen that does not fit would wrap and tear: say so on one line instead.
      lines = [ScreenLine(message, style: .warning)]
    }
    for (index, line) in lines.enumerated() {
      if index > 0 { frame += "\r\n" }
      frame += line.ansiText(colors: usesColors) + "\u{1B}[K"
    }
    frame += "\u{1B}[J"
    Terminal.writeOut(Array(frame.utf8))
  }

  /// The terminal's size in columns and rows, or `nil` when it cannot be read.
  static func size() -> (columns: Int, rows: Int)? {
    var window = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0,
      window.ws_row > 0
    else { return nil }
    return (Int(window.ws_col), Int(window.ws_row))
  }

  /// The one line to show instead of `lines` when they do not fit a terminal of `size`: every
  /// line must fit in its width (the screens are ``ScreenRenderer/width`` columns wide) and
  /// all of them in its height. `nil` when they fit.
  ///
  /// The line is the longest of these that fits the width (the last column left free, so it
  /// never wraps), down to the bare size in a very narrow window; here for windows of four
  /// sizes, the login screen needing 61×10 (61×8 without its key hints):
  ///
  /// <!-- sample: excerpt Tests/EndToEndTests/DemoScripts/Interactive/too-small.expected.txt -->
  /// ```text
  /// ── 40×24 ──
  /// Please make the window at least 61×10.
  ///
  /// ── 80×6 ──
  /// Please make the window at least 61×8 (it is 80×6).
  ///
  /// ── 24×24 ──
  /// Make it at least 61×10.
  ///
  /// ── 12×24 ──
  /// 61×10
  /// ```
  static func tooSmall(_ lines: [ScreenLine], size: (columns: Int, rows: Int)) -> String? {
    let columns = max(ScreenRenderer.width + 1, lines.map(\.width).max() ?? 0)
    let rows = lines.count
    guard size.columns < columns || size.rows < rows else { return nil }
    let needed = "\(columns)×\(rows)"
    let messages = [
      "Please make the window at least \(needed) (it is \(size.columns)×\(size.rows)).",
      "Please make the window at least \(needed).", "Make it at least \(needed).", needed,
    ]
    let room = max(1, size.columns - 1)
    return messages.first { $0.count <= room } ?? String(needed.prefix(room))
  }

  /// Calls `handler` on a background thread after each resize of the terminal (SIGWINCH).
  ///
  /// The signal handler only writes a byte to a pipe, which is async-signal-safe; a thread of
  /// its own reads the pipe and calls `handler`. Resizes that come faster than the handler
  /// runs are folded together. Call it once.
  static func onResize(_ handler: @escaping @Sendable () -> Void) {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { return }
    _ = fcntl(descriptors[1], F_SETFL, fcntl(descriptors[1], F_GETFL) | O_NONBLOCK)
    _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
    resizePipe = descriptors[1]
    let reading = descriptors[0]
    Thread.detachNewThread {
      var bytes = [UInt8](repeating: 0, count: 64)
      while true {
        let count = bytes.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return }
        handler()
      }
    }
    var action = sigaction()
    #if canImport(Glibc)
      action.__sigaction_handler.sa_handler = { _ in
        var byte: UInt8 = 1
        _ = write(resizePipe, &byte, 1)
      }
    #else
      action.__sigaction_u.__sa_handler = { _ in
        var byte: UInt8 = 1
        _ = write(resizePipe, &byte, 1)
      }
    #endif
    action.sa_flags = SA_RESTART
    sigemptyset(&action.sa_mask)
    _ = sigaction(SIGWINCH, &action, nil)
  }

  /// Alternate screen, hidden cursor, cleared.
  private static let enterSequence = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J".utf8)
  /// Default colours, visible cursor, main screen.
  private static let leaveSequence = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

  /// Writes all of `bytes` to standard output (safe in the signal handler too: `write` only).
  private static func writeOut(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { WriteAll.write($0, to: STDOUT_FILENO) }
  }
}

/// What ``Terminal/restore()`` needs, in plain memory a signal handler can read: written once
/// on the main thread before any handler is installed.
private struct RestoreState {
  var original = termios()
  var isArmed: sig_atomic_t = 0
}

private nonisolated(unsafe) var restoreState = RestoreState()

/// The pipe's writing end that the SIGWINCH handler writes to; set once, before the handler is
/// installed.
private nonisolated(unsafe) var resizePipe: Int32 = -1

/// Reads environment variables without Foundation.
enum ProcessEnvironment {
  static func value(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
  }
}
