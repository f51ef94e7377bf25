extension TimelinePage {
  /// The page's script (`Resources/timeline.js`): reads the embedded data, draws the header,
  /// the virtualized step list, the selected step (state tree, diff, effects, screen,
  /// divergence) and wires the filter, the slider, the keys and the address's `#step-N`. It
  /// builds every element with `textContent`, never from markup, so nothing from the log is
  /// ever parsed as HTML.
  static let script = String(decoding: PackageResources.timeline_js, as: UTF8.self)

  /// The page's style sheet (`Resources/timeline.css`): no fonts or images to fetch, system
  /// fonts only.
  static let style = String(decoding: PackageResources.timeline_css, as: UTF8.self)

  /// The served page's second script (`Resources/timeline-live.js`): asks the server how many
  /// steps the log has, and when it has more, loads the page again keeping the selected step,
  /// the filter and the origin boxes.
  static let liveScript = String(decoding: PackageResources.timeline_live_js, as: UTF8.self)
}
