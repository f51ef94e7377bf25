import LoginFeature
import StateStoreTesting

extension TestStore where R == LoginReducer {
  /// Creates a test store for the login feature whose effects run against `fakes`.
  ///
  /// ```swift
  /// let fakes = LoginFakes(results: [.success(session)])
  /// let store = TestStore(login: LoginState(username: "demo", password: "Secr3t"), fakes: fakes)
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state before the first action; the empty default-rules form by default.
  ///   - fakes: The dependencies the effects run against.
  ///   - fileID: Where end-of-test failures are reported; the caller's by default.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public convenience init(
    login state: LoginState = LoginState(),
    fakes: LoginFakes,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    self.init(
      initialState: state, reducer: LoginReducer(),
      handler: LoginEffectHandler(dependencies: fakes.dependencies), fileID: fileID,
      filePath: filePath, line: line, column: column)
  }
}
