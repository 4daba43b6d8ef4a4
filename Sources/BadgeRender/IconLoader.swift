import BadgeCore

/// A decoded icon: premultiplied ARGB32 pixels at their natural size.
struct LoadedIcon {
    let surface: ImageSurface
    var width: Int { surface.width }
    var height: Int { surface.height }
    /// The format sniffed from the bytes, for reports ("png").
    let format: String
}

/// Reads and decodes icons and badge images. The format is sniffed from the
/// bytes; the file name is never trusted.
enum IconLoader {
    /// Loads the image at `path` (or standard input for `-`) within `limits`.
    ///
    /// - Throws: 66 when the file is missing, a folder, a FIFO or a device; 65 when
    ///   it is not a supported image, is corrupt, or is over a limit. The message
    ///   names the path and the reason, never a library's raw status.
    static func load(_ path: String, limits: ImageLimits) throws(BadgeError) -> LoadedIcon {
        let bytes = try InputFile.bytes(at: path, limit: limits.maxRasterBytes, what: "image file")
        return try decode(bytes, path: path, limits: limits)
    }

    /// Decodes image bytes that came from `path`.
    static func decode(_ bytes: [UInt8], path: String, limits: ImageLimits) throws(BadgeError) -> LoadedIcon {
        let isPNG = bytes.withUnsafeBytes { PNGPreflight.hasSignature($0) }
        guard isPNG else {
            if bytes.isEmpty { throw .badInput(path: path, reason: "is empty, not an image") }
            throw .badInput(path: path, reason: "is not a supported image (only PNG is read; bad signature)")
        }
        let checked: Result<PNGHeader, PNGPreflightError> = bytes.withUnsafeBytes { raw in
            Result { () throws(PNGPreflightError) in try PNGPreflight.check(raw, limits: limits) }
        }
        let header: PNGHeader
        switch checked {
        case .success(let value): header = value
        case .failure(let error): throw .badInput(path: path, reason: error.reason)
        }
        return LoadedIcon(surface: try PNGCodec.decode(bytes, header: header, path: path), format: "png")
    }
}
