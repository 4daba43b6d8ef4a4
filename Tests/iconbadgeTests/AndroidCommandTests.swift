import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `iconbadge android RES --out OVERLAY`: legacy icons badged per density from their
/// own files, adaptive icons given a `<layer-list>` foreground with a badge layer
/// inside the safe zone, `RES` never written, all or nothing.
@Suite struct AndroidCommandTests {
    /// A copy of the sample app (manifest and res/) in a scratch folder.
    static func sampleApp(_ name: String) throws -> String {
        let folder = Paths.scratch(name) + "/app"
        try FileManager.default.copyItem(atPath: Paths.fixture("android/sample-app"), toPath: folder)
        return folder
    }

    static func files(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
        while let name = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
            if !isFolder.boolValue { files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)) }
        }
        return files
    }

    @Test func theSampleAppGetsAnOverlay() throws {
        let app = try Self.sampleApp("android-sample")
        let res = app + "/res"
        let before = try Self.files(res)
        #expect(before.count == 14)
        let run = try runIconbadge(["android", res, "--out", app + "/debug/res", "--value", "BETA"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines.last
                == "iconbadge: android: badged 10 legacy icon images and 2 adaptive icons into \"\(app)/debug/res\"")
        #expect(try Self.files(res) == before)
        let overlay = try Self.files(app + "/debug/res")
        // Legacy, adaptive XMLs, foreground layer lists, badge layers, monochrome layers, the
        // record (values/iconbadge_overlay.xml).
        #expect(overlay.count == 10 + 2 + 2 + 10 + 10 + 1)
        // Legacy icons: each density from its own file, same size, badged.
        for (density, side) in [("mdpi", 48), ("hdpi", 72), ("xhdpi", 96), ("xxhdpi", 144), ("xxxhdpi", 192)] {
            for name in ["ic_launcher", "ic_launcher_round"] {
                let badged = try ImageFile.pixels(at: "\(app)/debug/res/mipmap-\(density)/\(name).png")
                let original = try ImageFile.pixels(at: "\(res)/mipmap-\(density)/\(name).png")
                #expect(badged.width == side && badged.height == side)
                #expect(badged != original)
            }
        }
        // The adaptive icon's copy points its foreground at the layer list and its monochrome at
        // the drawn layer; the rest is kept.
        let xml = String(decoding: overlay["mipmap-anydpi-v26/ic_launcher.xml"]!, as: UTF8.self)
        #expect(
            xml == """
                <?xml version="1.0" encoding="utf-8"?>
                <adaptive-icon xmlns:android="http://schemas.android.com/apk/res/android">
                    <background android:drawable="@color/ic_launcher_background" />
                    <foreground android:drawable="@drawable/iconbadge_ic_launcher_foreground" />
                    <monochrome android:drawable="@drawable/iconbadge_ic_launcher_monochrome" />
                </adaptive-icon>

                """)
        let layers = String(decoding: overlay["drawable/iconbadge_ic_launcher_foreground.xml"]!, as: UTF8.self)
        #expect(layers.contains("<item android:drawable=\"@drawable/ic_launcher_foreground\" />"), "\(layers)")
        #expect(layers.contains("<item android:drawable=\"@drawable/iconbadge_ic_launcher_badge\" />"), "\(layers)")
        // Badge layers: 108 dp at each density, every pixel inside the 66 dp circle.
        for (density, scale) in [("mdpi", 1.0), ("hdpi", 1.5), ("xhdpi", 2), ("xxhdpi", 3), ("xxxhdpi", 4)] {
            let badge = try ImageFile.pixels(at: "\(app)/debug/res/drawable-\(density)/iconbadge_ic_launcher_badge.png")
            let side = Int(108 * scale)
            #expect(badge.width == side && badge.height == side)
            var drawn = 0
            for y in 0..<side {
                for x in 0..<side where badge[x, y].alpha > 0 {
                    drawn += 1
                    let dx = Double(x) + 0.5 - Double(side) / 2
                    let dy = Double(y) + 0.5 - Double(side) / 2
                    #expect((dx * dx + dy * dy).squareRoot() <= 33 * scale + 0.75, "\(density) \(x),\(y)")
                }
            }
            #expect(drawn > side * side / 40)
            // The monochrome layer: the (white) drawing under a white badge, its text cut out
            // (transparent holes inside).
            let mono = try ImageFile.pixels(
                at: "\(app)/debug/res/drawable-\(density)/iconbadge_ic_launcher_monochrome.png")
            var coloured = 0
            for y in 0..<side {
                for x in 0..<side where mono[x, y].alpha > 0 {
                    let c = mono[x, y]
                    if c.red != 255 || c.green != 255 || c.blue != 255 { coloured += 1 }
                }
            }
            #expect(coloured == 0)
            let row = badgeMiddleRow(badge)
            #expect(row.xs.map { mono[$0, row.y].alpha }.contains(0), "no cut-out text in \(density)")
        }
    }

    /// The x positions across the badge's middle row (for finding its cut-out text).
    func badgeMiddleRow(_ badge: PixelBuffer) -> (y: Int, xs: [Int]) {
        var top = badge.height
        var bottom = 0
        var left = badge.width
        var right = 0
        for y in 0..<badge.height {
            for x in 0..<badge.width where badge[x, y].alpha == 255 {
                top = min(top, y)
                bottom = max(bottom, y)
                left = min(left, x)
                right = max(right, x)
            }
        }
        return ((top + bottom) / 2, Array(left...right))
    }

    /// A foreground given as a child element (`<inset>`, as Thunderbird writes it) is
    /// carried into the layer list's item as written.
    @Test func anInlineForegroundIsKept() throws {
        let app = try Self.sampleApp("android-inset")
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <adaptive-icon xmlns:android="http://schemas.android.com/apk/res/android">
                <background android:drawable="@color/ic_launcher_background" />
                <foreground>
                    <inset android:drawable="@drawable/ic_launcher_foreground" android:inset="22%" />
                </foreground>
            </adaptive-icon>
            """
        try xml.write(toFile: app + "/res/mipmap-anydpi-v26/ic_launcher.xml", atomically: true, encoding: .utf8)
        let run = try runIconbadge([
            "android", app + "/res", "--out", app + "/beta", "--dot", "--icon", "ic_launcher",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let layers = try String(
            contentsOfFile: app + "/beta/drawable/iconbadge_ic_launcher_foreground.xml", encoding: .utf8)
        #expect(
            layers.contains(
                "<item>\n        <inset android:drawable=\"@drawable/ic_launcher_foreground\" android:inset=\"22%\" />\n    </item>"
            ), "\(layers)")
        #expect(!FileManager.default.fileExists(atPath: app + "/beta/drawable/iconbadge_ic_launcher_monochrome.xml"))
    }

    /// An existing overlay keeps its other files; the overlay is never RES or inside
    /// it; a failure writes nothing; a hidden badge writes nothing.
    @Test func theOverlayIsWrittenWholeAndNeverIntoRes() throws {
        let app = try Self.sampleApp("android-rules")
        let res = app + "/res"
        let out = app + "/debug/res"
        try FileManager.default.createDirectory(atPath: out + "/values", withIntermediateDirectories: true)
        try "<resources/>".write(toFile: out + "/values/strings.xml", atomically: true, encoding: .utf8)
        var run = try runIconbadge(["android", res, "--out", out, "--value", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: out + "/values/strings.xml", encoding: .utf8) == "<resources/>")
        let first = try Self.files(out)
        #expect(first.count == 36)
        for bad in [res, res + "/mipmap-debug"] {
            run = try runIconbadge(["android", res, "--out", bad, "--value", "2"])
            #expect(run.status == 64, "\(run.stderr)")
        }
        // A badge too tall for the 48 px icons: nothing written, the overlay as it was.
        run = try runIconbadge(["android", res, "--out", out, "--value", "2", "--height", "60"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderrLines.last?.hasPrefix("iconbadge: android: nothing written:") == true, "\(run.stderr)")
        #expect(try Self.files(out) == first)
        run = try runIconbadge(["android", res, "--out", app + "/new/res", "--value", "2", "--height", "60"])
        #expect(!FileManager.default.fileExists(atPath: app + "/new"))
        run = try runIconbadge(["android", res, "--out", out, "--value", ""])
        #expect(run.status == 0)
        #expect(run.stderr.contains("android: the badge is hidden: the value is empty; nothing written"))
        #expect(try Self.files(out) == first)
        #expect(try Self.files(res).count == 14)
    }

    /// What is not there, or not readable, says so.
    @Test func missingIconsAndBadXMLSaySo() throws {
        let app = try Self.sampleApp("android-errors")
        var run = try runIconbadge(["android", app + "/res", "--out", app + "/o", "--dot", "--icon", "ic_other"])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr.contains("has no launcher icon named \"ic_other\""), "\(run.stderr)")
        run = try runIconbadge(["android", app + "/res", "--out", app + "/o", "--dot", "--icon", "../x"])
        #expect(run.status == 64, "\(run.stderr)")
        try """
        <?xml version="1.0"?>
        <!DOCTYPE lol [<!ENTITY a "aaaa">]>
        <adaptive-icon><foreground android:drawable="&a;"/></adaptive-icon>
        """.write(toFile: app + "/res/mipmap-anydpi-v26/ic_launcher.xml", atomically: true, encoding: .utf8)
        run = try runIconbadge(["android", app + "/res", "--out", app + "/o", "--dot"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("DOCTYPE"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: app + "/o"))
    }

    /// An overlay's own icon (a hand-made debug icon, or the same resource as WebP) is
    /// not replaced without --replace; iconbadge's own files (its record) are.
    @Test func theOverlaysOwnIconsAreReplacedOnlyWithReplace() throws {
        let app = try Self.sampleApp("android-own")
        let out = app + "/debug/res"
        try FileManager.default.createDirectory(atPath: out + "/mipmap-hdpi", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Paths.fixture("icons/folder-48x48.png"), toPath: out + "/mipmap-hdpi/ic_launcher.webp")
        let before = try Self.files(out)
        var run = try runIconbadge(["android", app + "/res", "--out", out, "--value", "1"])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(
            run.stderr.contains("holds its own \"mipmap-hdpi/ic_launcher.webp\", not written by iconbadge; --replace"))
        #expect(try Self.files(out) == before)
        run = try runIconbadge(["android", app + "/res", "--out", out, "--value", "1", "--replace"])
        #expect(run.status == 0, "\(run.stderr)")
        // One file for the resource: the WebP is gone, the badged PNG stands for it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out + "/mipmap-hdpi").sorted() == [
                "ic_launcher.png", "ic_launcher_round.png",
            ])
        let record = try String(contentsOfFile: out + "/values/iconbadge_overlay.xml", encoding: .utf8)
        #expect(record.contains("mipmap-hdpi/ic_launcher.png "), "\(record)")
        // A rerun replaces iconbadge's own files without --replace; an edited one is refused.
        run = try runIconbadge(["android", app + "/res", "--out", out, "--value", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        try FileManager.default.removeItem(atPath: out + "/mipmap-mdpi/ic_launcher.png")
        try FileManager.default.copyItem(
            atPath: Paths.fixture("icons/folder-48x48.png"), toPath: out + "/mipmap-mdpi/ic_launcher.png")
        run = try runIconbadge(["android", app + "/res", "--out", out, "--value", "3"])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("\"mipmap-mdpi/ic_launcher.png\""), "\(run.stderr)")
    }

    /// WebP launcher icons are read and written as WebP (lossless), each density's
    /// from its own file.
    @Test func webpLauncherIconsStayWebP() throws {
        let app = try Self.sampleApp("android-webp")
        for density in ["mdpi", "xxxhdpi"] {
            let folder = app + "/res/mipmap-\(density)"
            let run = try runIconbadge([folder + "/ic_launcher.png", "--dot", "--size", "48", "-o", folder + "/x.webp"])
            #expect(run.status == 0, "\(run.stderr)")
            try FileManager.default.removeItem(atPath: folder + "/ic_launcher.png")
            try FileManager.default.moveItem(atPath: folder + "/x.webp", toPath: folder + "/ic_launcher.webp")
        }
        let run = try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        for density in ["mdpi", "xxxhdpi"] {
            let written = app + "/debug/res/mipmap-\(density)/ic_launcher.webp"
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: written)))
            #expect(String(decoding: bytes[8..<12], as: UTF8.self) == "WEBP")
            let original = try ImageFile.pixels(at: app + "/res/mipmap-\(density)/ic_launcher.webp")
            let badged = try ImageFile.pixels(at: written)
            #expect(badged.width == original.width && badged != original)
            #expect(!FileManager.default.fileExists(atPath: app + "/debug/res/mipmap-\(density)/ic_launcher.png"))
        }
    }

    /// A hostile record cannot name files outside the overlay, and a link in the
    /// overlay is never read as one of iconbadge's files.
    @Test func theRecordNamesOnlyFilesOfTheOverlay() throws {
        let app = try Self.sampleApp("android-record")
        let out = app + "/debug/res"
        try FileManager.default.createDirectory(atPath: out + "/values", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: out + "/mipmap-hdpi", withIntermediateDirectories: true)
        let outside = app + "/secret.png"
        try FileManager.default.copyItem(atPath: Paths.fixture("icons/folder-48x48.png"), toPath: outside)
        let hash = ContentHash.fnv1a64([UInt8](try Data(contentsOf: URL(fileURLWithPath: outside))))
        try """
        <!--
        ../../secret.png \(hash)
        /etc/passwd 0000000000000000
        mipmap-hdpi/ic_launcher.png \(hash)
        -->
        <resources />
        """.write(toFile: out + "/values/iconbadge_overlay.xml", atomically: true, encoding: .utf8)
        // The overlay's ic_launcher.png is a link to the outside file: not ours.
        try FileManager.default.createSymbolicLink(
            atPath: out + "/mipmap-hdpi/ic_launcher.png", withDestinationPath: outside)
        for extra in [[], ["--replace"]] {
            let run = try runIconbadge(["android", app + "/res", "--out", out, "--value", "1"] + extra)
            #expect(run.status == 73, "\(run.stderr)")
            #expect(run.stderr.contains("mipmap-hdpi/ic_launcher.png"), "\(run.stderr)")
        }
        try FileManager.default.removeItem(atPath: out + "/mipmap-hdpi/ic_launcher.png")
        let run = try runIconbadge(["android", app + "/res", "--out", out, "--value", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        let record = try String(contentsOfFile: out + "/values/iconbadge_overlay.xml", encoding: .utf8)
        #expect(!record.contains("secret") && !record.contains("/etc/passwd"), "\(record)")
        #expect(record.contains("mipmap-hdpi/ic_launcher.png "), "\(record)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: outside))
                == Data(contentsOf: URL(fileURLWithPath: Paths.fixture("icons/folder-48x48.png"))))
    }

    /// A folder of the overlay the run may not write (as an unprivileged user) is
    /// found before the first rename: 73 and the overlay unchanged.
    @Test func aReadOnlyOverlayFolderChangesNothing() throws {
        // As root every folder is writable, so the binary runs as nobody, in a folder
        // that user can reach wherever the checkout is.
        try OtherUser.withFolder("android-read-only") { scratch in
            let app = scratch + "/app"
            try FileManager.default.copyItem(atPath: Paths.fixture("android/sample-app"), toPath: app)
            let out = app + "/debug/res"
            #expect(try runIconbadge(["android", app + "/res", "--out", out, "--value", "1"]).status == 0)
            try OtherUser.own(app)
            #expect(chmod(out + "/mipmap-xxhdpi", 0o555) == 0)
            let before = try Self.files(out)
            let run = try OtherUser.run(["android", app + "/res", "--out", out, "--value", "2"], in: scratch)
            #expect(run.status == 73, "\(run.stderr)")
            #expect(run.stderr.contains("mipmap-xxhdpi"), "\(run.stderr)")
            #expect(try Self.files(out) == before)
            #expect(try !FileManager.default.contentsOfDirectory(atPath: out).contains { $0.hasPrefix(".iconbadge-") })
        }
    }

    /// A res/ folder the user may not search or list is not "no such res/ folder":
    /// 66, "permission denied", as the render command says for an icon it may not
    /// open; and nothing is written.
    @Test func aResFolderThatMayNotBeReadIsPermissionDenied() throws {
        try OtherUser.withFolder("android-denied") { scratch in
            let app = scratch + "/app"
            try FileManager.default.copyItem(atPath: Paths.fixture("android/sample-app"), toPath: app)
            try OtherUser.own(app)
            let out = scratch + "/overlay"
            // A folder on the way that may not be searched, then res/ itself unreadable.
            #expect(chmod(app, 0o700) == 0 && chown(app, 0, 0) == 0)
            var run = try OtherUser.run(["android", app + "/res", "--out", out, "--value", "2"], in: scratch)
            #expect(run.status == 66, "\(run.stderr)")
            #expect(
                run.stderr == "iconbadge: error: \"\(app)/res\": cannot open: permission denied\n", "\(run.stderr)")
            #expect(chmod(app, 0o755) == 0 && chmod(app + "/res", 0o311) == 0)
            run = try OtherUser.run(["android", app + "/res", "--out", out, "--value", "2"], in: scratch)
            #expect(run.status == 66, "\(run.stderr)")
            #expect(
                run.stderr == "iconbadge: error: \"\(app)/res\": cannot open: permission denied\n", "\(run.stderr)")
            // A folder that is not there is still named as such.
            run = try OtherUser.run(["android", app + "/none", "--out", out, "--value", "2"], in: scratch)
            #expect(run.status == 66 && run.stderr.contains("no such res/ folder"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
