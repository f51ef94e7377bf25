import AppFeature
import Foundation
import LoginFeature
import ReplayTool

// `replay FILE`: shows, replays and verifies recorded action logs of the login feature and of
// the app feature. See `replay --help`.
let command = ReplayCommand(features: [
  ReplayableFeature(
    name: LoginReducer.actionLogFeature, reducer: LoginReducer(),
    module: "LoginFeature", reducerExpression: "LoginReducer()"),
  ReplayableFeature(
    name: AppReducer.actionLogFeature, reducer: AppReducer(),
    module: "AppFeature", reducerExpression: "AppReducer()"),
])
exit(command.run(Array(CommandLine.arguments.dropFirst())))
