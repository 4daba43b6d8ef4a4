extension IconFilter {
    /// The filter names `parse` knows, for "did you mean" and messages (`grayscale`
    /// is the US spelling of `greyscale`; `none` clears the filters before it).
    public static let names = ["greyscale", "grayscale", "desaturate", "dim", "tint", "none"]

    /// What `parse` accepts, for messages and help.
    public static let acceptedSyntax = "use greyscale, desaturate:AMOUNT, dim:AMOUNT, tint:COLOR[:AMOUNT] or none"

    /// What an amount may be, for messages.
    static let amountSyntax = "use 0 to 1, or 0% to 100%"

    /// Parses one `--icon-filter` value: `greyscale` (or `grayscale`),
    /// `desaturate:AMOUNT`, `dim:AMOUNT`, `tint:COLOR[:AMOUNT]`, or `none`, which
    /// returns nil (the caller drops the filters given before it). Names are
    /// case-insensitive. AMOUNT is a decimal from 0 to 1 or a percentage from 0% to
    /// 100%; `tint`'s defaults to 1. COLOR is any colour `Color(parsing:)` reads;
    /// since no colour contains `:`, the amount is what follows the last `:`
    /// (`tint:rgb(0,122,255):0.5`).
    ///
    /// - Throws: `BadgeError.invalidValue` (exit 64) naming `option`, the whole
    ///   value and the fix: an unknown name (with "did you mean"), a missing or
    ///   out-of-range amount, a `tint` without a colour or with a bad one, an amount
    ///   given to `greyscale`.
    public static func parse(_ text: String, option: String) throws(BadgeError) -> IconFilter? {
        func fail(_ problem: String) -> BadgeError { .invalidValue(option: option, value: text, problem: problem) }
        let trimmed = text.trimmingASCIIWhitespace()
        let colon = trimmed.firstIndex(of: ":")
        let name = (colon.map { trimmed[..<$0] } ?? trimmed[...]).trimmingASCIIWhitespace().lowercased()
        let argument = colon.map { trimmed[trimmed.index(after: $0)...].trimmingASCIIWhitespace() }
        switch name {
        case "" where argument == nil:
            throw fail("is empty (\(acceptedSyntax))")
        case "none":
            guard argument == nil else { throw fail("has an argument, and none takes none (none clears the filters)") }
            return nil
        case "greyscale", "grayscale":
            guard argument == nil else {
                throw fail(
                    "gives greyscale an amount; greyscale takes none (use desaturate:AMOUNT for part of the way, e.g. desaturate:0.5)"
                )
            }
            return .greyscale
        case "desaturate", "dim":
            guard let argument, !argument.isEmpty else {
                let example = name == "dim" ? "dim:0.3 is 30% darker" : "desaturate:0.5 is half way to greyscale"
                throw fail("needs an amount from 0 to 1 (e.g. \(example))")
            }
            let amount = try parseAmount(argument, fail: fail)
            return name == "dim" ? .dim(amount) : .desaturate(amount)
        case "tint":
            guard let argument, !argument.isEmpty else {
                throw fail("needs a colour (e.g. tint:#007AFF, or tint:#007AFF:0.5 for half the effect)")
            }
            var colorText = argument
            var amount = Amount.full
            if let last = argument.lastIndex(of: ":") {
                colorText = argument[..<last].trimmingASCIIWhitespace()
                amount = try parseAmount(argument[argument.index(after: last)...].trimmingASCIIWhitespace(), fail: fail)
            }
            guard !colorText.isEmpty else {
                throw fail("needs a colour before the amount (e.g. tint:#007AFF:0.5)")
            }
            do throws(ColorSyntaxError) {
                return .tint(try Color(parsing: String(colorText)), amount)
            } catch {
                throw fail("has the colour \(Quoted(String(colorText))), which \(error.problem)")
            }
        default:
            var problem = "is not an icon filter (\(acceptedSyntax))"
            if name.contains(",") {
                // Colours hold commas (rgb(1,2,3)), so filters are not a comma list.
                problem += "; give one filter per \(option) and repeat it (\(option) greyscale \(option) dim:0.3)"
            } else if name == "grey" || name == "gray" {
                problem += "; did you mean greyscale?"
            } else if let guess = Suggestion.closest(to: name, among: names) {
                problem += "; did you mean \(guess)\(argument.map { ":" + $0 } ?? "")?"
            }
            throw fail(problem)
        }
    }

    /// An amount: a decimal from 0 to 1, or a percentage from 0% to 100%.
    private static func parseAmount(_ text: Substring, fail: (String) -> BadgeError) throws(BadgeError) -> Amount {
        guard !text.isEmpty else { throw fail("has an empty amount (\(amountSyntax))") }
        let isPercent = text.hasSuffix("%")
        guard let number = DecimalNumber.parse(isPercent ? text.dropLast() : text) else {
            throw fail("has the amount \(Quoted(String(text))), which is not a number (\(amountSyntax))")
        }
        let value = isPercent ? number / 100 : number
        guard (0...1).contains(value) else {
            throw fail("has the amount \(text), out of range (\(amountSyntax))")
        }
        return Amount(tenThousandths: tenThousandths(isPercent ? text.dropLast() : text, percent: isPercent))
            ?? Amount(value)
    }

    /// A plain decimal (checked by `DecimalNumber`, 0 to 1, or 0 to 100 for a
    /// percentage) in ten-thousandths, rounded half up on its written digits, so that
    /// 0.00015 is 2 (its binary double is a hair under); nil with an exponent (`5e-1`),
    /// which the double then gives.
    static func tenThousandths(_ text: Substring, percent: Bool) -> Int? {
        guard !text.contains(where: { $0 == "e" || $0 == "E" }) else { return nil }
        var body = text
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        let point = body.firstIndex(of: ".") ?? body.endIndex
        let digits = body[..<point].drop { $0 == "0" }
        guard digits.count <= 3, let whole = digits.isEmpty ? 0 : Int(digits) else { return nil }
        let fraction = point < body.endIndex ? Array(body[body.index(after: point)...]) : []
        let places = percent ? 2 : 4  // 1% is 100 ten-thousandths
        var result = whole
        for index in 0..<places {
            result = result * 10 + (index < fraction.count ? Int(fraction[index].asciiValue! - 48) : 0)
        }
        if fraction.count > places, fraction[places] >= "5" { result += 1 }
        return result
    }
}
