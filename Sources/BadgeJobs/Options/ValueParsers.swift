import BadgeCore

/// Parsers for option values. Each throws `BadgeError.invalidValue` naming the
/// option, the value and what is accepted (exit 64).
package enum ValueParsers {
    package static func number(_ text: String, option: String, range: ClosedRange<Double>, unit: String = "pt")
        throws(BadgeError) -> Double
    {
        if text.hasSuffix("%"), DecimalNumber.parse(text.dropLast()) != nil {
            throw .invalidValue(
                option: option, value: text,
                problem: "is a percentage, and \(option) takes none (give a number\(unit.isEmpty ? "" : " in \(unit)"))"
            )
        }
        guard let value = DecimalNumber.parse(text) else {
            // The example is the range itself when it is a narrow one (0 to 1): "12 or
            // 1.5" would be out of it.
            let example =
                range.upperBound < 12 && range.lowerBound > -Double.greatestFiniteMagnitude
                ? "from \(describe(range))" : "such as 12 or 1.5"
            throw .invalidValue(
                option: option, value: text,
                problem: "is not a number (use a decimal \(example)\(unit.isEmpty ? "" : ", in \(unit)"))")
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
        let suffix = unit.isEmpty ? "" : " " + unit
        if max < 12, !text.hasSuffix("%"), DecimalNumber.parse(text) == nil {
            throw .invalidValue(
                option: option, value: text,
                problem: "is not a number (use a decimal more than 0, up to \(format(max))\(suffix))")
        }
        let value = try number(
            text, option: option, range: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude, unit: unit)
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

    /// A length: points (`12`, `1.5`) or a percentage of the reference box's shorter
    /// side (`28%`).
    ///
    /// - Parameters:
    ///   - range: the points accepted.
    ///   - percentRange: the percentages accepted.
    ///   - positive: whether 0 is refused.
    /// - Throws: `BadgeError.invalidValue` naming `option` and what is accepted.
    package static func length(
        _ text: Substring, whole: String, option: String, range: ClosedRange<Double>,
        percentRange: ClosedRange<Double> = 0...100, positive: Bool = false, what: String = "a length"
    ) throws(BadgeError) -> Length {
        let trimmed = text.trimmingSpaces()
        let isPercent = trimmed.hasSuffix("%")
        guard let value = DecimalNumber.parse(isPercent ? trimmed.dropLast() : trimmed) else {
            let expected =
                what == "a length"
                ? "is not a number (use a decimal such as 12 or 1.5, in pt, or a percentage such as 28%)"
                : "is not \(what) (use points such as 12 or 1.5, or a percentage of the icon such as 28%)"
            throw .invalidValue(option: option, value: whole, problem: expected)
        }
        let accepted = isPercent ? percentRange : range
        let unit = isPercent ? "%" : " pt"
        if positive, value <= 0 {
            throw .invalidValue(
                option: option, value: whole,
                problem: "must be greater than 0 (use up to \(format(accepted.upperBound))\(unit))")
        }
        guard accepted.contains(value) else {
            let high = format(accepted.upperBound) + unit
            let span =
                positive && accepted.lowerBound == 0
                ? "more than 0, up to \(high)" : "\(format(accepted.lowerBound))\(unit) to \(high)"
            throw .invalidValue(option: option, value: whole, problem: "is out of range (use \(span))")
        }
        return isPercent ? .percent(value) : .points(value)
    }

    /// `DX,DY`: each in points or percent of the reference box's shorter side.
    package static func offset(_ text: String, option: String) throws(BadgeError) -> Offset {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw .invalidValue(
                option: option, value: text, problem: "is not DX,DY (use two values, e.g. 6,-4 or -20%,20%)")
        }
        func one(_ part: Substring) throws(BadgeError) -> Length {
            try length(
                part, whole: text, option: option, range: -100_000...100_000, percentRange: -1000...1000,
                what: "DX,DY")
        }
        return Offset(dx: try one(parts[0]), dy: try one(parts[1]))
    }

    /// `X,Y,W,H` of `--ignore`: four numbers, each pixels (`10`, `2.5`) or percent
    /// (`12.5%`) of the expected image's width (X, W) or height (Y, H); X and Y 0 or
    /// more, W and H more than 0, a percentage at most 100 %. Rounding and clipping are
    /// ``IgnoreRegion``'s.
    ///
    /// - Throws: `BadgeError.invalidValue` (64) naming the value, the bad part and the fix.
    package static func ignoreRegion(_ text: String, option: String) throws(BadgeError) -> IgnoreRegion {
        let example = "e.g. 0,0,32,16 in pixels or 0,90%,100%,10%"
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else {
            throw .invalidValue(
                option: option, value: text,
                problem: "is not X,Y,W,H (give four values, each pixels or a percentage, \(example))")
        }
        let names = ["X", "Y", "W", "H"]
        var coordinates: [IgnoreRegion.Coordinate] = []
        for (index, part) in parts.enumerated() {
            let name = names[index]
            let trimmed = part.trimmingSpaces()
            let isPercent = trimmed.hasSuffix("%")
            guard let value = DecimalNumber.parse(isPercent ? trimmed.dropLast() : trimmed) else {
                throw .invalidValue(
                    option: option, value: text,
                    problem:
                        "has \(name) = \(Quoted(String(part))), which is not a number of pixels or a percentage (\(example))"
                )
            }
            let shown = ValueParsers.format(value) + (isPercent ? "%" : "")
            if index < 2, value < 0 {
                throw .invalidValue(
                    option: option, value: text,
                    problem: "has \(name) = \(shown); X and Y must be 0 or more (0,0 is the top-left corner)")
            }
            if index >= 2, value <= 0 {
                throw .invalidValue(
                    option: option, value: text,
                    problem:
                        "has \(name) = \(shown); W and H must be greater than 0 (an empty rectangle ignores nothing)")
            }
            if isPercent, value > 100 {
                throw .invalidValue(
                    option: option, value: text,
                    problem: "has \(name) = \(shown); a percentage is at most 100% (of the expected image's side)")
            }
            coordinates.append(isPercent ? .percent(value) : .pixels(value))
        }
        return IgnoreRegion(x: coordinates[0], y: coordinates[1], width: coordinates[2], height: coordinates[3])
    }

    /// `H` or `H,V` (each ≥ 0, points or percent).
    package static func padding(_ text: String, option: String) throws(BadgeError) -> Padding {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else {
            throw .invalidValue(
                option: option, value: text, problem: "is not H or H,V (per side, e.g. 4 or 4,2 in pt, or 2%)")
        }
        var values: [Length] = []
        for part in parts {
            values.append(
                try length(part, whole: text, option: option, range: 0...10_000, percentRange: 0...50, what: "H or H,V")
            )
        }
        return Padding(horizontal: values[0], vertical: values.count == 2 ? values[1] : values[0])
    }

    /// `WxH` or `N` (for N × N) in pixels, each in `range` (no percentages).
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
            if part.hasSuffix("%") {
                throw .invalidValue(
                    option: option, value: text, problem: "is a percentage, and \(option) takes none (give \(unit))")
            }
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

    /// `WxH` or `N`, each a length (points or percent), more than 0.
    package static func lengthSize(_ text: String, option: String) throws(BadgeError) -> LengthSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else {
            throw .invalidValue(option: option, value: text, problem: "is not WxH or N (e.g. 8x8 or 8 in pt, or 20%)")
        }
        var values: [Length] = []
        for part in parts {
            values.append(
                try length(part, whole: text, option: option, range: 0...10_000, positive: true, what: "WxH or N"))
        }
        return LengthSize(width: values[0], height: values.count == 2 ? values[1] : values[0])
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
