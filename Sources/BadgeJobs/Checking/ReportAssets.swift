import BadgeCore
import BadgeRender
import BadgeSystem

/// The HTML report's assets folder (staged) and the number of one check in it.
package struct ReportAssets: Sendable, Equatable {
    /// The staged assets folder.
    package var folder: StagedFolder
    /// The check's number: its assets are named after it (`00003-actual.png`).
    package var index: Int

    /// Assets from their parts.
    package init(folder: StagedFolder, index: Int) {
        self.folder = folder
        self.index = index
    }

    /// Writes `pixels` as the asset in `role` (`actual`, `expected`, `diff`) and
    /// returns its name.
    ///
    /// - Throws: 73/74 when the file cannot be written.
    package func write(_ pixels: PixelBuffer, role: HTMLReport.AssetRole) throws(BadgeError) -> String {
        try write(png: try ImageFile.pngData(of: pixels, compression: .fast), role: role)
    }

    /// Writes PNG `bytes` as the asset in `role` and returns its name.
    ///
    /// - Throws: 73/74 when the file cannot be written.
    package func write(png bytes: [UInt8], role: HTMLReport.AssetRole) throws(BadgeError) -> String {
        let name = HTMLReport.assetName(index: index + 1, role: role)
        try folder.write(bytes, components: [name], shown: folder.destination + "/" + name)
        return name
    }
}
