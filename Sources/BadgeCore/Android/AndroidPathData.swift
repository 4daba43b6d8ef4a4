/// A VectorDrawable's `android:pathData`, read and written again as SVG path data.
///
/// The grammar is SVG 1.1's (section 8.3.9, "The grammar for path data"), which
/// Android's `PathParser` reads too: commands `M L H V C S Q T A Z` in either case,
/// numbers with an optional sign, fraction and exponent, separated by white space,
/// commas or nothing where the grammar allows (`1.5.5`, `-1-2`), arc flags as single
/// digits (`a1,1 0 0110,10`), and a command repeated implicitly by more numbers. Two
/// differences from SVG are kept as Android draws them: path data that does not start
/// with a move starts at (0, 0), and empty path data draws nothing.
///
/// The result names only commands and numbers written by iconbadge (single spaces,
/// every number finite and at most `maxMagnitude`), so hostile text never reaches the
/// SVG document it goes into.
public enum AndroidPathData {
    /// The longest path data read (UTF-8 bytes): 512 KiB, some ten times the largest
    /// path of a detailed launcher icon.
    public static let maxBytes = 512 << 10
    /// The largest magnitude of a number: 1e9, far beyond any viewport, well inside
    /// what librsvg and Cairo compute with.
    public static let maxMagnitude = 1e9

    /// Why path data cannot be read: what is wrong and the byte offset where.
    public struct Problem: Error, Equatable, Sendable {
        /// The byte offset in the path data where reading stopped.
        public var offset: Int
        /// What is wrong there, in words for the one error line.
        public var reason: String
    }

    /// The path data as SVG path data (commands and numbers separated by single
    /// spaces); "" when it is empty.
    ///
    /// - Throws: `Problem` for a character outside the grammar, a command with too
    ///   few numbers, a number out of range, or text over `maxBytes`.
    public static func svg(_ text: String) throws(Problem) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count <= maxBytes else {
            throw Problem(
                offset: maxBytes, reason: "is \(bytes.count) bytes long, over the \(maxBytes >> 10) KiB limit")
        }
        var reader = Reader(bytes: bytes)
        var out: [String] = []
        var first = true
        while true {
            reader.skipSeparators()
            guard let byte = reader.peek else { break }
            guard let command = Command(byte) else {
                if first {
                    throw Problem(offset: reader.position, reason: "does not start with a command (M, L, C, …)")
                }
                throw Problem(offset: reader.position, reason: "has \(Self.shown(byte)) where a command or number goes")
            }
            reader.position += 1
            if first, command.letter != "M", command.letter != "m" { out.append("M 0 0") }
            first = false
            out.append(String(command.letter))
            if command.arity == 0 { continue }
            // The numbers of one command and of its implicit repetitions.
            var groups = 0
            while true {
                reader.skipSeparators()
                guard let next = reader.peek, Self.startsNumber(next) else { break }
                for index in 0..<command.arity {
                    if index > 0 { reader.skipSeparators() }
                    let number: Double
                    if command.isArc, index == 3 || index == 4 {
                        number = try reader.flag()
                    } else {
                        number = try reader.number()
                    }
                    out.append(Self.format(number))
                }
                groups += 1
            }
            guard groups > 0 else {
                throw Problem(
                    offset: reader.position,
                    reason: "has the command \(command.letter) without its \(command.arity) numbers")
            }
        }
        return out.joined(separator: " ")
    }

    /// A number as SVG reads it back to the same double: Swift's shortest
    /// round-trip spelling, with no exponent below 1e16.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    static func startsNumber(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".")
    }

    static func shown(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "the byte 0x\(String(byte, radix: 16))"
    }

    /// One path command and how many numbers it takes.
    private struct Command {
        let letter: Character
        let arity: Int
        var isArc: Bool { letter == "a" || letter == "A" }

        init?(_ byte: UInt8) {
            let arities: [UInt8: Int] = [
                UInt8(ascii: "M"): 2, UInt8(ascii: "L"): 2, UInt8(ascii: "H"): 1, UInt8(ascii: "V"): 1,
                UInt8(ascii: "C"): 6, UInt8(ascii: "S"): 4, UInt8(ascii: "Q"): 4, UInt8(ascii: "T"): 2,
                UInt8(ascii: "A"): 7, UInt8(ascii: "Z"): 0,
            ]
            let upper = byte & ~0x20
            guard (0x41...0x5A).contains(upper) || (0x61...0x7A).contains(byte), let arity = arities[upper] else {
                return nil
            }
            letter = Character(Unicode.Scalar(byte))
            self.arity = arity
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipSeparators() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x2C {
                position += 1
            }
        }

        func digits(from start: Int) -> Int {
            var index = start
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index
        }

        /// An arc flag: a single 0 or 1.
        mutating func flag() throws(Problem) -> Double {
            guard let byte = peek, byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") else {
                throw Problem(offset: position, reason: "has an arc flag that is not 0 or 1")
            }
            position += 1
            return byte == UInt8(ascii: "1") ? 1 : 0
        }

        /// A number: sign, digits, fraction, exponent.
        mutating func number() throws(Problem) -> Double {
            let start = position
            var index = position
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            let integerEnd = digits(from: index)
            var end = integerEnd
            var hasDigits = integerEnd > index
            if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
                let fractionEnd = digits(from: end + 1)
                hasDigits = hasDigits || fractionEnd > end + 1
                end = fractionEnd
            }
            guard hasDigits else { throw Problem(offset: start, reason: "has a number without digits") }
            if end < bytes.count, bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E") {
                var exponent = end + 1
                if exponent < bytes.count, bytes[exponent] == UInt8(ascii: "-") || bytes[exponent] == UInt8(ascii: "+")
                {
                    exponent += 1
                }
                let exponentEnd = digits(from: exponent)
                // "1e" followed by no digits is not an exponent (SVG reads "1" then "e").
                if exponentEnd > exponent { end = exponentEnd }
            }
            guard end - start <= 64,
                let value = Double(String(decoding: bytes[start..<end], as: UTF8.self)),
                value.isFinite, abs(value) <= AndroidPathData.maxMagnitude
            else {
                throw Problem(
                    offset: start,
                    reason: "has a number over \(AndroidPathData.format(AndroidPathData.maxMagnitude)) in magnitude")
            }
            position = end
            return value
        }
    }
}
