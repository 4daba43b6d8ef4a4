import BadgeCore
import BadgeJobs
import BadgeRender
import Foundation
import TestSupport
import Testing

/// What real Android apps showed (issue 43): a foreground wrapped in `<inset>`
/// (flutter_launcher_icons writes `android:inset="16%"`), an adaptive icon in the
/// unqualified `mipmap/` folder, lossless WebP legacy icons, flavour folders, and the
/// advice of every Android error followed.
@Suite struct AndroidRealAppTests {
    /// The sample app with its adaptive icon's foreground wrapped in an `<inset>` of
    /// `inset` on every side.
    static func insetApp(_ scratch: String, inset: String) throws -> String {
        let app = try AndroidCommandTests.sampleApp(scratch)
        try """
        <?xml version="1.0" encoding="utf-8"?>
        <adaptive-icon xmlns:android="http://schemas.android.com/apk/res/android">
            <background android:drawable="@color/ic_launcher_background" />
            <foreground>
                <inset android:drawable="@drawable/ic_launcher_foreground" android:inset="\(inset)" />
            </foreground>
        </adaptive-icon>
        """.write(toFile: app + "/res/mipmap-anydpi-v26/ic_launcher.xml", atomically: true, encoding: .utf8)
        return app
    }

    /// The overlay's foreground layer, as the preview draws it (the overlay over
    /// `res/`, through the same drawable model), rendered at xxxhdpi (432 px).
    static func drawnForeground(app: String, overlay: String, scratch: String) throws -> PixelBuffer {
        let folders = [overlay, app + "/res"]
        let icon = try #require(AndroidPreview.adaptiveIcon("ic_launcher", folders: folders))
        let lookup = AndroidPreview.lookup(folders.map { AndroidResourceTable(folder: $0, limits: ImageLimits()) })
        let document = try AndroidDrawableSVG.layer(
            try #require(icon.root.child("foreground")), of: icon.bytes, path: icon.path, width: 108, height: 108,
            density: 4, lookup: lookup, limits: ImageLimits())
        let svg = scratch + "/foreground.svg"
        try Data(document).write(to: URL(fileURLWithPath: svg))
        let png = scratch + "/foreground.png"
        let run = try runIconbadge([svg, "--size", "432x432", "--value", "0", "-o", png])
        #expect(run.status == 0, "\(run.stderr)")
        return try ImageFile.pixels(at: png)
    }

    /// A foreground wrapped in an `<inset>` (dp or a fraction of the layer) gets the
    /// full-size badge: the overlay's layer list stacks its layers, so the badge layer
    /// is not inset by the `<inset>`'s padding, and the preview, drawing the layer list
    /// with LayerDrawable's padding rules, shows it where the badge layer has it. In
    /// padding mode nest the badge was drawn at 55–70 % of its size.
    @Test(arguments: ["22%", "16%", "12dp"])
    func aBadgeOverAnInsetForegroundIsFullSize(inset: String) throws {
        let scratch = "android-inset-\(inset.replacingOccurrences(of: "%", with: "pc"))"
        let app = try Self.insetApp(scratch, inset: inset)
        let overlay = app + "/debug/res"
        let run = try runIconbadge([
            "android", app + "/res", "--out", overlay, "--value", "BETA", "--icon", "ic_launcher",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let list = try String(
            contentsOfFile: overlay + "/drawable/iconbadge_ic_launcher_foreground.xml", encoding: .utf8)
        #expect(list.contains("<layer-list xmlns:android=\"http://schemas.android.com/apk/res/android\" android:paddingMode=\"stack\">"), "\(list)")
        let badge = try ImageFile.pixels(at: overlay + "/drawable-xxxhdpi/iconbadge_ic_launcher_badge.png")
        let drawn = try Self.drawnForeground(app: app, overlay: overlay, scratch: Paths.scratch(scratch))
        #expect(badge.width == 432 && drawn.width == 432)
        var opaque = 0
        var differ = 0
        for y in 0..<432 {
            for x in 0..<432 where badge[x, y].alpha == 255 {
                opaque += 1
                let a = badge[x, y]
                let b = drawn[x, y]
                if abs(Int(a.red) - Int(b.red)) > 2 || abs(Int(a.green) - Int(b.green)) > 2
                    || abs(Int(a.blue) - Int(b.blue)) > 2 || b.alpha != 255
                {
                    differ += 1
                }
            }
        }
        #expect(opaque > 2000)
        #expect(differ == 0, "\(inset): \(differ) of \(opaque) badge pixels are not drawn where the badge layer has them")
    }

    /// The sample app with its adaptive icons in the unqualified `mipmap/` (minSdk 26).
    static func unqualifiedApp(_ scratch: String) throws -> String {
        let app = try AndroidCommandTests.sampleApp(scratch)
        let res = app + "/res"
        try FileManager.default.createDirectory(atPath: res + "/mipmap", withIntermediateDirectories: true)
        for name in ["ic_launcher", "ic_launcher_round"] {
            try FileManager.default.moveItem(
                atPath: res + "/mipmap-anydpi-v26/\(name).xml", toPath: res + "/mipmap/\(name).xml")
        }
        try FileManager.default.removeItem(atPath: res + "/mipmap-anydpi-v26")
        return app
    }

    /// An adaptive icon in `mipmap/` (valid when minSdk ≥ 26) is badged, and
    /// previewed, like one in `mipmap-anydpi-v26/`.
    @Test func anAdaptiveIconInUnqualifiedMipmapIsBadged() throws {
        let app = try Self.unqualifiedApp("android-unqualified")
        let overlay = app + "/debug/res"
        var run = try runIconbadge([
            "android", app + "/res", "--out", overlay, "--value", "BETA", "--preview", app + "/preview.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines.contains(
                "iconbadge: android: badged 10 legacy icon images and 2 adaptive icons into \"\(overlay)\""),
            "\(run.stderr)")
        let xml = try String(contentsOfFile: overlay + "/mipmap/ic_launcher.xml", encoding: .utf8)
        #expect(xml.contains("<foreground android:drawable=\"@drawable/iconbadge_ic_launcher_foreground\" />"), "\(xml)")
        #expect(FileManager.default.fileExists(atPath: overlay + "/drawable-xxxhdpi/iconbadge_ic_launcher_badge.png"))
        run = try runIconbadge(["preview", overlay, app + "/res", "-o", app + "/sheet.png"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("Hatched"), "\(run.stderr)")
    }

    /// Every Android error that gives advice, followed: the advice changes the
    /// outcome (HACKING.md: an error's advice is tested by following it).
    @Test func androidAdviceChangesTheOutcomeWhenFollowed() throws {
        let app = try AndroidCommandTests.sampleApp("android-advice")
        let res = app + "/res"
        // "say where the overlay goes: --out DIR".
        var run = try runIconbadge(["android", res, "--value", "1"])
        #expect(run.status == 64 && run.stderr.contains("--out DIR"), "\(run.stderr)")
        run = try runIconbadge(["android", res, "--value", "1", "--out", app + "/a/res"])
        #expect(run.status == 0, "\(run.stderr)")
        // "--out is inside RES; write the overlay to a variant's res/ (app/src/debug/res)".
        run = try runIconbadge(["android", res, "--value", "1", "--out", res + "/debug"])
        #expect(run.status == 64 && run.stderr.contains("write the overlay to a variant's res/"), "\(run.stderr)")
        run = try runIconbadge(["android", res, "--value", "1", "--out", app + "/debug/res"])
        #expect(run.status == 0, "\(run.stderr)")
        // "; give its res/ folder": the app folder instead of its res/.
        run = try runIconbadge(["android", app, "--value", "1", "--out", app + "/b/res"])
        #expect(run.status == 66 && run.stderr.contains("give its res/ folder: \"\(app)/res\""), "\(run.stderr)")
        run = try runIconbadge(["android", app + "/res", "--value", "1", "--out", app + "/b/res"])
        #expect(run.status == 0, "\(run.stderr)")
        // "it has "launcher" (…): give --icon launcher", in every adaptive folder, the
        // unqualified mipmap/ included (whose advice gave the same error again).
        for folder in ["mipmap-anydpi-v26", "mipmap"] {
            let other = try AndroidCommandTests.sampleApp("android-advice-\(folder)")
            let res = other + "/res"
            try FileManager.default.createDirectory(atPath: res + "/" + folder, withIntermediateDirectories: true)
            try FileManager.default.moveItem(
                atPath: res + "/mipmap-anydpi-v26/ic_launcher.xml", toPath: res + "/\(folder)/launcher.xml")
            try FileManager.default.removeItem(atPath: res + "/mipmap-anydpi-v26/ic_launcher_round.xml")
            for density in ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"] {
                for name in ["ic_launcher", "ic_launcher_round"] {
                    try FileManager.default.removeItem(atPath: res + "/mipmap-\(density)/\(name).png")
                }
            }
            run = try runIconbadge(["android", res, "--value", "1", "--out", other + "/debug/res"])
            #expect(run.status == 66 && run.stderr.contains(": give --icon launcher"), "\(folder): \(run.stderr)")
            run = try runIconbadge(["android", res, "--value", "1", "--out", other + "/debug/res", "--icon", "launcher"])
            #expect(run.status == 0, "\(folder): \(run.stderr)")
        }
        // "holds its own …; --replace replaces them …, or remove them": both ways.
        let own = app + "/own/res"
        try FileManager.default.createDirectory(atPath: own + "/mipmap-hdpi", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Paths.fixture("icons/folder-48x48.png"), toPath: own + "/mipmap-hdpi/ic_launcher.png")
        run = try runIconbadge(["android", res, "--value", "1", "--out", own])
        #expect(run.status == 73 && run.stderr.contains("--replace replaces them"), "\(run.stderr)")
        run = try runIconbadge(["android", res, "--value", "1", "--out", own, "--replace"])
        #expect(run.status == 0, "\(run.stderr)")
        let removed = app + "/removed/res"
        try FileManager.default.createDirectory(atPath: removed + "/mipmap-hdpi", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Paths.fixture("icons/folder-48x48.png"), toPath: removed + "/mipmap-hdpi/ic_launcher.png")
        run = try runIconbadge(["android", res, "--value", "1", "--out", removed])
        #expect(run.status == 73, "\(run.stderr)")
        try FileManager.default.removeItem(atPath: removed + "/mipmap-hdpi/ic_launcher.png")
        run = try runIconbadge(["android", res, "--value", "1", "--out", removed])
        #expect(run.status == 0, "\(run.stderr)")
        // "--icon X is not an Android resource name (lowercase letters, digits, _)".
        run = try runIconbadge(["android", res, "--value", "1", "--out", app + "/c/res", "--icon", "IC-Launcher"])
        #expect(run.status == 64 && run.stderr.contains("lowercase letters, digits, _"), "\(run.stderr)")
        run = try runIconbadge(["android", res, "--value", "1", "--out", app + "/c/res", "--icon", "ic_launcher"])
        #expect(run.status == 0, "\(run.stderr)")
    }
}
