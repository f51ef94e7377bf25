import ActionLog
import Foundation
import StateStore

enum FileHandleOutput {
  static func standardError(_ line: String) {
    _ = WriteAll.write(line + "\n", to: STDERR_FILENO)
  }
}

enum Report {
  static func table(_ results: [BenchmarkResult]) -> String {
    let header = ["scenario", "ops", "ns/op", "ratio", "floor", "peak MiB", "target"]
    let rows = results.map { result in
      [
        result.scenario, String(result.ops), format(result.nanosecondsPerOp, digits: 1),
        format(result.ratio, digits: 2) + "×", result.floor, format(result.peakRSSMiB, digits: 1),
        result.target ?? "",
      ]
    }
    let widths = header.indices.map { column in
      ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { index, cell in
        let padding = String(repeating: " ", count: widths[index] - cell.count)
        return index == 0 || index == 4 || index == 6 ? cell + padding : padding + cell
      }.joined(separator: "  ")
    }
    return
      ([line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
      + rows.map(line)).joined(separator: "\n")
  }

  static func jsonLines(_ results: [BenchmarkResult]) -> String {
    results.map { result in
      var fields = [
        "\"scenario\":\(quote(result.scenario))",
        "\"group\":\(quote(result.group))",
        "\"ops\":\(result.ops)",
        "\"ns_per_op\":\(format(result.nanosecondsPerOp, digits: 2))",
        "\"ratio\":\(format(result.ratio, digits: 3))",
        "\"floor\":\(quote(result.floor))",
        "\"peak_rss_mib\":\(format(result.peakRSSMiB, digits: 1))",
      ]
      if let target = result.target { fields.append("\"target\":\(quote(target))") }
      return "{" + fields.joined(separator: ",") + "}"
    }.joined(separator: "\n")
  }

  static func format(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
      let decimals = text.distance(from: dot, to: text.endIndex) - 1
      if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    } else if digits > 0 {
      text += "." + String(repeating: "0", count: digits)
    }
    return text
  }

  static func quote(_ string: String) -> String {
    JSONString.quoted(string, escaping: .encoder)
  }
}
