import BadgeCore
import BadgeRender
import Foundation

/// Golden-image checks: compared on decoded pixels, exact by default.
///
/// `make golden` sets ICONBADGE_UPDATE_GOLDENS=1, and only then are goldens written;
/// a normal run never changes them. On a mismatch the actual image and an
/// amplified diff are written under `.build/golden-failures/`.
public enum Golden {
    /// Whether this run regenerates goldens (`make golden`).
    public static var updating: Bool { ProcessInfo.processInfo.environment["ICONBADGE_UPDATE_GOLDENS"] == "1" }

    /// Compares `png` (bytes iconbadge wrote) with `Fixtures/goldens/NAME.png`.
    /// Returns nil when equal, or a message naming the differing pixel count and
    /// where the actual and diff images were written.
    public static func check(_ name: String, png: [UInt8]) throws -> String? {
        let path = Paths.fixture("goldens/\(name).png")
        if updating {
            // Rewritten only when its pixels change: an encoder change alone does not
            // churn every golden.
            let actual = try ImageFile.pixels(of: png, path: name)
            let same = FileManager.default.fileExists(atPath: path) && (try? ImageFile.pixels(at: path)) == actual
            if !same { try Data(png).write(to: URL(fileURLWithPath: path)) }
            return nil
        }
        guard FileManager.default.fileExists(atPath: path) else {
            return "golden \(path) is missing; run make golden"
        }
        let expected = try ImageFile.pixels(at: path)
        let actual = try ImageFile.pixels(of: png, path: name)
        guard expected.width == actual.width, expected.height == actual.height else {
            try writeFailure(name, png: png, diff: nil)
            return "\(name): size \(actual.width)×\(actual.height), golden \(expected.width)×\(expected.height)"
        }
        var differing = 0
        var diff = PixelBuffer(width: actual.width, height: actual.height, fill: Color(red: 255, green: 255, blue: 255))
        for y in 0..<actual.height {
            for x in 0..<actual.width where actual[x, y] != expected[x, y] {
                differing += 1
                diff[x, y] = Color(red: 255, green: 0, blue: 0)
            }
        }
        guard differing > 0 else { return nil }
        try writeFailure(name, png: png, diff: diff)
        return
            "\(name): \(differing) pixels differ from the golden; see \(Paths.goldenFailures)/\(name).actual.png and .diff.ppm"
    }

    private static func writeFailure(_ name: String, png: [UInt8], diff: PixelBuffer?) throws {
        try FileManager.default.createDirectory(atPath: Paths.goldenFailures, withIntermediateDirectories: true)
        try Data(png).write(to: URL(fileURLWithPath: "\(Paths.goldenFailures)/\(name).actual.png"))
        if let diff {
            // A binary PPM needs no encoder: red where pixels differ, white elsewhere.
            var data = Data("P6\n\(diff.width) \(diff.height)\n255\n".utf8)
            for index in stride(from: 0, to: diff.bytes.count, by: 4) {
                data.append(contentsOf: diff.bytes[index..<index + 3])
            }
            try data.write(to: URL(fileURLWithPath: "\(Paths.goldenFailures)/\(name).diff.ppm"))
        }
    }
}
