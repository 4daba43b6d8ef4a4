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
        let lookup = AndroidPreview.lookup(
            try folders.map { try AndroidResourceTable(folder: $0, limits: ImageLimits()) })
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
        #expect(
            list.contains(
                "<layer-list xmlns:android=\"http://schemas.android.com/apk/res/android\" android:paddingMode=\"stack\">"
            ), "\(list)")
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
        #expect(
            differ == 0, "\(inset): \(differ) of \(opaque) badge pixels are not drawn where the badge layer has them")
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
        #expect(
            xml.contains("<foreground android:drawable=\"@drawable/iconbadge_ic_launcher_foreground\" />"), "\(xml)")
        #expect(FileManager.default.fileExists(atPath: overlay + "/drawable-xxxhdpi/iconbadge_ic_launcher_badge.png"))
        run = try runIconbadge(["preview", overlay, app + "/res", "-o", app + "/sheet.png"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("Hatched"), "\(run.stderr)")
        // With no legacy icon, no note asks for one: an adaptive icon in mipmap/ means
        // minSdk 26, where devices show it.
        for density in ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"] {
            try FileManager.default.removeItem(atPath: app + "/res/mipmap-\(density)")
        }
        run = try runIconbadge(["android", app + "/res", "--out", app + "/other/res", "--value", "BETA"])
        #expect(
            run.stderrLines == ["iconbadge: android: badged 2 adaptive icons into \"\(app)/other/res\""],
            "\(run.stderr)")
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
            run = try runIconbadge([
                "android", res, "--value", "1", "--out", other + "/debug/res", "--icon", "launcher",
            ])
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

    /// The sample app's legacy icons as lossless WebP, each with a band of faint
    /// pixels (alpha 8–31) at the bottom left, far from the badge, whose straight
    /// colours premultiplied ARGB32 cannot carry; `webp` false keeps them PNG.
    static func faintBandApp(_ scratch: String, webp: Bool) throws -> String {
        let app = try AndroidCommandTests.sampleApp(scratch)
        for (density, side) in [("mdpi", 48), ("hdpi", 72), ("xhdpi", 96), ("xxhdpi", 144), ("xxxhdpi", 192)] {
            for name in ["ic_launcher", "ic_launcher_round"] {
                let png = app + "/res/mipmap-\(density)/\(name).png"
                var pixels = try ImageFile.pixels(at: png)
                for y in side * 3 / 4..<side {
                    for x in 0..<side / 4 {
                        pixels[x, y] = Color(
                            red: UInt8((x * 37) % 256), green: UInt8((y * 53) % 256), blue: 201,
                            alpha: UInt8(8 + (x + y) % 24))
                    }
                }
                try Data(try ImageFile.pngData(of: pixels)).write(to: URL(fileURLWithPath: png))
                guard webp else { continue }
                // A hidden badge writes the icon unchanged: the WebP holds these pixels exactly.
                let run = try runIconbadge([png, "--value", "", "-o", app + "/res/mipmap-\(density)/\(name).webp"])
                #expect(run.status == 0, "\(run.stderr)")
                try FileManager.default.removeItem(atPath: png)
            }
        }
        return app
    }

    /// Lossless WebP icons in, WebP out: no pixel outside the badge changes at any
    /// density, as with PNG icons (the straight pixels premultiplication loses are
    /// written back; they changed by 1/255 before). The badged WebP holds exactly the
    /// pixels of the badged PNG.
    @Test func losslessWebPIconsChangeOnlyUnderTheBadge() throws {
        let webp = try Self.faintBandApp("android-webp-exact", webp: true)
        let png = try Self.faintBandApp("android-webp-exact-png", webp: false)
        for app in [webp, png] {
            let run = try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "BETA"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        var checked = 0
        for (density, side) in [("mdpi", 48), ("hdpi", 72), ("xhdpi", 96), ("xxhdpi", 144), ("xxxhdpi", 192)] {
            for name in ["ic_launcher", "ic_launcher_round"] {
                let file = "mipmap-\(density)/\(name)"
                let original = try ImageFile.pixels(at: webp + "/res/\(file).webp")
                let badged = try ImageFile.pixels(at: webp + "/debug/res/\(file).webp")
                let pngOriginal = try ImageFile.pixels(at: png + "/res/\(file).png")
                let pngBadged = try ImageFile.pixels(at: png + "/debug/res/\(file).png")
                #expect(original == pngOriginal, "\(file): the WebP holds the PNG's pixels")
                #expect(badged.width == side && pngBadged.width == side)
                // The badge: where the PNG's pixels changed, within its bounding box.
                var box = (left: side, top: side, right: -1, bottom: -1)
                for y in 0..<side {
                    for x in 0..<side where pngBadged[x, y] != pngOriginal[x, y] {
                        box = (min(box.left, x), min(box.top, y), max(box.right, x), max(box.bottom, y))
                    }
                }
                #expect(box.right >= 0, "\(file): no badge")
                var changed = 0
                var faint = 0
                for y in 0..<side {
                    for x in 0..<side {
                        let inside = x >= box.left && x <= box.right && y >= box.top && y <= box.bottom
                        if !inside, original[x, y].alpha > 0, original[x, y].alpha < 255 { faint += 1 }
                        if !inside, badged[x, y] != original[x, y] { changed += 1 }
                    }
                }
                #expect(faint >= side * side / 16, "\(file)")
                #expect(changed == 0, "\(file): \(changed) pixels outside the badge changed")
                #expect(badged == pngBadged, "\(file)")
                checked += 1
            }
        }
        #expect(checked == 10)
    }

    /// `--preview PATH` makes PATH's missing folders as `--out` makes its own, with
    /// the same rule: no link followed inside the working folder, for either.
    @Test func previewFoldersAreMadeAsOutFoldersAre() throws {
        let app = try AndroidCommandTests.sampleApp("android-preview-folders")
        var run = try runIconbadge(
            ["android", "res", "--out", "new/debug/res", "--value", "1", "--preview", "sheets/new/preview.png"],
            in: app)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("android: preview in \"sheets/new/preview.png\""), "\(run.stderr)")
        #expect(InputFileExists(app + "/sheets/new/preview.png") && InputFileExists(app + "/new/debug/res"))
        // A link on the way is refused for both, before anything is written.
        let elsewhere = Paths.scratch("android-preview-folders-elsewhere")
        try FileManager.default.createSymbolicLink(atPath: app + "/linked", withDestinationPath: elsewhere)
        run = try runIconbadge(
            ["android", "res", "--out", "other/res", "--value", "1", "--preview", "linked/new/preview.png"], in: app)
        #expect(run.status == 73, "\(run.stderr)")
        #expect(!InputFileExists(app + "/other"))
        run = try runIconbadge(["android", "res", "--out", "linked/new/res", "--value", "1"], in: app)
        #expect(run.status == 73, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    /// `--avoid-content` on legacy icons alone, where no place covers less of them
    /// than where the badge goes without it, says so; the images are those of a run
    /// without it.
    @Test func avoidContentThatChangesNothingSaysSo() throws {
        let app = try AndroidCommandTests.sampleApp("android-avoid-nothing")
        try FileManager.default.removeItem(atPath: app + "/res/mipmap-anydpi-v26")
        var run = try runIconbadge(["android", app + "/res", "--out", app + "/a/res", "--value", "BETA"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("--avoid-content"))
        run = try runIconbadge([
            "android", app + "/res", "--out", app + "/b/res", "--value", "BETA", "--avoid-content",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines.contains(
                "iconbadge: note: android: --avoid-content changed nothing on these icons (10 images): no other place covers less of them than where the badge goes without it"
            ), "\(run.stderr)")
        for density in ["mdpi", "xxxhdpi"] {
            let file = "/res/mipmap-\(density)/ic_launcher.png"
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: app + "/a" + file))
                    == Data(contentsOf: URL(fileURLWithPath: app + "/b" + file)))
        }
    }

    /// A flavour layout: `src/main/res` has only the adaptive icon, the legacy icons
    /// are in `src/blue/res` and `src/green/res`. The run says no legacy icon was
    /// found and names those folders; following its advice badges them.
    @Test func aFlavourLayoutNamesTheLegacyIconsFolders() throws {
        let sample = try AndroidCommandTests.sampleApp("android-flavours")
        let src = sample + "/app/src"
        try FileManager.default.createDirectory(atPath: src, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: sample + "/res", toPath: src + "/main-res")
        for flavour in ["blue", "green"] {
            for density in ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"] {
                let folder = src + "/\(flavour)/res/mipmap-\(density)"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for name in ["ic_launcher", "ic_launcher_round"] {
                    try FileManager.default.copyItem(
                        atPath: src + "/main-res/mipmap-\(density)/\(name).png", toPath: folder + "/\(name).png")
                }
            }
        }
        for density in ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"] {
            try FileManager.default.removeItem(atPath: src + "/main-res/mipmap-\(density)")
        }
        try FileManager.default.createDirectory(atPath: src + "/main", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: src + "/main-res", toPath: src + "/main/res")
        // A source set without launcher icons is not named.
        try FileManager.default.createDirectory(atPath: src + "/test/res/values", withIntermediateDirectories: true)
        var run = try runIconbadge(["android", src + "/main/res", "--out", src + "/debug/res", "--value", "BETA"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines.first
                == "iconbadge: note: android: no legacy icon named \"ic_launcher\" or \"ic_launcher_round\" in mipmap-<density>/: devices before Android 8 (minSdk below 26) show an icon from elsewhere, unbadged; legacy icons are in \"\(src)/blue/res\", \"\(src)/green/res\": badge each too, into its flavour's variant (\"\(src)/blue/res\" into \"\(src)/blueDebug/res\" for \"blueDebug\")",
            "\(run.stderr)")
        #expect(run.stderrLines.last == "iconbadge: android: badged 2 adaptive icons into \"\(src)/debug/res\"")
        // The advice followed: the flavour's legacy icons badged into its variant.
        run = try runIconbadge(["android", src + "/blue/res", "--out", src + "/blueDebug/res", "--value", "BETA"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines.last == "iconbadge: android: badged 10 legacy icon images into \"\(src)/blueDebug/res\"")
        // A rerun does not name iconbadge's own overlays (src/debug/res, src/blueDebug/res).
        run = try runIconbadge(["android", src + "/main/res", "--out", src + "/debug/res", "--value", "BETA"])
        #expect(
            run.stderrLines.first?.hasSuffix(
                "legacy icons are in \"\(src)/blue/res\", \"\(src)/green/res\": badge each too, into its flavour's variant (\"\(src)/blue/res\" into \"\(src)/blueDebug/res\" for \"blueDebug\")"
            ) == true, "\(run.stderr)")
    }
}

/// Whether `path` itself exists (a link counts).
private func InputFileExists(_ path: String) -> Bool {
    (try? FileManager.default.attributesOfItem(atPath: path)) != nil
}
