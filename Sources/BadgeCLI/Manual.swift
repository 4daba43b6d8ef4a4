/// The pages of the manual, `docs/manual/` in the source and `share/doc/iconbadge/manual/`
/// under the prefix iconbadge is installed in. Help, the man page and the options
/// reference point to them by these names; a test checks that `docs/manual` holds
/// exactly these pages (and its `README.md` index), each titled as here.
enum Manual {
    /// One page: its file name in the manual's folder, its title (the page's `#`
    /// heading) and what it covers, in one line.
    struct Page: Sendable {
        var file: String
        var title: String
        var topic: String
    }

    /// The manual's folder in the source tree.
    static let sourceFolder = "docs/manual"
    /// The manual's folder below the installation prefix (`/usr` for the Debian
    /// package, `/usr/local` for `make install` and the tarball unless told otherwise).
    static let installedFolder = "share/doc/iconbadge/manual"

    /// Every page, in reading order.
    static let pages: [Page] = [
        Page(
            file: "install.md", title: "Installing iconbadge",
            topic: "the .deb, the tarball, building from source; what each installs and needs"),
        Page(
            file: "usage.md", title: "Commands, help and exit codes",
            topic: "the commands, --help, standard input and output, errors and exit codes"),
        Page(
            file: "options.md", title: "Options reference",
            topic: "every option of every command, its default, variable and manifest key (generated)"),
        Page(
            file: "geometry.md", title: "Geometry and placement",
            topic: "points, pixels and percentages, size, centring, anchors, offsets, overflow, scales, --report"),
        Page(
            file: "platforms.md", title: "Platforms and small sizes",
            topic: "the shapes of iOS, macOS, watchOS and Android icons, clamp, and what small icons get"),
        Page(
            file: "looks.md", title: "Looks: styles, ribbons, banners, shields, several badges, filters",
            topic: "beta, debug and staging looks, --and, greyscale, dim and tint"),
        Page(
            file: "text.md", title: "Labels, text and fonts",
            topic: "counts and 99+, label rules, shaping, scripts, fallback fonts, iconbadge fonts"),
        Page(
            file: "formats.md", title: "Formats and colour",
            topic: "what is read and written (PNG, WebP, SVG, PDF, ...), colour profiles, --in-place"),
        Page(
            file: "animation.md", title: "Animation",
            topic: "--animate bounce, fade-out, fade-in and pop as APNG, WebP, SVG or a file a frame"),
        Page(
            file: "golden-checks.md", title: "Golden checks",
            topic:
                "compare, --check, updates, batch --check, the directory check and its reports, shards and merge-reports"
        ),
        Page(
            file: "batch.md", title: "Batch manifests",
            topic: "many renders from one JSON manifest: keys, templates, scales, densities, build data"),
        Page(
            file: "xcode.md", title: "Xcode app icon sets, catalogs and Icon Composer",
            topic: "appiconset: .appiconset, .xcassets, .brandassets and .icon, all or nothing"),
        Page(
            file: "android.md", title: "Android launcher icons",
            topic: "android: an overlay res/ folder for a build variant, legacy and adaptive icons"),
        Page(
            file: "preview.md", title: "Previews: contact sheets of badged icons",
            topic: "preview and --preview: every badged image as the devices show it, in a PNG or an HTML page"),
        Page(
            file: "environment.md", title: "Environment variables",
            topic: "ICONBADGE_* variables, ICONBADGE_UPDATE and CI, SOURCE_DATE_EPOCH, the locale"),
        Page(
            file: "untrusted-input.md", title: "Untrusted input and limits",
            topic: "limits on every input, the isolated renderer, output safety, determinism"),
        Page(
            file: "uikit.md", title: "UIKit badges reproduced",
            topic: "five published iOS badge components, each one command"),
    ]

    /// The pages for `names`, in the order given; a name that is not a page is a
    /// programming error caught by the tests.
    static func pages(_ names: [String]) -> [Page] {
        names.compactMap { name in pages.first { $0.file == name } }
    }

    /// The lines help prints after a command's examples: where its manual pages are.
    static func helpLines(for names: [String]) -> String {
        var text = "Manual (\(installedFolder)/ under the install prefix, \(sourceFolder)/ in the source):\n"
        let chosen = pages(names)
        let width = (chosen.map(\.file.count).max() ?? 0) + 2
        for page in chosen {
            text += "  " + page.file + String(repeating: " ", count: width - page.file.count) + page.topic + "\n"
        }
        return text
    }
}
