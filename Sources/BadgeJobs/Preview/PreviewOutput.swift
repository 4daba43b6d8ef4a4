import BadgeCore
import BadgeRender
import BadgeSystem

/// Writes a contact sheet where `--preview` or `preview -o` says: a PNG, or with
/// `.html` a page of its own (no other file, no script, no network: each tile's image
/// inline as a `data:` URL, shown at 1:1 and 2× with its pixels kept sharp, captions as
/// text).
package enum PreviewOutput {
    /// What a preview path asks for, by its extension.
    package enum Kind: Sendable, Equatable {
        case png
        case html
    }

    /// The kind of `path`.
    ///
    /// - Throws: 64 for a path that is neither `.png` nor `.html`, naming `option`.
    package static func kind(of path: String, option: String) throws(BadgeError) -> Kind {
        let lower = path.lowercased()
        if lower.hasSuffix(".png") { return .png }
        if lower.hasSuffix(".html") || lower.hasSuffix(".htm") { return .html }
        throw .usage("\(option) \(Quoted(path)): a preview is a .png contact sheet or an .html page")
    }

    /// The sheet's size for the line that says where it went: "1 tile", "19 tiles".
    package static func tileCount(_ sheet: ContactSheet) -> String {
        "\(sheet.tiles.count) tile\(sheet.tiles.count == 1 ? "" : "s")"
    }

    /// Checks that `path` can be written before anything else is (73 otherwise). With
    /// `creatingFolders` (`--preview`, beside an `--out` that makes its folders),
    /// missing folders are fine: the existing part is walked with the same link rules.
    package static func checkWritable(_ path: String, creatingFolders: Bool = false) throws(BadgeError) {
        try OutputFile.checkWritable(OutputLocation(commandLine: path), creatingFolders: creatingFolders)
    }

    /// Paints `sheet` and writes it to `path`, atomically; with `creatingFolders`, its
    /// missing folders are made first (`mkdir -p`, no link followed where `--out`
    /// follows none: `OutputFile.write`).
    ///
    /// - Throws: the images' read errors (65, 66); 73 or 74 when it cannot be written.
    package static func write(
        _ sheet: ContactSheet, to path: String, limits: ImageLimits, creatingFolders: Bool = false
    ) throws(BadgeError) {
        var painter = try ContactSheetPainter(limits: limits)
        let bytes: [UInt8]
        switch try kind(of: path, option: "--preview") {
        case .png: bytes = try painter.pngData(sheet)
        case .html: bytes = Array(page(sheet, tiles: try painter.tilePNGs(sheet)).utf8)
        }
        try OutputFile.write(bytes, to: path, creatingFolders: creatingFolders)
    }

    /// The HTML page of `sheet`, `tiles` the PNG of each tile in `sheet.tiles` order.
    static func page(_ sheet: ContactSheet, tiles: [[UInt8]]) -> String {
        func escape(_ text: String) -> String { HTMLReport.escape(text) }
        func hex(_ color: Color) -> String { color.hexDescription }
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
            <title>\(escape(sheet.title))</title>
            <style>
            body { font: 13px/1.4 system-ui, sans-serif; color: #1C1C1E; margin: 24px; }
            h1 { font-size: 22px; } h2 { font-size: 17px; margin-top: 24px; } h3 { font-size: 13px; margin: 0 0 4px; }
            .notes { color: #6E6E73; } .group { display: inline-block; vertical-align: top; margin: 0 20px 20px 0; }
            figure { display: inline-block; vertical-align: top; margin: 0 10px 0 0; }
            figcaption { color: #6E6E73; font-size: 12px; } .missing { color: #B3261E; }
            img { image-rendering: pixelated; vertical-align: top; margin-right: 6px; }
            </style>
            </head>
            <body>
            <h1>\(escape(sheet.title))</h1>

            """
        for note in sheet.notes { html += "<p class=\"notes\">\(escape(note))</p>\n" }
        var index = 0
        for section in sheet.sections {
            html += "<h2>\(escape(section.title))</h2>\n"
            for group in section.groups {
                html += "<div class=\"group\"><h3>\(escape(group.title))</h3>\n"
                for tile in group.tiles {
                    let data = "data:image/png;base64," + Base64.encode(index < tiles.count ? tiles[index] : [])
                    index += 1
                    html += "<figure>"
                    for zoom in tile.zooms {
                        let side = tile.side * zoom
                        let padding = 8 * zoom
                        html +=
                            "<img src=\"\(data)\" width=\"\(side)\" height=\"\(side)\" alt=\"\(escape(tile.caption)) at \(zoom == 1 ? "1:1" : "2×")\" style=\"background: \(hex(tile.backdrop)); padding: \(padding)px\">"
                    }
                    html += "<figcaption>\(escape(tile.caption))"
                    for missing in tile.missing {
                        html += "<br><span class=\"missing\">not drawn: \(escape(missing))</span>"
                    }
                    html += "</figcaption></figure>\n"
                }
                html += "</div>\n"
            }
        }
        html += "</body>\n</html>\n"
        return html
    }
}
