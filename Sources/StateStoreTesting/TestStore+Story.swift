import StateStore

extension TestStore {
  /// The whole run so far as readable text: the initial state, then every action (sent by the
  /// user or an effect) with the state diff it caused and the effects it returned, and what
  /// fakes performed (see ``StoryRecorder``), in order.
  ///
  /// <!-- sample: lines of Tests/LoginFeatureTests/__Snapshots__/LoginStoryTests/twoFailuresOneSuccessAndALogout.txt -->
  /// ```text
  /// initial state: LoginState(
  ///   username: "",
  ///   password: Secret(),
  ///   …
  /// )
  ///
  /// #1 user LoginAction.edit(set(username: "demo"))
  ///     LoginState(
  ///   −   username: "",
  ///   +   username: "demo",
  ///       password: Secret(),
  ///       … (14 unchanged)
  ///       isRestoring: false,
  ///   −   isUsernameEdited: false,
  ///   +   isUsernameEdited: true,
  ///       isPasswordEdited: false,
  ///       … (2 unchanged)
  ///
  /// #3 user LoginAction.loginButtonTapped
  ///   …
  ///   effect: LoginEffect.authenticate(
  ///       Credentials(
  ///         username: "demo",
  ///         password: Secret(Aa0aa)
  ///       ),
  ///       attempt: 1
  ///     )
  /// performed: api.login(username: "demo", password: Secret(Aa0aa)) → invalidCredentials
  ///
  /// #4 effect LoginAction.loginResponse(
  ///   …
  /// ```
  ///
  /// - Parameter context: Unchanged lines kept around each change in the state diffs.
  /// - Returns: The story, without a trailing newline.
  public func storyText(context: Int = 1) -> String {
    var lines = ["initial state: " + Dump.render(initialState)]
    let first = steps.first?.sequenceNumber ?? 1
    for entry in story.allEntries {
      switch entry {
      case .step(let number):
        let index = number - first
        guard steps.indices.contains(index) else { continue }
        lines.append("")
        lines.append(TransitionFormatter(context: context).format(steps[index]))
      case .performed(let text):
        lines.append("performed: " + text)
      case .note(let text):
        lines.append("note: " + text)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// Checks the whole run so far (``storyText(context:)``) against the snapshot stored for
  /// this test: one line of test code covers an entire flow.
  ///
  /// ```swift
  /// await store.send(.queryChanged("a")) { … }
  /// await store.receive(.resultsLoaded(["a"])) { … }
  /// store.assertStory()
  /// ```
  ///
  /// - Parameters:
  ///   - name: Tells several snapshots of one test apart.
  ///   - context: Unchanged lines kept around each change in the state diffs.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path; the snapshot folder is derived from it.
  ///   - function: The test's name; the snapshot file is named after it.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func assertStory(
    named name: String? = nil,
    context: Int = 1,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    function: String = #function,
    line: Int = #line,
    column: Int = #column
  ) {
    assertSnapshot(
      of: storyText(context: context), named: name, fileID: fileID, filePath: filePath,
      function: function, line: line, column: column)
  }
}
