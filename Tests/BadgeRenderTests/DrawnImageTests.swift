import BadgeCore
import Foundation
import Testing

@testable import BadgeRender

/// An icon and a backdrop drawn in memory (`DrawnImage`, `RenderRequest.Icon.drawn`)
/// render exactly as the PNG files of the same drawings did: what lets `android`
/// hold its layers in memory without changing a byte of its outputs.
@Suite struct DrawnImageTests {
    /// A 10 dp square filled with a gradient from nearly transparent orange to
    /// nearly opaque blue: every alpha between, so premultiplied values are rounded.
    static func drawing() throws -> AndroidDrawing {
        let text = """
            <vector xmlns:android="http://schemas.android.com/apk/res/android" xmlns:aapt="http://schemas.android.com/aapt"
                android:width="10dp" android:height="10dp" android:viewportWidth="10" android:viewportHeight="10">
                <path android:pathData="M0 0h10v10h-10z">
                    <aapt:attr name="android:fillColor">
                        <gradient android:type="linear" android:startX="0" android:startY="0" android:endX="10"
                            android:endY="10" android:startColor="#10FF8000" android:endColor="#F00080FF"/>
                    </aapt:attr>
                </path>
            </vector>
            """
        return try AndroidDrawableSVG.fileDrawing(
            Array(text.utf8), path: "res/drawable/test.xml", width: 10, height: 10, density: 10,
            lookup: AndroidResourceLookup(value: { _ in nil }, file: { _, _ in nil }), limits: ImageLimits())
    }

    /// A count on `icon`, its contrast measured on `backdrop`, at 100 × 100 px.
    static func render(icon: String, backdrop: String, drawn: [String: DrawnImage] = [:]) throws -> PixelBuffer {
        // The badge's blue is close to the drawing's: its contrast is measured there.
        var style = BadgeStyle()
        style.background = Color(rgb: 0x0080FF)
        let request = RenderRequest(
            icon: RenderRequest.Icon(
                path: icon, size: Size(width: 100, height: 100), backdrop: backdrop, drawn: drawn),
            badge: RenderRequest.Badge(content: .value("3"), style: style))
        return try Renderer().compose(request).pixels()
    }

    @Test func aDrawingHeldInMemoryRendersAsItsPNGFile() throws {
        let folder = NSTemporaryDirectory() + "drawn-image-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let drawing = try Self.drawing()
        let limits = ImageLimits()
        let png = try AndroidDrawingPainter.png(drawing, width: 100, height: 100, name: "icon", limits: limits)
        try Data(png).write(to: URL(fileURLWithPath: folder + "/icon.png"))
        let blank = try ImageFile.pngData(of: PixelBuffer(width: 100, height: 100, fill: .transparent))
        try Data(blank).write(to: URL(fileURLWithPath: folder + "/blank.png"))

        let fromFiles = try Self.render(icon: folder + "/icon.png", backdrop: folder + "/icon.png")
        let inMemory = try Self.render(
            icon: "icon", backdrop: "backdrop",
            drawn: [
                "icon": try DrawnImage.drawing(drawing, width: 100, height: 100, name: "icon", limits: limits),
                "backdrop": try DrawnImage.drawing(drawing, width: 100, height: 100, name: "icon", limits: limits),
            ])
        #expect(inMemory == fromFiles)
        // Not a render that ignores its icon: the drawing shows under the badge.
        #expect(inMemory[5, 95].alpha > 100)

        let blankFile = try Self.render(icon: folder + "/blank.png", backdrop: folder + "/icon.png")
        let blankInMemory = try Self.render(
            icon: "blank", backdrop: folder + "/icon.png", drawn: ["blank": .blank(width: 100, height: 100)])
        #expect(blankInMemory == blankFile)
        #expect(blankInMemory[5, 95].alpha == 0)
    }
}
