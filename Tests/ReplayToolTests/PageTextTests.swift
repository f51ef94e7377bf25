import Foundation
import ReplayTool
import Testing
import ToolTestSupport

/// The escaping of what the page embeds, and the hashes its Content-Security-Policy allows.
struct PageTextTests {
  @Test(
    arguments: [
      (
        "</script><img src=x onerror=alert(1)>",
        #""\u003c/script\u003e\u003cimg src=x onerror=alert(1)\u003e""#
      ),
      ("<!-- & -->", #""\u003c!-- \u0026 --\u003e""#),
      ("quote \" backslash \\ tab \t", #""quote \" backslash \\ tab \t""#),
      ("line\nbreak\u{0}\u{7F}", #""line\nbreak\u0000\u007f""#),
      ("\u{2028}\u{2029}\u{202E}\u{200B}", #""\u2028\u2029\u202e\u200b""#),
      ("é 👩‍👩‍👧 ✓", "\"é 👩\\u200d👩\\u200d👧 ✓\""),
      ("\u{E000}\u{F0000}", #""\ue000\udb80\udc00""#),
    ])
  func jsonStringsCannotEndTheScriptElement(text: String, json: String) async throws {
    #expect(JSONText.string(text) == json)
    let decoded =
      try JSONSerialization.jsonObject(
        with: Data(("[" + json + "]").utf8)) as? [String]
    #expect(decoded == [text], "the escapes decode back to the same text")
  }

  @Test func randomTextRoundTripsWithoutMarkupCharacters() async throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
      let scalars = (0..<24).compactMap { _ -> Unicode.Scalar? in
        let pick = Int.random(in: 0..<4, using: &generator)
        let value: UInt32 =
          switch pick {
          case 0: UInt32.random(in: 0..<0x80, using: &generator)
          case 1: UInt32.random(in: 0x80..<0x3000, using: &generator)
          case 2: UInt32.random(in: 0xE000..<0x10000, using: &generator)
          default: UInt32.random(in: 0x10000..<0x110000, using: &generator)
          }
        return Unicode.Scalar(value)
      }
      var text = ""
      text.unicodeScalars.append(contentsOf: scalars)
      let json = JSONText.string(text)
      #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"))
      let decoded = try JSONSerialization.jsonObject(with: Data(("[" + json + "]").utf8))
      #expect(decoded as? [String] == [text])
    }
  }

  @Test func htmlTextEscapesTheFiveCharacters() {
    #expect(
      HTMLText.escaped(#"<a href="x">'&'</a>"#)
        == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    // A combining mark after a markup character does not hide it.
    #expect(
      HTMLText.escaped("\"\u{301}<\u{301}&\u{301}'\u{301}>\u{301}")
        == "&quot;\u{301}&lt;\u{301}&amp;\u{301}&#39;\u{301}&gt;\u{301}")
    // Everything else is content as it is: the page is UTF-8, and the HTML parser reads
    // control characters, separators, emoji and bidirectional overrides as text.
    let text = "\u{0}\u{1B}\u{7F}\u{85}\u{2028}\u{202E} é e\u{301} 😀 👩‍👧 \\ /"
    #expect(HTMLText.escaped(text) == text)
  }

  @Test(
    arguments: [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
      (
        String(repeating: "a", count: 1_000),
        "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
      ),
    ])
  func sha256MatchesTheStandardVectors(text: String, hex: String) {
    let digest = SHA256.digest(Array(text.utf8))
    #expect(digest.map { String(format: "%02x", $0) }.joined() == hex)
  }
}

extension PageTextTests {
  /// The page allows exactly its own script and style sheet: their hashes are in its policy.
  @Test func theContentSecurityPolicyHashesThePagesOwnScriptAndStyle() async throws {
    let folder = try TemporaryFolder()
    let log = ReplayProcess.fixtures.appendingPathComponent("login.jsonl").path
    #expect(try await ReplayProcess.run(["--html", "p.html", log], in: folder.url).status == 0)
    let page = try TimelinePageData(contentsOf: folder.file("p.html"))
    let script = try #require(page.script)
    let style = try #require(page.style)
    func source(_ text: String) -> String {
      "'sha256-" + Data(SHA256.digest(Array(text.utf8))).base64EncodedString() + "'"
    }
    let policy =
      "default-src 'none'; script-src \(source(script)); style-src \(source(style)); "
      + "base-uri 'none'; form-action 'none'"
    #expect(
      page.html.contains(#"<meta http-equiv="Content-Security-Policy" content="\#(policy)">"#))
    #expect(script.count > 1_000 && style.count > 1_000)
    // They are the target's resource files, byte for byte: what is reviewed is what runs.
    let resources = ReplayProcess.packageRoot.appendingPathComponent("Sources/ReplayTool/Resources")
    let scriptFile = try Data(contentsOf: resources.appendingPathComponent("timeline.js"))
    let styleFile = try Data(contentsOf: resources.appendingPathComponent("timeline.css"))
    #expect(Data(script.utf8) == scriptFile)
    #expect(Data(style.utf8) == styleFile)
  }
}
