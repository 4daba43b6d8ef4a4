import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Issue 15, item 9 (Deliver 8): output does not follow the caller's locale, a
/// fontconfig configuration that never ends is refused, and fontconfig's messages
/// stay off stderr.
@Suite struct LocaleAndFontconfigTests {
    /// Each sets every variable GLib, Pango and fontconfig read (empty is unset to them).
    static let locales: [(String, [String: String])] = [
        ("C", ["LANG": "C"]),
        ("fr", ["LANG": "fr_FR.UTF-8"]),
        ("ja", ["LANGUAGE": "ja", "LANG": "ja_JP.UTF-8", "PANGO_LANGUAGE": "ja", "FC_LANG": "ja"]),
        ("zh", ["LC_ALL": "zh_CN.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"]),
    ].map { name, set in
        var environment = [
            "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LC_CTYPE": "", "LANG": "", "PANGO_LANGUAGE": "",
            "FC_LANG": "",
        ]
        for (key, value) in set { environment[key] = value }
        return (name, environment)
    }

    /// Runs one command under every locale and expects the same bytes.
    static func expectSameBytes(_ arguments: [String], output: String, _ note: String) throws -> Data {
        var first: Data?
        for (name, environment) in locales {
            let run = try runIconbadge(arguments + ["-o", output], environment: environment)
            #expect(run.status == 0, "\(note) \(name): \(run.stderr)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
            if let first {
                #expect(bytes == first, "\(note): \(name) differs from C")
            } else {
                first = bytes
            }
        }
        return first ?? Data()
    }

    /// librsvg's systemLanguage followed LANGUAGE, LC_ALL, LC_MESSAGES and LANG: one
    /// command gave a blue (fr), green (ja), red (en) or yellow picture. Now no user
    /// language is seen, so `<switch>` draws its child without a systemLanguage.
    @Test func svgSwitchIgnoresTheLocale() throws {
        let folder = Paths.scratch("switch")
        let icon = folder + "/switch.svg"
        try """
        <svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><switch>
        <rect systemLanguage="fr" width="40" height="40" fill="#0000ff"/>
        <rect systemLanguage="ja" width="40" height="40" fill="#00ff00"/>
        <rect systemLanguage="en,zh" width="40" height="40" fill="#ff0000"/>
        <rect width="40" height="40" fill="#ffff00"/>
        </switch></svg>
        """.write(toFile: icon, atomically: true, encoding: .utf8)
        for format in ["png", "svg", "pdf"] {
            _ = try Self.expectSameBytes([icon, "--value", "0"], output: "\(folder)/out.\(format)", format)
        }
        _ = try Self.expectSameBytes([icon, "--value", "0"], output: "\(folder)/out.png", "png")
        #expect(try ImageFile.pixels(at: "\(folder)/out.png")[20, 20] == Color(rgb: 0xFFFF00))
    }

    /// Pango and fontconfig chose a Chinese or a Japanese face for 直 by the locale,
    /// in the SVG's text (the child) and in the badge's fallback (this process).
    @Test func hanFallbackIgnoresTheLocale() throws {
        let folder = Paths.scratch("han")
        let icon = folder + "/han.svg"
        try """
        <svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><text x="4" y="48" font-size="48" font-family="sans-serif">直</text></svg>
        """.write(toFile: icon, atomically: true, encoding: .utf8)
        for format in ["png", "pdf"] {
            _ = try Self.expectSameBytes(
                [icon, "--value", "0"], output: "\(folder)/svg-text.\(format)", "svg \(format)")
        }
        _ = try Self.expectSameBytes(
            [Paths.fixture("icons/folder-132x132.png"), "--value", "直", "--scale", "3"], output: folder + "/badge.png",
            "badge text")
    }

    /// fontconfig reads its configuration to the end: `/dev/zero` grew without end, a
    /// FIFO blocked. Refused before fontconfig starts (69), in this process (a font
    /// family, a fallback glyph) and before an SVG reaches librsvg. Run under
    /// timeout(1), so that a regression fails instead of hanging.
    @Test func fontconfigFileThatNeverEndsIsRefused() throws {
        let folder = Paths.scratch("fontconfig-file")
        let fifo = folder + "/fifo.conf"
        #expect(mkfifo(fifo, 0o600) == 0)
        let big = folder + "/big.conf"
        try Data(count: 2 << 20).write(to: URL(fileURLWithPath: big))
        try "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\"><text y=\"40\">Ab</text></svg>"
            .write(toFile: folder + "/text.svg", atomically: true, encoding: .utf8)
        let icon = Paths.fixture("icons/folder-48x48.png")
        let commands: [[String]] = [
            [icon, "--value", "3", "--font", "DejaVu Sans"],
            [icon, "--value", "直"],
            [folder + "/text.svg", "--dot"],
        ]
        let configurations: [([String: String], String)] = [
            (
                ["FONTCONFIG_FILE": "/dev/zero"],
                "FONTCONFIG_FILE=\"/dev/zero\" is not a regular file (a device, FIFO or folder); point it at a fonts.conf file, or unset it"
            ),
            (
                ["FONTCONFIG_FILE": "fifo.conf", "FONTCONFIG_PATH": folder],
                "FONTCONFIG_FILE=\"fifo.conf\" is not a regular file"
            ),
            (
                ["FONTCONFIG_FILE": big],
                "is 2097152 bytes, over the 1048576-byte limit for a configuration; point it at a fonts.conf file, or unset it"
            ),
        ]
        for (environment, message) in configurations {
            for command in commands {
                let run = try runIconbadgeWith(
                    executable: "/usr/bin/timeout", ["20", Paths.binary] + command + ["-o", folder + "/out.png"],
                    environment: environment)
                #expect(run.status == 69, "\(environment) \(command): \(run.status) \(run.stderr)")
                #expect(
                    run.stderrLines.count == 1 && run.stderr.hasPrefix("iconbadge: error: fontconfig: "),
                    "\(run.stderr)")
                #expect(run.stderr.contains(message), "\(run.stderr)")
            }
        }
        // The bundled font needs no fontconfig: a badge of its own glyphs still renders.
        let plain = try runIconbadgeWith(
            executable: "/usr/bin/timeout", ["20", Paths.binary, icon, "--value", "3", "-o", folder + "/plain.png"],
            environment: ["FONTCONFIG_FILE": "/dev/zero"])
        #expect(plain.status == 0, "\(plain.stderr)")
    }

    /// A configuration fontconfig cannot parse made it print "Fontconfig error: ..."
    /// lines on our stderr; only iconbadge's own line may appear.
    @Test func fontconfigMessagesStayOffStderr() throws {
        let folder = Paths.scratch("fontconfig-noise")
        let broken = folder + "/broken.conf"
        try
            "<?xml version=\"1.0\"?><fontconfig><dir>/nowhere</dir><match><test name=\"family\"><string>x</test></fontconfig"
            .write(toFile: broken, atomically: true, encoding: .utf8)
        try "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\"><text y=\"40\">Ab</text></svg>"
            .write(toFile: folder + "/text.svg", atomically: true, encoding: .utf8)
        let commands: [[String]] = [
            [Paths.fixture("icons/folder-48x48.png"), "--value", "3", "--font", "DejaVu Sans"],
            [Paths.fixture("icons/folder-48x48.png"), "--value", "直"],
            [folder + "/text.svg", "--dot"],
            ["fonts"],
        ]
        for command in commands {
            let output = command == ["fonts"] ? [] : ["-o", folder + "/out.pdf"]
            let run = try runIconbadge(command + output, environment: ["FONTCONFIG_FILE": broken])
            #expect(!run.stderr.contains("Fontconfig"), "\(command): \(run.stderr)")
            #expect(run.stderrLines.allSatisfy { $0.hasPrefix("iconbadge: ") }, "\(command): \(run.stderr)")
        }
    }
}
