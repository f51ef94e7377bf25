/// A ``TimelineScreen`` as the page's script reads it: a list of widgets, each a small JSON
/// object with a kind `k`, deduplicated across steps.
enum TimelineScreenJSON {
  /// One widget of a screen: its title bar, its path, an element, its alert.
  enum Part: Hashable {
    case title(String)
    case path([String])
    case element(TimelineScreen.Element)
    case alert(TimelineScreen.Alert)
  }

  /// The screen's widgets, top to bottom.
  static func parts(of screen: TimelineScreen) -> [Part] {
    var parts: [Part] = [.title(screen.title)]
    if !screen.path.isEmpty { parts.append(.path(screen.path)) }
    parts += screen.elements.map(Part.element)
    parts += screen.alerts.map(Part.alert)
    return parts
  }

  /// The JSON object the page's script draws a part from.
  static func json(_ part: Part) -> String {
    switch part {
    case .title(let text):
      "{\"k\":\"title\",\"t\":\(JSONText.string(text))}"
    case .path(let path):
      "{\"k\":\"path\",\"v\":\(JSONText.array(path))}"
    case .alert(let alert):
      "{\"k\":\"alert\",\"title\":\(JSONText.string(alert.title)),"
        + "\"message\":\(JSONText.string(alert.message)),"
        + "\"buttons\":\(JSONText.array(alert.buttons))}"
    case .element(let element):
      json(element)
    }
  }

  private static func json(_ element: TimelineScreen.Element) -> String {
    switch element {
    case .heading(let text):
      "{\"k\":\"heading\",\"t\":\(JSONText.string(text))}"
    case .text(let text, let tone):
      "{\"k\":\"text\",\"t\":\(JSONText.string(text)),\"tone\":\"\(tone.rawValue)\"}"
    case .field(let label, let value):
      "{\"k\":\"field\",\"label\":\(JSONText.string(label)),\"value\":\(JSONText.string(value))}"
    case .secureField(let label, let length):
      "{\"k\":\"secure\",\"label\":\(JSONText.string(label)),\"length\":\(max(0, length))}"
    case .button(let title, let isEnabled):
      "{\"k\":\"button\",\"t\":\(JSONText.string(title)),\"enabled\":\(isEnabled)}"
    case .spinner(let text):
      "{\"k\":\"spinner\",\"t\":\(JSONText.string(text))}"
    }
  }
}
