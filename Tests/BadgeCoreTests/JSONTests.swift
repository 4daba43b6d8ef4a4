import Testing

@testable import BadgeCore

@Suite struct JSONTests {
    @Test func roundTripsInOrder() throws {
        let text = #"{"b":1,"a":[true,false,null,"x\n\"y"],"c":-2.5,"d":{"e":"新"}}"#
        let value = try JSONParser().parse(text)
        #expect(value.serialized() == text)
        #expect(value["a"] == .array([.bool(true), .bool(false), .null, .string("x\n\"y")]))
    }

    @Test func decodesEscapesAndSurrogates() throws {
        #expect(try JSONParser().parse(#""\u00e9\ud83d\udd25""#) == .string("é🔥"))
    }

    @Test func skipsByteOrderMark() throws {
        #expect(try JSONParser().parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number(1)]))
    }

    @Test func reportsPosition() {
        #expect(throws: JSONSyntaxError(message: "expected ',' or '}'", line: 2, column: 3)) {
            try JSONParser().parse("{\"a\": 1\n  \"b\" 2}")
        }
    }

    @Test func boundsNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(deep) }
    }

    @Test(arguments: ["1e400", "NaN", "01", "[1,]", "{\"a\"}", "\"\\x\"", "tru", "", "[1] 2", "\"\u{01}\""])
    func rejectsInvalid(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(text) }
    }

    @Test func writesWholeNumbersWithoutFraction() {
        #expect(JSONValue.object([("w", .number(48)), ("r", .number(0.5))]).serialized() == #"{"w":48,"r":0.5}"#)
    }

    /// Duplicate keys are found in small and large objects alike, where the 33rd key
    /// repeats an early one and where it repeats one past the 33rd.
    @Test(arguments: [3, 40, 1000])
    func findsDuplicateKeys(count: Int) {
        let keys = (0..<count).map { "\"k\($0)\":0" } + ["\"k\(count - 2)\":1"]
        let text = "{" + keys.joined(separator: ",") + "}"
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(text) }
        #expect(throws: Never.self) { try JSONParser().parse("{" + keys.dropLast().joined(separator: ",") + "}") }
    }

    /// 400,000 distinct keys in one object (a 5 MB manifest): a scan per key was
    /// 8 × 10¹⁰ comparisons (over ten minutes). The time limit is a watchdog, hundreds
    /// of times the linear parse (1 s in a debug build), never a speed check.
    @Test(.timeLimit(.minutes(5))) func manyKeysParseInLinearTime() throws {
        let text = "{" + (0..<400_000).map { "\"\(String($0, radix: 16))\":0" }.joined(separator: ",") + "}"
        guard case .object(let members) = try JSONParser().parse(text) else {
            Issue.record("not an object")
            return
        }
        #expect(members.count == 400_000)
    }
}
