/// JUnit XML for CI systems (the de-facto schema read by Jenkins, GitLab, GitHub
/// Actions reporters): one test case per golden check. No times or host names, so
/// the same results give the same bytes.
enum JUnitReport {
    struct Case {
        var name: String
        /// Why the check failed (the images differ), or nil.
        var failure: String?
        /// Why the check could not run (a read or render error), or nil.
        var error: String?
        /// Extra lines (artifact paths).
        var output: String
    }

    static func xml(_ cases: [Case]) -> String {
        let failures = cases.filter { $0.failure != nil }.count
        let errors = cases.filter { $0.error != nil }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out +=
            "<testsuites name=\"iconbadge\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        out +=
            "  <testsuite name=\"iconbadge batch --check\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for item in cases {
            out += "    <testcase classname=\"iconbadge.golden\" name=\"\(escape(item.name))\""
            guard item.failure != nil || item.error != nil || !item.output.isEmpty else {
                out += "/>\n"
                continue
            }
            out += ">\n"
            if let failure = item.failure {
                out += "      <failure type=\"different\" message=\"\(escape(failure))\"/>\n"
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

    /// XML attribute and text escaping; control characters XML 1.0 forbids become spaces.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            default:
                if scalar.value < 0x20 && scalar != "\t" {
                    out += " "
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
