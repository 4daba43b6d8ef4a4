/// A strict RFC 8259 JSON parser over UTF-8 bytes, bounded for untrusted input:
/// nesting deeper than `maxDepth` is an error (no recursion past it, so 100,000
/// open brackets cannot overflow the stack), numbers must be finite, and errors
/// give the line and column. A leading UTF-8 byte order mark is skipped.
public struct JSONParser {
    /// Deepest allowed nesting of arrays and objects.
    public var maxDepth: Int

    /// Creates a parser; 64 levels is far more than any manifest needs.
    public init(maxDepth: Int = 64) {
        self.maxDepth = maxDepth
    }

    /// Parses one JSON document.
    ///
    /// - Throws: `JSONSyntaxError` with the 1-based line and column.
    public func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    /// Parses a document whose top level is an object, handing the elements of its
    /// array member `streamed` to `each` one at a time, as they are read, so that a
    /// document of many items never exists whole as `JSONValue`s (a parsed value costs
    /// about 13 times its text). Every member is returned, `streamed` as an empty
    /// array. Each element may hold at most `maxElementValues` values (strings,
    /// numbers, arrays, objects, each counted), the other members together
    /// `maxValues`: 32 MiB of `0,` is refused at its `maxValues`-th number, never
    /// built (issue 44).
    ///
    /// - Throws: `syntax` of the `JSONSyntaxError` (with its line and column) when the
    ///   text is not JSON, the top level is not an object, `streamed` is not an array,
    ///   or a budget is passed; what `each` throws.
    public func parseObject<Failure: Error>(
        _ bytes: [UInt8], streaming streamed: String, maxValues: Int, maxElementValues: Int,
        each: (JSONValue) throws(Failure) -> Void, syntax: (JSONSyntaxError) -> Failure
    ) throws(Failure) -> JSONValue {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        reader.valuesLeft = maxValues
        reader.budget = maxValues
        do throws(JSONSyntaxError) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
            reader.skipSpace()
            guard reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: "{") else {
                throw reader.error("expected an object")
            }
        } catch {
            throw syntax(error)
        }
        var members: [(String, JSONValue)] = []
        var keys: Set<String> = []
        var itemError: Failure?
        do throws(JSONSyntaxError) {
            reader.index += 1
            reader.skipSpace()
            if reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: "}") {
                reader.index += 1
            } else {
                memberLoop: while true {
                    reader.skipSpace()
                    guard reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: "\"") else {
                        throw reader.error("expected a string key")
                    }
                    let keyStart = reader.index
                    let key = try reader.string()
                    guard keys.insert(key).inserted else {
                        throw reader.error("duplicate key \(Quoted(key))", at: keyStart)
                    }
                    reader.skipSpace()
                    guard reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: ":") else {
                        throw reader.error("expected ':'")
                    }
                    reader.index += 1
                    reader.skipSpace()
                    if key == streamed {
                        members.append((key, .array([])))  // present, its elements handed out
                        guard reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: "[") else {
                            throw reader.error("\(Quoted(streamed)) is not an array")
                        }
                        reader.index += 1
                        reader.skipSpace()
                        if reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: "]") {
                            reader.index += 1
                        } else {
                            while true {
                                reader.skipSpace()
                                let left = reader.valuesLeft
                                reader.valuesLeft = maxElementValues
                                reader.budget = maxElementValues
                                let element = try reader.value(depth: 2)
                                reader.valuesLeft = left
                                reader.budget = maxValues
                                do throws(Failure) {
                                    try each(element)
                                } catch {
                                    itemError = error
                                    break memberLoop
                                }
                                reader.skipSpace()
                                guard reader.index < bytes.count else {
                                    throw reader.error("unexpected end of input in an array")
                                }
                                if bytes[reader.index] == UInt8(ascii: ",") {
                                    reader.index += 1
                                    continue
                                }
                                guard bytes[reader.index] == UInt8(ascii: "]") else {
                                    throw reader.error("expected ',' or ']'")
                                }
                                reader.index += 1
                                break
                            }
                        }
                    } else {
                        members.append((key, try reader.value(depth: 1)))
                    }
                    reader.skipSpace()
                    guard reader.index < bytes.count else { throw reader.error("unexpected end of input in an object") }
                    if bytes[reader.index] == UInt8(ascii: ",") {
                        reader.index += 1
                        continue
                    }
                    guard bytes[reader.index] == UInt8(ascii: "}") else { throw reader.error("expected ',' or '}'") }
                    reader.index += 1
                    break
                }
            }
            if itemError == nil {
                reader.skipSpace()
                guard reader.index == bytes.count else { throw reader.error("unexpected text after the JSON value") }
            }
        } catch {
            throw syntax(error)
        }
        if let itemError { throw itemError }
        return .object(members)
    }

    /// Parses one JSON document held in a string.
    ///
    /// - Throws: `JSONSyntaxError` with the 1-based line and column.
    public func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private struct Reader {
        let bytes: [UInt8]
        let maxDepth: Int
        var index = 0
        /// Values that may still be made (`parseObject`'s budget; unbounded otherwise).
        var valuesLeft = Int.max
        /// The budget `valuesLeft` counts down from, for the message.
        var budget = Int.max

        func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
            let position = min(position ?? index, bytes.count)
            var line = 1
            var column = 1
            for byte in bytes[..<position] {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return JSONSyntaxError(message: message, line: line, column: column)
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard index < bytes.count else { throw error("unexpected end of input") }
            guard valuesLeft > 0 else {
                throw error("more than \(budget) values where this reader takes at most that many")
            }
            valuesLeft -= 1
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character")
            }
        }

        mutating func literal(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
            let utf8 = Array(word.utf8)
            guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
                throw error("unexpected character")
            }
            index += utf8.count
            return value
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
            index += 1
            var members: [(String, JSONValue)] = []
            // Keys seen, once an object has many: a scan per key would make a 16 MiB
            // object of short keys quadratic (minutes). Small objects scan.
            var seen: Set<String>? = nil
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a string key")
                }
                let keyStart = index
                let key = try string()
                let duplicate: Bool
                if seen != nil {
                    duplicate = !seen!.insert(key).inserted
                } else {
                    duplicate = members.contains(where: { $0.0 == key })
                    if members.count == 32 { seen = Set(members.map(\.0) + [key]) }
                }
                if duplicate { throw error("duplicate key \(Quoted(key))", at: keyStart) }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipSpace()
                members.append((key, try value(depth: depth)))
                skipSpace()
                guard index < bytes.count else { throw error("unexpected end of input in an object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                index += 1
                return .object(members)
            }
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
            index += 1
            var items: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth))
                skipSpace()
                guard index < bytes.count else { throw error("unexpected end of input in an array") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                index += 1
                return .array(items)
            }
        }

        mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
            guard bytes.count - index >= 4 else { throw error("truncated \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else {
                    throw error("bad \\u escape")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        mutating func string() throws(JSONSyntaxError) -> String {
            let start = index
            index += 1
            // Most strings hold no escape: one validation of their bytes, no scalar
            // appended one by one (a results file of 30,000 items spent a third of its
            // time there).
            var end = index
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
                bytes[end] >= 0x20
            {
                end += 1
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\""),
                let plain = String(validating: bytes[index..<end], as: UTF8.self)
            {
                index = end + 1
                return plain
            }
            var scalars = String.UnicodeScalarView()
            var runStart = index
            func flush(_ end: Int) throws(JSONSyntaxError) {
                guard runStart < end else { return }
                guard let run = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string", at: runStart)
                }
                scalars.append(contentsOf: run.unicodeScalars)
            }
            while true {
                guard index < bytes.count else { throw error("unterminated string", at: start) }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    try flush(index)
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw error("control character in a string") }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                try flush(index)
                index += 1
                guard index < bytes.count else { throw error("unterminated string", at: start) }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate in \\u escape") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("unpaired surrogate in \\u escape") }
                    scalars.append(scalar)
                default: throw error("bad escape")
                }
                runStart = index
            }
        }

        mutating func number() throws(JSONSyntaxError) -> JSONValue {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            func digits() -> Int {
                let begin = index
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
                return index - begin
            }
            let integerStart = index
            let integerDigits = digits()
            guard integerDigits > 0 else { throw error("bad number", at: start) }
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
                throw error("leading zero in a number", at: start)
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw error("bad number", at: start) }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard digits() > 0 else { throw error("bad number", at: start) }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let value = Double(text), value.isFinite else {
                // Shown through the escaping rule's length cap: a 5 MB number is not echoed.
                throw error("number \(Shown(text)) is out of range", at: start)
            }
            return .number(value)
        }
    }
}

/// A JSON syntax error with its 1-based position.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    /// What is wrong.
    public var message: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in characters.
    public var column: Int

    /// "line L, column C: message".
    public var description: String { "line \(line), column \(column): \(message)" }
}
