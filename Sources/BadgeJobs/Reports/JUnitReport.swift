import BadgeCore

/// JUnit XML for CI systems (the de-facto schema read by Jenkins, GitLab and GitHub
/// Actions reporters): one test case per golden check. No times or host names, so the
/// same results give the same bytes.
package enum JUnitReport {
    /// One test case.
    package struct Case: Sendable {
        /// `jobs[3]@2x goldens/a.png`.
        package var name: String
        /// Why the check failed (the images differ), or nil.
        package var failure: String?
        /// The failure's type attribute: `different`, `new` or `deleted`.
        package var failureType = "different"
        /// Why the check could not run (a read or render error), or nil.
        package var error: String?
        /// Extra lines (artifact paths).
        package var output: String
    }

    /// The report of a check (`compare DIR DIR`, `batch --check`, or their merged
    /// shards): a case per entry, in the order given, named by the entry's `name` (a
    /// batch's golden path as given: a job's number changes when the manifest is
    /// reordered, and CI systems track a test's history by its name) or its path.
    /// Changed entries fail, and new and deleted ones when `failOn` names them; a
    /// written golden is a pass with its reason as output; artifacts are listed.
    package static func xml(_ entries: [CheckEntry], failOn: [CheckEntry.Status], suite: String) -> String {
        let cases = entries.map { entry in
            // The name stays the golden (a test's history follows it); the messages
            // name the manifest job that drew it.
            let message = entry.label.isEmpty ? entry.message : entry.label + ": " + entry.message
            let note =
                entry.goldenWritten.map { "golden written (\($0)): \(entry.message)" }
                ?? (entry.fails(failOn: failOn) || entry.status == .passed ? nil : entry.message)
            var item = Case(
                name: entry.name ?? entry.path,
                failure: entry.status != .error && entry.fails(failOn: failOn) ? message : nil,
                error: entry.status == .error ? message : nil,
                output: (entry.artifacts.map { "wrote \($0)" } + [note].compactMap(\.self)).joined(separator: "\n"))
            if entry.status == .new || entry.status == .deleted { item.failureType = entry.status.rawValue }
            return item
        }
        return xml(cases, suite: suite)
    }

    /// The document for `cases`.
    package static func xml(_ cases: [Case], suite: String) -> String {
        let failures = cases.filter { $0.failure != nil }.count
        let errors = cases.filter { $0.error != nil }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<testsuites name=\"iconbadge\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        out +=
            "  <testsuite name=\"\(escape(suite))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for item in cases {
            out += "    <testcase classname=\"iconbadge.golden\" name=\"\(escape(item.name))\""
            guard item.failure != nil || item.error != nil || !item.output.isEmpty else {
                out += "/>\n"
                continue
            }
            out += ">\n"
            if let failure = item.failure {
                out += "      <failure type=\"\(escape(item.failureType))\" message=\"\(escape(failure))\"/>\n"
            }
            if let error = item.error {
                out += "      <error type=\"error\" message=\"\(escape(error))\"/>\n"
            }
            if !item.output.isEmpty {
                out += "      <system-out>\(escape(item.output))</system-out>\n"
            }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// XML 1.0 attribute and text escaping. Characters XML 1.0 forbids (section 2.2,
    /// `Char`: C0 controls but tab, newline and CR; U+FFFE and U+FFFF) become U+FFFD,
    /// so any name gives a well-formed document.
    package static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
