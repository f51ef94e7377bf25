import Dispatch
import Synchronization

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
/// SIGQUIT (dispatch signal sources, so the restoring code does not run in a signal handler).
final class Terminal: Sendable {
  private static let saved = Mutex<termios?>(nil)
  @MainActor private static var signalSources: [any DispatchSourceSignal] = []

  /// Whether drawing uses colours: stdout is a terminal, `TERM` is not `dumb`, `NO_COLOR` is
  /// not set.
  let usesColors: Bool

  private init(usesColors: Bool) {
    self.usesColors = usesColors
  }

  /// Switches stdin's terminal to raw mode and stdout to the alternate screen.
  ///
  /// - Parameter onResize: Called on the main actor when the window changes size.
  /// - Returns: The terminal, ready to draw on.
  /// - Throws: ``DemoFailure`` when stdin is not a terminal or its attributes cannot be set.
  @MainActor static func open(onResize: @escaping @MainActor @Sendable () -> Void)
    throws(DemoFailure)
    -> Terminal
  {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else {
      throw DemoFailure(
        "cannot read the terminal's attributes: \(String(cString: strerror(errno)))")
    }
    var raw = original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    saved.withLock { $0 = original }
    atexit { Terminal.restore() }
    installSignalHandlers(onResize: onResize)
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
      let reason = String(cString: strerror(errno))
      restore()
      throw DemoFailure("cannot switch the terminal to raw mode: \(reason)")
    }
    // Alternate screen, hidden cursor, cleared.
    writeOut("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    let environment = ProcessEnvironment.self
    let colors =
      isatty(STDOUT_FILENO) == 1 && environment.value("TERM") != "dumb"
      && environment.value("NO_COLOR") == nil
    return Terminal(usesColors: colors)
  }

  /// Puts the terminal back as it was before ``open(onResize:)``; does nothing the second time.
  static func restore() {
    guard var original = saved.withLock({ saved in saved.take() }) else { return }
    writeOut("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
  }

  /// Draws `lines` over the whole screen, top-left first, clearing what was there.
  func draw(_ lines: [ScreenLine]) {
    var frame = "\u{1B}[H"
    for (index, line) in lines.enumerated() {
      if index > 0 { frame += "\r\n" }
      frame += line.ansiText(colors: usesColors) + "\u{1B}[K"
    }
    frame += "\u{1B}[J"
    Terminal.writeOut(frame)
  }

  @MainActor private static func installSignalHandlers(
    onResize: @escaping @MainActor @Sendable () -> Void
  ) {
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler {
        restore()
        _exit(128 + signalNumber)
      }
      source.resume()
      sources.append(source)
    }
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
    resize.setEventHandler { Task { @MainActor in onResize() } }
    resize.resume()
    sources.append(resize)
    signalSources = sources
  }

  private static func writeOut(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      bytes = bytes.dropFirst(written)
    }
  }
}

/// Reads environment variables without Foundation.
enum ProcessEnvironment {
  static func value(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
  }
}
