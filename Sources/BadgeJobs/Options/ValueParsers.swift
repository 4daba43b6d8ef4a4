import BadgeCore

/// Parsers for option values. Each throws `BadgeError.invalidValue` naming the
/// option, the value and what is accepted (exit 64).
package enum ValueParsers {
    package static func number(_ text: String, option: String, range: ClosedRange<Double>, unit: String = "pt")
        throws(BadgeError) -> Double
    {
        guard let value = DecimalNumber.parse(text) else {
            throw .invalidValue(
                option: option, value: text,
                problem: "is not a number (use a decimal such as 12 or 1.5\(unit.isEmpty ? "" : ", in \(unit)"))")
        }
        guard range.contains(value) else {
            throw .invalidValue(
                option: option, value: text,
                problem: "is out of range (use \(describe(range))\(unit.isEmpty ? "" : " " + unit))")
        }
        return value
    }

    package static func positive(_ text: String, option: String, max: Double, unit: String = "pt") throws(BadgeError)
        -> Double
    {
        let value = try number(
            text, option: option, range: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude, unit: unit)
        let suffix = unit.isEmpty ? "" : " " + unit
        guard value > 0 else {
            throw .invalidValue(
                option: option, value: text, problem: "must be greater than 0 (use up to \(format(max))\(suffix))")
        }
        guard value <= max else {
            throw .invalidValue(
                option: option, value: text, problem: "is out of range (use more than 0, up to \(format(max))\(suffix))"
            )
        }
        return value
    }

    package static func integer(_ text: String, option: String, range: ClosedRange<Int>) throws(BadgeError) -> Int {
        guard let value = DecimalNumber.parseInteger(text, in: Int.min...Int.max) else {
            throw .invalidValue(
                option: option, value: text,
                problem: "is not a whole number (use \(range.lowerBound) to \(range.upperBound))")
        }
        guard range.contains(value) else {
            throw .invalidValue(
                option: option, value: text, problem: "is out of range (use \(range.lowerBound) to \(range.upperBound))"
            )
        }
        return value
    }

    package static func color(_ text: String, option: String) throws(BadgeError) -> Color {
        do throws(ColorSyntaxError) {
            return try Color(parsing: text)
        } catch {
            throw .invalidValue(option: option, value: text, problem: error.problem)
        }
    }

    package static func choice<T: RawRepresentable & CaseIterable>(_ text: String, option: String, as type: T.Type)
        throws(BadgeError) -> T where T.RawValue == String
    {
        if let value = T(rawValue: text.lowercased()) { return value }
        let names = T.allCases.map(\.rawValue)
        var problem = "is not one of \(names.joined(separator: ", "))"
        if let guess = Suggestion.closest(to: text, among: names) { problem += "; did you mean \(guess)?" }
        throw .invalidValue(option: option, value: text, problem: problem)
    }

    package static func length(_ text: Substring, whole: String, option: String, range: Double) throws(BadgeError)
        -> Length
    {
        if text.hasSuffix("%") {
            guard let value = DecimalNumber.parse(text.dropLast()) else {
                throw .invalidValue(
                    option: option, value: whole,
                    problem: "is not DX,DY (use numbers in pt or percentages, e.g. 6,-4 or -20%,20%)")
            }
            guard abs(value) <= 1000 else {
                throw .invalidValue(
                    option: option, value: whole, problem: "is out of range (percentages from -1000% to 1000%)")
            }
            return .percent(value)
        }
        guard let value = DecimalNumber.parse(text) else {
            throw .invalidValue(
                option: option, value: whole,
                problem: "is not DX,DY (use numbers in pt or percentages, e.g. 6,-4 or -20%,20%)")
        }
        guard abs(value) <= range else {
            throw .invalidValue(
                option: option, value: whole, problem: "is out of range (use -\(format(range)) to \(format(range)) pt)")
        }
        return .points(value)
    }

    package static func offset(_ text: String, option: String) throws(BadgeError) -> Offset {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw .invalidValue(
                option: option, value: text, problem: "is not DX,DY (use two values, e.g. 6,-4 or -20%,20%)")
        }
        return Offset(
            dx: try length(parts[0].trimmingSpaces(), whole: text, option: option, range: 100_000),
            dy: try length(parts[1].trimmingSpaces(), whole: text, option: option, range: 100_000))
    }

    /// `H` or `H,V` (points, each ≥ 0).
    package static func padding(_ text: String, option: String) throws(BadgeError) -> Padding {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else {
            throw .invalidValue(
                option: option, value: text, problem: "is not H or H,V (points per side, e.g. 4 or 4,2)")
        }
        var values: [Double] = []
        for part in parts {
            guard let value = DecimalNumber.parse(part.trimmingSpaces()) else {
                throw .invalidValue(
                    option: option, value: text, problem: "is not H or H,V (points per side, e.g. 4 or 4,2)")
            }
            guard (0...10_000).contains(value) else {
                throw .invalidValue(
                    option: option, value: text, problem: "is out of range (use 0 to 10000 pt per side)")
            }
            values.append(value)
        }
        return Padding(horizontal: values[0], vertical: values.count == 2 ? values[1] : values[0])
    }

    /// `WxH` or `N` (for N × N), each in `range`.
    package static func size(_ text: String, option: String, range: ClosedRange<Double>, unit: String)
        throws(BadgeError)
        -> Size
    {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else {
            throw .invalidValue(option: option, value: text, problem: "is not WxH or N (e.g. 8x8 or 8, in \(unit))")
        }
        var values: [Double] = []
        for part in parts {
            guard let value = DecimalNumber.parse(part.trimmingSpaces()) else {
                throw .invalidValue(option: option, value: text, problem: "is not WxH or N (e.g. 8x8 or 8, in \(unit))")
            }
            guard range.contains(value), value > 0 else {
                throw .invalidValue(
                    option: option, value: text,
                    problem: "is out of range (each side greater than 0, up to \(format(range.upperBound)) \(unit))")
            }
            values.append(value)
        }
        return Size(width: values[0], height: values.count == 2 ? values[1] : values[0])
    }

    package static func bool(_ text: String, option: String) throws(BadgeError) -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default:
            throw .invalidValue(option: option, value: text, problem: "is not a boolean (use true or false, 1 or 0)")
        }
    }

    package static func describe(_ range: ClosedRange<Double>) -> String {
        "\(format(range.lowerBound)) to \(format(range.upperBound))"
    }

    package static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

extension Substring {
    package func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
