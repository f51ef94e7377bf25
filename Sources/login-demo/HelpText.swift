import LoginDemoBackend
import LoginFeature

/// The text of `login-demo --help`.
enum HelpText {
  static var text: String {
    """
    usage: login-demo [--rules default|email|min6] [--latency MS] [--api URL]
                      [--record FILE] [--script FILE] [--state-dir DIR]
                      [--flight-recorder DIR] [--now DATE] [--help]

    The LoginStore login screen as a terminal app: one app store runs the login
    flow and the home screen (which loads the user's profile) as child features.

    On a terminal it runs full-screen. Type to edit the focused field at its
    cursor: Left and Right move it, Home and End (or Ctrl-A, Ctrl-E) jump to the
    ends, Backspace and Delete remove the character before or under it, Ctrl-U
    everything before it and Ctrl-W the word before it. Tab and Shift-Tab move
    the focus, Enter presses the focused button (in the password field it signs
    in), Esc cancels the request or dismisses an alert, Ctrl-C quits. A paste is
    one edit of the field. A locked form counts down the seconds until it opens
    again. "Forgot password?" (after Login) opens the password-reset step: type
    the account's email, Enter on "Send link" asks for a reset link, Back or Esc
    goes back to the form. The screen is redrawn when the terminal is resized; a window too small
    for it shows one line asking for a larger one.

    When stdin is not a terminal, or with --script FILE, it runs a script: one UI
    event per line, printing every screen as plain text. Time is virtual there, so
    the output is the same on every run. The script is read a line at a time; a
    line longer than 1 MiB stops it with an error naming the line. With --api a
    command does not wait for the service's answer, so "tap cancel" or "tap back"
    can leave a request at once; "wait" waits for it.

    Options:
    \(DemoOptions.table.help(indent: 2, column: 17))

    Script commands:
      type username TEXT   replace the username with TEXT (the rest of the line)
      type password TEXT   replace the password with TEXT
      type code TEXT       type the one-time code of the code step (digits only)
      tap login            tap the login button (even when it is disabled)
      tap cancel           cancel the request in flight, or leave the code step
      tap verify           tap Verify on the code step
      tap resend           tap Resend on the code step
      tap forgot           tap "Forgot password?" on the login form
      type email TEXT      replace the password-reset step's email with TEXT
      tap send             tap "Send link" (or "Send again") on the password-reset step
      tap back             tap Back on the password-reset step
      tap logout           tap the logout button of the home screen
      tap alert TITLE      tap the button TITLE of the alert showing
      wait                 let the requests in flight finish (sign-in, profile, reset)
      advance Ns | Nms     move the virtual clock, e.g. to end a lockout or a wait
      # ...                comments and blank lines are ignored

    Demo accounts:
    \(accounts)

    Password resets: \(DemoLoginAPI.rateLimitedEmail) is told to wait (429, 30 s),
    \(DemoLoginAPI.brokenEmail) fails (500), any other address is accepted.

    A recording that cannot be written (a full disk) stops; the app goes on, shows
    "Recording stopped" on its screen, says why on stderr and exits with status 1.

    Exit status: 0 done, 1 failure, 2 bad command line or script, 130 quit with Ctrl-C.

    """
  }

  /// One line per account of ``DemoLoginAPI/defaultAccounts``, with the rules it passes.
  private static var accounts: String {
    DemoLoginAPI.defaultAccounts.map { account in
      // Demo passwords are documentation: a person needs them to sign in.
      let password = account.password.reveal()
      let rules = DemoOptions.rulesPresets.filter {
        $0.rules.validate(username: account.user.username.value, password: account.password).isEmpty
      }.map(\.name).joined(separator: ", ")
      var line =
        "  " + account.user.username.value.padded(to: 18) + password.padded(to: 13)
        + account.user.displayName.value.padded(to: 15) + "(rules: \(rules))"
      if let factor = account.secondFactor {
        line +=
          "\n    then the code \(factor.code.reveal()) sent to \(factor.destination)"
          + " (\(factor.resentCode.reveal()) after a resend)"
      }
      return line
    }.joined(separator: "\n")
  }
}
