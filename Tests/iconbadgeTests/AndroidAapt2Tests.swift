import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Android's own resource compiler accepts the overlays: for each real app of
/// `Fixtures/android`, plain, filtered and with `--avoid-content`, the overlay is
/// compiled (`aapt2 compile`), linked over the app's `res/` with the framework's
/// resources (`aapt2 link -I framework-res.apk --auto-add-overlay`), and every
/// launcher icon entry of the APK (`aapt2 dump resources`) resolves to the overlay's
/// files. Disabled, with the reason, when Debian's `aapt` (aapt2) or
/// `android-framework-res` is not installed; `make deps` installs both, and `make test`
/// stops before the suite runs when either is missing (scripts/check-test-tools.sh).
@Suite struct AndroidAapt2Tests {
    static let aapt2 = ["/usr/bin/aapt2", "/usr/local/bin/aapt2"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static let framework = "/usr/share/android-framework-res/framework-res.apk"
    /// Whether both tools are installed.
    static let installed = aapt2 != nil && FileManager.default.fileExists(atPath: framework)

    /// Runs aapt2 with `arguments`; its status and output.
    static func aapt2(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: aapt2!)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(
        .enabled(
            if: AndroidAapt2Tests.installed,
            "aapt2 or \(Self.framework) is missing (Debian: apt-get install aapt android-framework-res; make deps installs them)"
        ))
    func aapt2LinksEveryOverlay() throws {
        let variants: [[String]] = [[], ["--icon-filter", "greyscale"], ["--avoid-content", "--height", "28%"]]
        var linked = 0
        for (name, icon) in AndroidLayerTests.apps {
            for (number, options) in variants.enumerated() {
                let app = try AndroidLayerTests.app(name, "android-aapt2")
                let overlay = app + "/debug/res"
                let run = try runIconbadge(["android", app + "/res", "--out", overlay, "--value", "BETA"] + options)
                #expect(run.status == 0, "\(run.stderr)")
                // A manifest of its own: aapt2 wants a package name.
                let manifest = app + "/link-manifest.xml"
                try """
                <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="org.example.iconbadge">
                    <application android:icon="@mipmap/\(icon)" />
                </manifest>
                """.write(toFile: manifest, atomically: true, encoding: .utf8)
                var step = try Self.aapt2(["compile", "--no-crunch", "--dir", app + "/res", "-o", app + "/main.zip"])
                #expect(step.status == 0, "\(step.output)")
                step = try Self.aapt2(["compile", "--no-crunch", "--dir", overlay, "-o", app + "/overlay.zip"])
                #expect(step.status == 0, "\(name) \(number): \(step.output)")
                let apk = app + "/app.apk"
                step = try Self.aapt2([
                    "link", "-o", apk, "-I", Self.framework, "--manifest", manifest, "--auto-add-overlay",
                    app + "/main.zip", "-R", app + "/overlay.zip",
                ])
                #expect(step.status == 0, "\(name) \(number): \(step.output)")
                guard step.status == 0 else { continue }
                linked += 1
                let dump = try Self.aapt2(["dump", "resources", apk]).output
                let table = ResourceDump(dump)
                let archive = try StoredZip(Array(Data(contentsOf: URL(fileURLWithPath: apk))))
                for entry in [icon, icon + "_round"] {
                    guard let files = table.files["mipmap/\(entry)"] else { continue }
                    #expect(!files.isEmpty)
                    for file in files {
                        if file.hasSuffix(".png") {
                            // res/mipmap-xxxhdpi-v4/launcher.png is the overlay's mipmap-xxxhdpi/launcher.png.
                            let parts = file.split(separator: "/").map(String.init)
                            let folder = parts[1].replacingOccurrences(of: "-v4", with: "")
                            let ours = try Data(contentsOf: URL(fileURLWithPath: "\(overlay)/\(folder)/\(parts[2])"))
                            #expect(archive.entries[file] == Array(ours), "\(name) \(number): \(file)")
                        } else {
                            // The adaptive icon's layers point at the overlay's resources.
                            let tree = try Self.aapt2(["dump", "xmltree", "--file", file, apk]).output
                            for layer in ["foreground", "monochrome"] + (number == 1 ? ["background"] : []) {
                                let reference = try #require(table.reference(of: layer, in: tree), "\(tree)")
                                #expect(
                                    reference.hasPrefix("drawable/iconbadge_\(entry)_")
                                        || reference.hasPrefix("color/iconbadge_\(entry)_"),
                                    "\(name) \(number) \(layer): \(reference)")
                            }
                        }
                    }
                }
                // Every file of the overlay's own resources is the overlay's file.
                for (resource, files) in table.files where resource.contains("/iconbadge_") {
                    for file in files where file.hasSuffix(".png") {
                        let parts = file.split(separator: "/").map(String.init)
                        let folder = parts[1].replacingOccurrences(of: "-v4", with: "")
                        let ours = try Data(contentsOf: URL(fileURLWithPath: "\(overlay)/\(folder)/\(parts[2])"))
                        #expect(archive.entries[file] == Array(ours), "\(name) \(number): \(file)")
                    }
                }
            }
        }
        #expect(linked == AndroidLayerTests.apps.count * variants.count)
        // An app whose themed icon is in mipmap-anydpi-v33: both versions point at the overlay.
        let app = try AndroidLayerTests.android13App("android-aapt2-v33")
        let run = try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "BETA"])
        #expect(run.status == 0, "\(run.stderr)")
        try """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="org.example.iconbadge">
            <application android:icon="@mipmap/ic_launcher" />
        </manifest>
        """.write(toFile: app + "/link-manifest.xml", atomically: true, encoding: .utf8)
        for (folder, zip) in [(app + "/res", "/main.zip"), (app + "/debug/res", "/overlay.zip")] {
            let step = try Self.aapt2(["compile", "--no-crunch", "--dir", folder, "-o", app + zip])
            #expect(step.status == 0, "\(step.output)")
        }
        let link = try Self.aapt2([
            "link", "-o", app + "/app.apk", "-I", Self.framework, "--manifest", app + "/link-manifest.xml",
            "--auto-add-overlay", app + "/main.zip", "-R", app + "/overlay.zip",
        ])
        #expect(link.status == 0, "\(link.output)")
        let table = ResourceDump(try Self.aapt2(["dump", "resources", app + "/app.apk"]).output)
        let files = table.files["mipmap/ic_launcher"] ?? []
        #expect(
            files.contains("res/mipmap-anydpi-v26/ic_launcher.xml")
                && files.contains("res/mipmap-anydpi-v33/ic_launcher.xml"), "\(files)")
        let tree = try Self.aapt2([
            "dump", "xmltree", "--file", "res/mipmap-anydpi-v33/ic_launcher.xml", app + "/app.apk",
        ])
        #expect(
            table.reference(of: "monochrome", in: tree.output) == "drawable/iconbadge_ic_launcher_anydpi_v33_monochrome"
        )
    }
}

extension AndroidAapt2Tests {
    /// aapt2 links the overlays of issue 43's apps: a foreground `<inset>` (its layer
    /// list stacked: `android:paddingMode`), and adaptive icons in the unqualified
    /// `mipmap/` (minSdk 26), whose entries resolve to the overlay's copies.
    @Test(
        .enabled(
            if: AndroidAapt2Tests.installed,
            "aapt2 or \(AndroidAapt2Tests.framework) is missing (Debian: apt-get install aapt android-framework-res; make deps installs them)"
        ))
    func aapt2LinksInsetAndUnqualifiedMipmapOverlays() throws {
        let apps = [
            try AndroidRealAppTests.insetApp("android-aapt2-inset", inset: "16%"),
            try AndroidRealAppTests.unqualifiedApp("android-aapt2-unqualified"),
        ]
        for (number, app) in apps.enumerated() {
            let run = try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "BETA"])
            #expect(run.status == 0, "\(run.stderr)")
            try """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="org.example.iconbadge">
                <application android:icon="@mipmap/ic_launcher" />
            </manifest>
            """.write(toFile: app + "/link-manifest.xml", atomically: true, encoding: .utf8)
            for (folder, zip) in [(app + "/res", "/main.zip"), (app + "/debug/res", "/overlay.zip")] {
                let step = try Self.aapt2(["compile", "--no-crunch", "--dir", folder, "-o", app + zip])
                #expect(step.status == 0, "\(step.output)")
            }
            let link = try Self.aapt2([
                "link", "-o", app + "/app.apk", "-I", Self.framework, "--manifest", app + "/link-manifest.xml",
                "--min-sdk-version", "26", "--auto-add-overlay", app + "/main.zip", "-R", app + "/overlay.zip",
            ])
            #expect(link.status == 0, "\(number): \(link.output)")
            let table = ResourceDump(try Self.aapt2(["dump", "resources", app + "/app.apk"]).output)
            let files = table.files["mipmap/ic_launcher"] ?? []
            let xml = try #require(files.first { $0.hasSuffix(".xml") }, "\(number): \(files)")
            let tree = try Self.aapt2(["dump", "xmltree", "--file", xml, app + "/app.apk"]).output
            #expect(
                table.reference(of: "foreground", in: tree) == "drawable/iconbadge_ic_launcher_foreground", "\(tree)")
            let list = try Self.aapt2([
                "dump", "xmltree", "--file", "res/drawable/iconbadge_ic_launcher_foreground.xml", app + "/app.apk",
            ]).output
            #expect(list.contains("paddingMode") && list.contains("=1"), "\(list)")
        }
    }
}

/// What `aapt2 dump resources` lists: each resource's files and ids.
struct ResourceDump {
    /// `mipmap/launcher` → its files (`res/mipmap-xxxhdpi-v4/launcher.png`).
    var files: [String: [String]] = [:]
    /// `0x7f020001` → `drawable/iconbadge_launcher_foreground`.
    var names: [String: String] = [:]

    init(_ text: String) {
        var current: String?
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.first == "resource", words.count >= 3 {
                current = String(words[2])
                names[String(words[1])] = current
                files[current!] = []
            } else if let current, let index = words.firstIndex(of: "(file)"), index + 1 < words.count {
                files[current]!.append(String(words[index + 1]))
            }
        }
    }

    /// The resource an adaptive icon's `layer` element names in `aapt2 dump xmltree`.
    func reference(of layer: String, in tree: String) -> String? {
        let lines = tree.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let start = lines.firstIndex(where: { $0.hasPrefix("E: \(layer) ") }), start + 1 < lines.count,
            let at = lines[start + 1].range(of: "=@")
        else { return nil }
        return names[String(lines[start + 1][at.upperBound...])]
    }
}

/// The stored (uncompressed) entries of a ZIP archive, as aapt2 keeps PNGs in an APK,
/// read from its central directory (PKWARE APPNOTE 4.3.12, 4.3.7, 4.3.16).
struct StoredZip {
    var entries: [String: [UInt8]] = [:]

    struct Malformed: Error {}

    init(_ bytes: [UInt8]) throws {
        func u16(_ at: Int) throws -> Int {
            guard at >= 0, at + 2 <= bytes.count else { throw Malformed() }
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8
        }
        func u32(_ at: Int) throws -> Int {
            let low = try u16(at)
            let high = try u16(at + 2)
            return low | high << 16
        }
        guard
            let end = stride(from: bytes.count - 22, through: max(0, bytes.count - 65_557), by: -1).first(where: {
                (try? u32($0)) == 0x0605_4B50
            })
        else { throw Malformed() }
        var at = try u32(end + 16)
        let count = try u16(end + 10)
        for _ in 0..<count {
            guard try u32(at) == 0x0201_4B50 else { throw Malformed() }
            let method = try u16(at + 10)
            let size = try u32(at + 20)
            let nameLength = try u16(at + 28)
            let extra = try u16(at + 30)
            let comment = try u16(at + 32)
            let skip = nameLength + extra + comment
            let local = try u32(at + 42)
            guard at + 46 + nameLength <= bytes.count else { throw Malformed() }
            let name = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            at += 46 + skip
            guard method == 0 else { continue }
            let localName = try u16(local + 26)
            let localExtra = try u16(local + 28)
            let data = local + 30 + localName + localExtra
            guard data + size <= bytes.count else { throw Malformed() }
            entries[name] = Array(bytes[data..<(data + size)])
        }
    }
}
