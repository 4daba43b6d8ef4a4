import Testing

@testable import BadgeCore

@Suite struct ColorParsingTests {
    @Test(arguments: [
        ("#f00", Color(red: 255, green: 0, blue: 0)),
        ("#F00A", Color(red: 255, green: 0, blue: 0, alpha: 0xAA)),
        ("#FF3B30", Color(red: 0xFF, green: 0x3B, blue: 0x30)),
        ("#ff3b3080", Color(red: 0xFF, green: 0x3B, blue: 0x30, alpha: 0x80)),
        ("red", Color(red: 255, green: 0, blue: 0)),
        ("RebeccaPurple", Color(red: 0x66, green: 0x33, blue: 0x99)),
        ("grey", Color(red: 128, green: 128, blue: 128)),
        ("transparent", Color(red: 0, green: 0, blue: 0, alpha: 0)),
        ("rgb(255, 59, 48)", Color(red: 255, green: 59, blue: 48)),
        ("rgb(255 59 48 / 50%)", Color(red: 255, green: 59, blue: 48, alpha: 128)),
        ("rgba(0,0,255,0.25)", Color(red: 0, green: 0, blue: 255, alpha: 64)),
        ("rgb(100%, 0%, 50%)", Color(red: 255, green: 0, blue: 128)),
        ("rgb(300, -5, 0)", Color(red: 255, green: 0, blue: 0)),
        ("hsl(0, 100%, 50%)", Color(red: 255, green: 0, blue: 0)),
        ("hsl(120deg 100% 25%)", Color(red: 0, green: 128, blue: 0)),
        ("hsla(240, 100%, 50%, 0.5)", Color(red: 0, green: 0, blue: 255, alpha: 128)),
        ("hsl(0.5turn 100% 50%)", Color(red: 0, green: 255, blue: 255)),
        ("  blue  ", Color(red: 0, green: 0, blue: 255)),
    ])
    func parses(text: String, expected: Color) throws {
        #expect(try Color(parsing: text) == expected)
    }

    @Test(arguments: [
        "#12345", "#ggg", "rgb(1,2)", "rgb(1,2,3,4,5)", "rgb(nan,0,0)", "rgb(inf,0,0)", "rgb(0x10,0,0)",
        "hsl(1,2)", "", "#", "reddish", "notacolour", "rgb(1,,3)", "cmyk(0,0,0,0)", "rgb(1e400,0,0)",
    ])
    func rejects(text: String) {
        #expect(throws: ColorSyntaxError.self) { try Color(parsing: text) }
    }

    @Test func explainsHexDigitCount() {
        #expect(throws: ColorSyntaxError(reason: "5 hex digits; a colour has 3, 4, 6 or 8")) {
            try Color(parsing: "#12345")
        }
    }

    @Test func suggestsCloseName() {
        #expect(throws: ColorSyntaxError(reason: "unknown colour name; did you mean green?")) {
            try Color(parsing: "gren")
        }
    }

    @Test func describesAsHexWithAlpha() {
        #expect(Color(red: 0xFF, green: 0x3B, blue: 0x30, alpha: 0x80).description == "#FF3B3080")
        #expect(Color.systemRed.description == "#FF3B30FF")
    }
}
