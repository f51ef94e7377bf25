import AppFeature
import Foundation
import LoginFeature
import ReplayTool

// `replay FILE`: shows, replays and verifies recorded action logs of the login feature and of
// the app feature, and writes them as HTML timelines with a mock of each screen
// (TimelineScreens.swift). See `replay --help`.
let command = ReplayCommand(features: [
  ReplayableFeature(
    name: LoginReducer.actionLogFeature, reducer: LoginReducer(),
    module: "LoginFeature", reducerExpression: "LoginReducer()",
    screen: LoginTimelineScreen()),
  ReplayableFeature(
    name: AppReducer.actionLogFeature, reducer: AppReducer(),
    module: "AppFeature", reducerExpression: "AppReducer()",
    screen: AppTimelineScreen()),
])
exit(command.run(Array(CommandLine.arguments.dropFirst())))
