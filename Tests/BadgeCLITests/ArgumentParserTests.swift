import BadgeCore
import BadgeJobs
import Testing

@testable import BadgeCLI

@Suite struct ArgumentParserTests {
    func parse(_ arguments: [String], environment: [String: String] = [:]) throws(BadgeError) -> ParsedArguments<
        RenderSettings
    > {
        try ArgumentParser(options: RenderOptions.all).parse(
            arguments[...], defaults: RenderSettings(), environment: environment)
    }

    @Test func readsValuesInEveryForm() throws {
        let parsed = try parse(["icon.png", "--value=3", "-o", "out.png", "--offset", "-4,2", "--background", "blue"])
        #expect(parsed.positionals == ["icon.png"])
        #expect(parsed.settings.value == "3")
        #expect(parsed.settings.output == "out.png")
        #expect(parsed.settings.style.offset == Offset(dx: .points(-4), dy: .points(2)))
        #expect(parsed.settings.style.background == Color(rgb: 0x0000FF))
        #expect(try parse(["-oout.png"]).settings.output == "out.png")
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try parse(["--value", "3", "--", "-icon.png"])
        #expect(parsed.positionals == ["-icon.png"])
    }

    @Test func flagsOverrideEnvironmentWhichOverridesThePreset() throws {
        let environment = ["ICONBADGE_BACKGROUND": "green", "ICONBADGE_FONT_SIZE": "14"]
        let parsed = try parse(["--style", "material3", "--font-size", "10"], environment: environment)
        #expect(parsed.settings.style.background == Color(rgb: 0x008000))
        #expect(parsed.settings.style.fontSize == 10)
        #expect(parsed.settings.style.height == .fixed(16))
        let flagFirst = try parse(["--background", "red", "--style", "material3"])
        #expect(flagFirst.settings.style.background == Color(rgb: 0xFF0000))
    }

    /// A narrow range is its own example: "such as 12 or 1.5" would be out of it.
    @Test func aNumberOfANarrowRangeIsExplainedByItsRange() {
        #expect(
            throws: BadgeError.invalidValue(
                option: "--relative-size", value: "abc", problem: "is not a number (use a decimal more than 0, up to 1)"
            )
        ) { try ValueParsers.positive("abc", option: "--relative-size", max: 1, unit: "") }
        #expect(
            throws: BadgeError.invalidValue(
                option: "--threshold", value: "x", problem: "is not a number (use a decimal from 0 to 1)")
        ) { try ValueParsers.number("x", option: "--threshold", range: 0...1, unit: "") }
    }

    @Test func environmentErrorsNameTheVariable() {
        #expect(
            throws: BadgeError.invalidValue(
                option: "ICONBADGE_SCALE", value: "x",
                problem: "is not a number (use a decimal such as 12 or 1.5, in ×)")
        ) {
            try parse([], environment: ["ICONBADGE_SCALE": "x"])
        }
    }

    @Test func perRunValuesDoNotComeFromTheEnvironment() throws {
        #expect(
            try parse([], environment: ["ICONBADGE_OUTPUT": "x.png", "ICONBADGE_VALUE": "3"]).settings.output == nil)
    }

    @Test func explicitZeroIsHonoured() throws {
        let parsed = try parse([
            "--radius", "0", "--padding", "0", "--max", "0", "--border-width", "0", "--min-width", "0",
        ])
        #expect(parsed.settings.style.radius == 0)
        #expect(parsed.settings.style.padding == Padding(horizontal: 0, vertical: 0))
        #expect(parsed.settings.labelRules.maxCount == 0)
    }

    @Test(arguments: [
        (
            ["--anchor", "topright"],
            "--anchor: \"topright\" is not one of top-left, top, top-right, left, center, right, bottom-left, bottom, bottom-right; did you mean top-right?"
        ),
        (
            ["--font-size", "inf"],
            "--font-size: \"inf\" is not a number (use a decimal such as 12 or 1.5, in pt, or a percentage such as 28%)"
        ),
        (
            ["--height", "1e400"],
            "--height: \"1e400\" is not a number (use a decimal such as 12 or 1.5, in pt, or a percentage such as 28%)"
        ),
        (["--height", "-3"], "--height: \"-3\" must be greater than 0 (use up to 10000 pt)"),
        (["--height", "20000"], "--height: \"20000\" is out of range (use more than 0, up to 10000 pt)"),
        (["--offset", "5"], "--offset: \"5\" is not DX,DY (use two values, e.g. 6,-4 or -20%,20%)"),
        (["--padding", "60%"], "--padding: \"60%\" is out of range (use 0% to 50%)"),
        (
            ["--font", "Foo:weight=abc="],
            "--font: \"Foo:weight=abc=\" is not a fontconfig pattern (use e.g. \"DejaVu Sans:bold\")"
        ),
        (["--scale", "50%"], "--scale: \"50%\" is a percentage, and --scale takes none (give a number in ×)"),
        (["--size", "50%"], "--size: \"50%\" is a percentage, and --size takes none (give pt)"),
        (["--overflow", "hide"], "--overflow: \"hide\" is not one of clamp, clip, expand"),
        (["--max", "1.5"], "--max: \"1.5\" is not a whole number (use 0 to 999999999)"),
        (["--scale", "0x1p1"], "--scale: \"0x1p1\" is not a number (use a decimal such as 12 or 1.5, in ×)"),
        (
            ["--background", "#ggg"],
            "--background: \"#ggg\" is not a colour: \"g\" is not a hex digit (use #RGB, #RGBA, #RRGGBB, #RRGGBBAA, rgb(), rgba(), hsl(), hsla(), transparent, or a CSS name)"
        ),
        (["--dot-size", "0"], "--dot-size: \"0\" must be greater than 0 (use up to 10000 pt)"),
        (
            ["--icon-mask", "square"],
            "--icon-mask: \"square\" is not a mask (use none, circle or rounded:R with R in pt, e.g. rounded:12)"
        ),
        (
            ["--font-features", "tnum,??"],
            "--font-features: \"tnum,??\" has \"??\", not an OpenType feature (use e.g. tnum, -liga, kern=0)"
        ),
        (["--scale", "2", "--scale", "3"], "--scale is given twice (give it once)"),
        (["--colour", "red"], "unknown option \"--colour\" (did you mean --color?)"),
    ])
    func rejectsBadValuesWithOneClearLine(arguments: [String], message: String) {
        do {
            _ = try parse(arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(error.message == message)
            #expect(error.exitCode == .usage)
        }
    }
}
