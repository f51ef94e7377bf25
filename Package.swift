// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "LoginStore",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
  products: [
    .library(name: "StateStore", targets: ["StateStore"]),
    .library(name: "ActionLog", targets: ["ActionLog"]),
    .library(name: "StateStoreTesting", targets: ["StateStoreTesting"]),
    .library(name: "LoginFeature", targets: ["LoginFeature"]),
    .library(name: "LoginHTTPClient", targets: ["LoginHTTPClient"]),
    .library(name: "LoginFileStores", targets: ["LoginFileStores"]),
    .library(name: "LoginDemoBackend", targets: ["LoginDemoBackend"]),
    .library(name: "LoginFeatureTesting", targets: ["LoginFeatureTesting"]),
    .library(name: "AppFeature", targets: ["AppFeature"]),
    .library(name: "ReplayTool", targets: ["ReplayTool"]),
    .executable(name: "login-demo", targets: ["login-demo"]),
    .executable(name: "replay", targets: ["replay"]),
    .executable(name: "store-bench", targets: ["store-bench"]),
  ],
  targets: [
    // The generic runtime: no networking, no knowledge of logins. Its one file code is the
    // package-internal kit the other modules write files with (WriteAll, ReplacementFile).
    .target(name: "StateStore"),
    .target(name: "ActionLog", dependencies: ["StateStore"]),
    .target(name: "StateStoreTesting", dependencies: ["StateStore"]),
    // The login domain only: state, actions, effects, reducers, rules, errors, and the
    // protocols of its dependencies. No URLSession, no sockets, no file system.
    .target(name: "LoginFeature", dependencies: ["StateStore"]),
    // `HTTPLoginAPI` over URLSession.
    .target(name: "LoginHTTPClient", dependencies: ["LoginFeature", "StateStore"]),
    // The session and lockout stores on disk.
    .target(name: "LoginFileStores", dependencies: ["LoginFeature", "StateStore"]),
    // `DemoLoginAPI`: the demo's and the tests' in-process login service.
    .target(name: "LoginDemoBackend", dependencies: ["LoginFeature"]),
    .target(
      name: "LoginFeatureTesting",
      dependencies: ["LoginFeature", "StateStoreTesting"]
    ),
    // The terminal app's feature: login and home, composed in one app store.
    .target(name: "AppFeature", dependencies: ["LoginFeature", "StateStore"]),
    // What the login screen shows, as elements: `login-demo` draws them on the terminal, the
    // timeline (`replay`) as its mock screen, so the two cannot drift. No product ships it.
    .target(name: "LoginScreen", dependencies: ["AppFeature", "LoginFeature", "StateStore"]),
    // The replay command as a library, generic over the reducer: any host builds its own tool.
    // The timeline page's script and style sheet are files of their own, embedded in the
    // binary (`PackageResources`), so no bundle has to be found at run time.
    .target(
      name: "ReplayTool", dependencies: ["ActionLog", "StateStore"],
      resources: [
        .embedInCode("Resources/timeline.js"), .embedInCode("Resources/timeline.css"),
        .embedInCode("Resources/timeline-live.js"),
      ]
    ),
    .executableTarget(
      name: "login-demo",
      dependencies: [
        "AppFeature", "LoginFeature", "LoginScreen", "LoginHTTPClient", "LoginFileStores",
        "LoginDemoBackend", "ActionLog", "StateStore",
      ]
    ),
    .executableTarget(
      name: "replay",
      dependencies: ["ReplayTool", "AppFeature", "LoginFeature", "LoginScreen", "StateStore"]
    ),
    .executableTarget(
      name: "store-bench",
      dependencies: [
        "StateStore", "StateStoreTesting", "LoginFeature", "AppFeature", "ActionLog",
      ]
    ),
    // What the action-log and replay-tool tests share: the built `replay` run as a process or
    // in-process (`CapturedReplayOutput`), temporary folders. No product ships it.
    .target(
      name: "ToolTestSupport", dependencies: ["StateStore", "ReplayTool"],
      path: "Tests/ToolTestSupport"),
    // A fake login service for `HTTPLoginAPI`, on URLSession through a stub URLProtocol: the
    // HTTP client's tests and the docs' request sample share it. No product ships it.
    .target(
      name: "HTTPTestSupport",
      dependencies: ["LoginHTTPClient", "LoginFeature", "StateStore"],
      path: "Tests/HTTPTestSupport"),
    .testTarget(name: "StateStoreTests", dependencies: ["StateStore", "ToolTestSupport"]),
    // TCA's Todos example on `forEach`, with its tests: the Composing features article quotes it.
    .testTarget(
      name: "TodosExampleTests",
      dependencies: [
        "StateStore", "StateStoreTesting", "ActionLog", "ReplayTool", "ToolTestSupport",
      ]
    ),
    .testTarget(
      name: "StateStoreTestingTests",
      dependencies: ["StateStoreTesting", "StateStore", "ToolTestSupport"],
      exclude: ["__Snapshots__"]
    ),
    .testTarget(
      name: "LoginFeatureTests",
      dependencies: [
        "LoginFeature", "LoginFeatureTesting", "LoginHTTPClient", "LoginFileStores",
        "LoginDemoBackend", "StateStoreTesting", "StateStore", "ToolTestSupport",
        "HTTPTestSupport",
      ],
      exclude: ["__Snapshots__"]
    ),
    .testTarget(
      name: "LoginFileStoresTests",
      dependencies: ["LoginFileStores", "LoginFeature", "StateStore", "ToolTestSupport"]
    ),
    .testTarget(
      name: "ActionLogTests",
      dependencies: [
        "ActionLog", "StateStore", "LoginFeature", "LoginFeatureTesting", "AppFeature",
        "ToolTestSupport",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "AppFeatureTests",
      dependencies: [
        "AppFeature", "LoginFeature", "LoginFeatureTesting", "StateStoreTesting", "StateStore",
        "ActionLog", "ReplayTool", "ToolTestSupport",
      ]
    ),
    .testTarget(
      name: "ReplayToolTests",
      dependencies: [
        "ReplayTool", "ActionLog", "StateStore", "LoginFeature", "AppFeature", "ToolTestSupport",
      ]
    ),
    // The terminal app's own logic (the event loop, the key decoder), imported from its
    // executable module through `package` declarations.
    .testTarget(
      name: "LoginDemoUnitTests",
      dependencies: [
        "login-demo", "AppFeature", "LoginFeature", "LoginFileStores", "StateStore",
        "ToolTestSupport",
      ]),
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "LoginFeature", "LoginFeatureTesting", "LoginHTTPClient", "LoginFileStores",
        "LoginDemoBackend", "StateStoreTesting", "StateStore", "ActionLog", "AppFeature",
        "ReplayTool", "ToolTestSupport",
      ],
      exclude: ["DemoScripts"]
    ),
    // The README's and the DocC articles' Swift blocks, type-checked with `swiftc` against the
    // built modules (hence every library as a dependency: they are built before it runs). The
    // stand-ins for Apple frameworks and the articles' context files are compiled by the test,
    // not by SwiftPM.
    .testTarget(
      name: "DocsTests",
      dependencies: [
        "StateStore", "ActionLog", "StateStoreTesting", "LoginFeature", "LoginHTTPClient",
        "LoginFileStores", "LoginDemoBackend", "LoginFeatureTesting", "AppFeature", "ReplayTool",
        "ToolTestSupport", "HTTPTestSupport",
      ],
      exclude: ["StandIns", "Context"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
