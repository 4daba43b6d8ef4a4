import BadgeCore

/// PDF dates from `SOURCE_DATE_EPOCH` (reproducible-builds.org/specs/source-date-epoch).
package enum PDFDate {
    /// `YYYY-MM-DDTHH:mm:SSZ` (ISO 8601, what Cairo's PDF metadata takes) for the
    /// epoch seconds in `value`, or nil when unset or empty (then no date is recorded).
    ///
    /// - Throws: `BadgeError.invalidValue` (64) for a value that is not a whole
    ///   number of seconds from 0 to 9999-12-31: the specification asks tools to fail
    ///   rather than guess.
    package static func sourceDateEpoch(_ value: String?) throws(BadgeError) -> String? {
        // Empty counts as unset: CI templates often export the variable empty.
        guard let value, !value.isEmpty else { return nil }
        guard let seconds = DecimalNumber.parseInteger(value, in: 0...253_402_300_799) else {
            throw .invalidValue(
                option: "SOURCE_DATE_EPOCH", value: value,
                problem: "is not a whole number of seconds since 1970-01-01 (unset it, or give e.g. 1700000000)")
        }
        let days = seconds / 86_400
        let rest = seconds % 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }
}
