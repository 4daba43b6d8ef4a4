import BadgeCore

/// Where everything of a contact sheet goes (pixels): its texts and its tiles'
/// views, flowing groups left to right in rows as wide as the sheet. Computed once
/// from the sheet and the texts' advances; the painter only draws it.
struct SheetLayout {
    /// A line of text: its baseline origin, size (pixels per em), weight and colour.
    struct Text {
        let string: String
        let origin: Point
        let size: Double
        let bold: Bool
        let color: Color
    }

    /// One view of a tile (1:1 or 2×): the top-left corner of its backdrop square.
    struct View {
        let section: Int
        let group: Int
        let tile: Int
        let zoom: Int
        let origin: Point
    }

    private(set) var texts: [Text] = []
    private(set) var views: [View] = []
    private(set) var width = ContactSheetPainter.minimumWidth
    private(set) var height = 0.0

    /// Text sizes (pixels per em) and line heights.
    static let titleSize = 22.0
    static let noteSize = 13.0
    static let sectionSize = 17.0
    static let groupSize = 13.0
    static let captionSize = 12.0
    static func lineHeight(_ size: Double) -> Double { (size * 1.35).rounded(.up) }

    /// A tile's caption lines: what it shows, and a short second line when layers of
    /// it are hatched (the sheet's notes name them).
    static func captions(_ tile: ContactSheet.Tile) -> [String] {
        tile.missing.isEmpty ? [tile.caption] : [tile.caption, "hatched: not drawn"]
    }

    /// `text` in lines no wider than `width` (by `measure`), broken at spaces; a
    /// word wider than the line gets a line of its own.
    static func wrapped(_ text: String, width: Double, measure: (String) -> Double) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if !current.isEmpty, measure(candidate) > width {
                lines.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        lines.append(current)
        return lines
    }

    /// The layout of `sheet`, `measure` giving a text's advance (text, bold, size).
    init(_ sheet: ContactSheet, measure: (String, Bool, Double) -> Double) {
        let margin = ContactSheetPainter.margin
        let padding = ContactSheetPainter.backdropPadding
        // Each group's size first: the widest sets the sheet's width.
        func tileWidth(_ tile: ContactSheet.Tile) -> Double {
            let views = tile.zooms.map { Double(tile.side * $0) + 2 * padding * Double($0) }
            let images = views.reduce(0, +) + Double(views.count - 1) * 6
            let captions = SheetLayout.captions(tile).map {
                measure($0, false, SheetLayout.captionSize)
            }
            return max(images, captions.max() ?? 0)
        }
        func tileHeight(_ tile: ContactSheet.Tile) -> Double {
            let image = tile.zooms.map { Double(tile.side * $0) + 2 * padding * Double($0) }.max() ?? 0
            return image + 4 + Double(SheetLayout.captions(tile).count)
                * SheetLayout.lineHeight(SheetLayout.captionSize)
        }
        func groupSize(_ group: ContactSheet.Group) -> (width: Double, height: Double) {
            let tiles = group.tiles.map(tileWidth)
            let row = tiles.reduce(0, +) + Double(max(0, tiles.count - 1)) * ContactSheetPainter.tileGap
            let title = measure(group.title, true, SheetLayout.groupSize)
            let height = (group.tiles.map(tileHeight).max() ?? 0) + SheetLayout.lineHeight(SheetLayout.groupSize) + 4
            return (max(row, title), height)
        }
        let widest = sheet.sections.flatMap { $0.groups.map { groupSize($0).width } }.max() ?? 0
        let titleWidth = measure(sheet.title, true, SheetLayout.titleSize)
        width = max(ContactSheetPainter.minimumWidth, widest + 2 * margin, titleWidth + 2 * margin)
        width = width.rounded(.up)
        var y = margin
        func line(_ string: String, size: Double, bold: Bool, color: Color, x: Double = margin) {
            texts.append(Text(string: string, origin: Point(x: x, y: y + size), size: size, bold: bold, color: color))
            y += SheetLayout.lineHeight(size)
        }
        line(sheet.title, size: SheetLayout.titleSize, bold: true, color: ContactSheetPainter.ink)
        for note in sheet.notes {
            for part in SheetLayout.wrapped(
                note, width: width - 2 * margin, measure: { measure($0, false, SheetLayout.noteSize) })
            {
                line(part, size: SheetLayout.noteSize, bold: false, color: ContactSheetPainter.secondaryInk)
            }
        }
        for (sectionIndex, section) in sheet.sections.enumerated() {
            y += 14
            line(section.title, size: SheetLayout.sectionSize, bold: true, color: ContactSheetPainter.ink)
            y += 4
            var x = margin
            var rowHeight = 0.0
            for (groupIndex, group) in section.groups.enumerated() {
                let size = groupSize(group)
                if x > margin, x + size.width > width - margin {
                    x = margin
                    y += rowHeight + ContactSheetPainter.groupGap
                    rowHeight = 0
                }
                texts.append(
                    Text(
                        string: group.title, origin: Point(x: x, y: y + SheetLayout.groupSize),
                        size: SheetLayout.groupSize, bold: true, color: ContactSheetPainter.ink))
                var tileX = x
                let tileTop = y + SheetLayout.lineHeight(SheetLayout.groupSize) + 4
                for (tileIndex, tile) in group.tiles.enumerated() {
                    var viewX = tileX
                    var imageHeight = 0.0
                    for zoom in tile.zooms {
                        views.append(
                            View(
                                section: sectionIndex, group: groupIndex, tile: tileIndex, zoom: zoom,
                                origin: Point(x: viewX, y: tileTop)))
                        let side = Double(tile.side * zoom) + 2 * padding * Double(zoom)
                        viewX += side + 6
                        imageHeight = max(imageHeight, side)
                    }
                    var captionY = tileTop + imageHeight + 4
                    for (index, caption) in SheetLayout.captions(tile).enumerated() {
                        texts.append(
                            Text(
                                string: caption, origin: Point(x: tileX, y: captionY + SheetLayout.captionSize),
                                size: SheetLayout.captionSize, bold: false,
                                color: index == 0 ? ContactSheetPainter.secondaryInk : ContactSheetPainter.warningInk))
                        captionY += SheetLayout.lineHeight(SheetLayout.captionSize)
                    }
                    tileX += tileWidth(tile) + ContactSheetPainter.tileGap
                }
                x += size.width + ContactSheetPainter.groupGap
                rowHeight = max(rowHeight, size.height)
            }
            y += rowHeight
        }
        height = (y + margin).rounded(.up)
    }
}
