import ActionLog
import Foundation

/// The HTML timeline page: a fixed skeleton, the embedded data, the page's own style and
/// script — one file with nothing to fetch.
///
/// Nothing from the log is written into the markup except the feature name in the `<title>`,
/// HTML-escaped. Everything else travels as JSON inside a `<script type="application/json">`
/// element, escaped by ``JSONText`` so it cannot end that element, and the script builds the
/// page from it with `textContent`. The Content-Security-Policy allows no network at all and
/// only this script and this style sheet, by their SHA-256 hashes: an inline event handler or
/// a second script would not run even if one got in.
struct TimelinePage {
  let feature: String
  /// The data fields the builder made: name and JSON text, in order.
  let fields: [(String, String)]
  let warnings: [ActionLogError]
  /// Warnings that are sentences only (a flight recording's, each naming its segment).
  var otherWarnings: [String] = []
  let failure: ActionLogError?
  /// The `verify` object for a divergence; `nil` for a log that replays cleanly.
  let divergence: String?
  /// The long runs of text the page's strings share (``Interner/runs``), written one by one:
  /// they are most of a page of long values, and are never held as one JSON text.
  var runs: [String] = []
  /// Served by `replay --serve`: the page also runs ``liveScript``, which asks the server for
  /// new steps, and its policy lets it ask its own origin (`connect-src 'self'`).
  var isLive = false

  /// The largest log a page is made of. A page holds a small multiple of its log, and a
  /// browser given a page of hundreds of megabytes does not open it at all (a 200 MB log made
  /// an 804 MB page Chromium could not open in two minutes): larger logs are refused before
  /// anything is read or written.
  static var maximumLogBytes: Int { 64 << 20 }

  /// Refuses a log larger than ``maximumLogBytes``, naming the limit (exit status 2).
  static func checkSize(of urls: [URL], named name: String) throws(ReplayFailure) {
    let size = ReplayProgress.size(of: urls)
    guard size > maximumLogBytes else { return }
    // The size in bytes, exactly: a rounded one can read as the limit itself ("is 64 MiB; …
    // takes logs of up to 64 MiB" for a log one byte over).
    throw .usage(
      "\(Sanitized.path(name)) is \(grouped(size)) bytes, over "
        + "the \(maximumLogBytes >> 20) MiB (\(grouped(maximumLogBytes)) bytes) a "
        + "timeline page takes; larger pages are more than a browser opens: replay it as text "
        + "instead (replay FILE, or --until N)")
  }

  private static func grouped(_ value: Int) -> String {
    Duration.grouped(UInt128(max(0, value)))
  }

  /// The `<meta name="generator">` the page carries.
  static let generator = "LoginStore replay --html"

  /// The Content-Security-Policy of the page written to a file.
  static var contentSecurityPolicy: String { contentSecurityPolicy(live: false) }

  /// The Content-Security-Policy of the page: written to a file, no network at all; served
  /// (`live`), its two scripts and requests to the server that sent it, nothing else.
  static func contentSecurityPolicy(live: Bool) -> String {
    var scripts = SHA256.contentSecurityPolicySource(of: script)
    if live { scripts += " " + SHA256.contentSecurityPolicySource(of: liveScript) }
    return "default-src 'none'; script-src \(scripts); "
      + "style-src \(SHA256.contentSecurityPolicySource(of: style)); base-uri 'none'; "
      + "form-action 'none'" + (live ? "; connect-src 'self'; frame-ancestors 'none'" : "")
  }

  func write(to file: TimelineOutputFile) throws(ReplayFailure) {
    try file.write(head)
    var json = "{\"pageFormat\":1"
    func flushIfLarge() throws(ReplayFailure) {
      if json.utf8.count > 1 << 20 {
        try file.write(json)
        json = ""
      }
    }
    for (name, value) in fields + extraFields {
      json += ",\"\(name)\":"
      json += value
      try flushIfLarge()
    }
    json += ",\"runs\":["
    for (index, run) in runs.enumerated() {
      json += (index == 0 ? "" : ",") + JSONText.string(run)
      try flushIfLarge()
    }
    let live = isLive ? "<script>" + Self.liveScript + "</script>\n" : ""
    try file.write(
      json + "]}</script>\n<script>" + Self.script + "</script>\n" + live + "</body>\n</html>\n")
  }

  private var extraFields: [(String, String)] {
    var end = "{\"type\":\"end\"}"
    if let failure {
      let message = String(failure.description.split(separator: "\n").first ?? "")
      end = "{\"type\":\"error\",\"message\":" + JSONText.string(message) + "}"
    }
    return [
      (
        "warnings",
        "["
          + (warnings.map(Self.warning)
          + otherWarnings.map { "{\"type\":\"other\",\"message\":\(JSONText.string($0))}" })
          .joined(separator: ",") + "]"
      ),
      ("end", end),
      ("verify", divergence ?? "{\"status\":\"clean\"}"),
    ]
  }

  private static func warning(_ warning: ActionLogError) -> String {
    let message = JSONText.string(warning.description)
    switch warning {
    case .transitionsDropped(let line, let count):
      return "{\"type\":\"dropped\",\"line\":\(line),\"count\":\(count),\"message\":\(message)}"
    case .recordingStopped(let line, _):
      return "{\"type\":\"stopped\",\"line\":\(line),\"message\":\(message)}"
    case .truncatedLastLine(let line):
      return "{\"type\":\"truncated\",\"line\":\(line),\"message\":\(message)}"
    default:
      return "{\"type\":\"other\",\"message\":\(message)}"
    }
  }

  private var head: String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy(live: isLive))">
    <meta name="generator" content="\(Self.generator)">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(HTMLText.escaped(feature)) log · replay timeline</title>
    <style>\(Self.style)</style>
    </head>
    <body>
    <header class="top">
    <h1>Action log timeline: <span id="feature"></span></h1>
    <dl id="facts"></dl>
    <div id="status" class="status" role="status"></div>
    <ul id="warnings"></ul>
    <div class="scrub">
    <button type="button" id="play" aria-pressed="false" title="Play the steps (Space)">\u{25B6} \
    Play</button>
    <select id="speed" aria-label="Playback speed" title="Playback speed">
    <option value="1">1 step/s</option>
    <option value="2" selected>2 steps/s</option>
    <option value="4">4 steps/s</option>
    <option value="8">8 steps/s</option>
    <option value="16">16 steps/s</option>
    </select>
    <input type="range" id="slider" min="1" max="1" value="1" step="1" aria-label="Step">
    <span id="position"></span>
    </div>
    </header>
    <main>
    <section class="list-pane" aria-label="Steps">
    <input type="search" id="filter" placeholder="Filter: loginResponse -tick state:isLoading" \
    aria-label="Filter steps" aria-describedby="filter-help" autocomplete="off" \
    spellcheck="false">
    <div class="origins">
    <label><input type="checkbox" id="origin-user" checked> user</label>
    <label><input type="checkbox" id="origin-effect" checked> effect</label>
    <span id="list-info"></span>
    </div>
    <details id="filter-help"><summary>How to filter</summary>
    <ul>
    <li>Words keep the steps whose action or effects contain every one of them.</li>
    <li><code>-word</code> leaves out the steps that contain it.</li>
    <li><code>state:isLoading</code> keeps the steps where a state path or value changed; \
    paths use dots: <code>state:twoFactor.code</code>, <code>-state:countdown</code>.</li>
    <li>The boxes keep the steps a person sent (user) or an effect sent back (effect).</li>
    <li>Repeats of a step that only tick a counter are one row (\u{D7}44): click it to see each.</li>
    <li>Esc clears the filter; \u{2191}/\u{2193}, j/k, Home/End move; Back and Forward retrace \
    the steps you picked, and <code>#step-N</code> in the address opens step N.</li>
    <li>Space plays the steps the list shows, at the speed chosen beside Play, and pauses; \
    a key that moves, the slider or a click stops it.</li>
    </ul>
    </details>
    <div id="list" tabindex="0"><div id="list-sizer"></div><div id="list-rows"></div></div>
    </section>
    <section class="detail-pane" aria-label="Selected step">
    <h2 id="step-headline"></h2>
    <div id="step-badges"></div>
    <div id="divergence" hidden></div>
    <div class="columns">
    <div id="screen-section"><h3>Screen</h3><div id="screen"></div></div>
    <div>
    <h3>Diff against the previous step (\u{2212} before, + after)</h3>
    <div id="diff"></div>
    <h3>Effects returned</h3>
    <ul id="effects"></ul>
    </div>
    </div>
    <div class="tabs" role="tablist" aria-label="What the step holds">
    <button type="button" role="tab" id="tab-state" aria-controls="panel-state" \
    aria-selected="true">State</button>
    <button type="button" role="tab" id="tab-action" aria-controls="panel-action" \
    aria-selected="false" tabindex="-1">Action</button>
    </div>
    <div id="panel-state" role="tabpanel" aria-labelledby="tab-state">
    <h3>State after this step</h3>
    <div id="state-tree"></div>
    </div>
    <div id="panel-action" role="tabpanel" aria-labelledby="tab-action" hidden>
    <h3>The action, as a tree</h3>
    <div id="action-tree"></div>
    <h3>Raw JSON, as the log records it (secrets are their masks)</h3>
    <pre id="action-json"></pre>
    </div>
    </section>
    </main>
    <noscript>This page needs JavaScript to show the timeline.</noscript>
    <script type="application/json" id="timeline-data">
    """
  }
}
