import BadgeCore
import BadgeSystem
internal import CBundledFont

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of a font file, shared by FreeType (drawing) and HarfBuzz (shaping),
/// so both see the very same face. Bundled fonts point into the binary; font
/// files are mapped read-only and never unmapped (faces live for the process);
/// fonts from memory (`FontProbe`) are a copy freed with this object.
/// `@unchecked Sendable`: the bytes behind the pointer never change.
final class FontData: @unchecked Sendable {
    let base: UnsafePointer<UInt8>
    let count: Int
    /// Where the bytes came from: a path, or "bundled:DejaVuSans-Bold.ttf".
    let origin: String
    /// The copy this object owns and frees, for fonts from memory.
    private let owned: UnsafeMutableRawBufferPointer?

    private init(base: UnsafePointer<UInt8>, count: Int, origin: String) {
        self.base = base
        self.count = count
        self.origin = origin
        owned = nil
    }

    /// A copy of `bytes`, freed when the last reference to this object goes: keep
    /// it alive as long as any face opened from it (`origin` names it in messages).
    init(copying bytes: [UInt8], origin: String) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        copy.copyBytes(from: bytes)
        base = UnsafePointer(copy.baseAddress!.assumingMemoryBound(to: UInt8.self))
        count = bytes.count
        self.origin = origin
        owned = copy
    }

    deinit { owned?.deallocate() }

    /// DejaVu Sans Bold, compiled into the binary.
    static let bundledBold: FontData = {
        var length = 0
        let base = iconbadge_bundled_font_bold(&length)!
        return FontData(base: base, count: length, origin: "bundled:DejaVuSans-Bold.ttf")
    }()

    /// DejaVu Sans, compiled into the binary.
    static let bundledRegular: FontData = {
        var length = 0
        let base = iconbadge_bundled_font_regular(&length)!
        return FontData(base: base, count: length, origin: "bundled:DejaVuSans.ttf")
    }()

    /// Largest font file accepted (bytes); Noto CJK collections are about 20 MB.
    static let maxFileBytes = 64 << 20

    /// Maps the font file at `path`.
    ///
    /// - Throws: `BadgeError.missingInput` (66) when it does not exist or is not a
    ///   regular file; `BadgeError.badInput` (65) when it is empty or too large.
    static func mapping(path: String) throws(BadgeError) -> FontData {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            throw .missingInput(
                path: path, reason: code == ENOENT ? "no such font file" : "cannot open: \(SystemError.text(code))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw .missingInput(path: path, reason: "is not a regular file, so not a font file")
        }
        let size = Int(info.st_size)
        guard size > 0 else { throw .badInput(path: path, reason: "is empty, not a font file") }
        guard size <= maxFileBytes else {
            throw .badInput(path: path, reason: "is \(size) bytes, over the \(maxFileBytes)-byte limit for a font")
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw .missingInput(path: path, reason: "cannot read: \(SystemError.text(errno))")
        }
        return FontData(base: mapped.assumingMemoryBound(to: UInt8.self), count: size, origin: path)
    }
}
