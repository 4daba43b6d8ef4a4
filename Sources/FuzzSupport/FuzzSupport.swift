#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Glue shared by the fuzz targets (`Sources/Fuzz*/main.swift`).
///
/// Each fuzz target is an executable holding one `@_cdecl("LLVMFuzzerTestOneInput")`
/// function. Built for fuzzing (`fuzz/run.sh`: `--sanitize=fuzzer --sanitize=address
/// -Xswiftc -DFUZZING`), libFuzzer supplies `main`. In a plain `swift build` there is no
/// libFuzzer, so `main.swift` calls ``FuzzReplay/run(_:)`` instead: the target is then a
/// replay tool that feeds files (or every file of a folder) to the same function, the
/// way libFuzzer's own `FuzzX FILE...` runs a crash input.
public enum FuzzReplay {
    /// The signature of `LLVMFuzzerTestOneInput`.
    public typealias TestOneInput = (UnsafePointer<UInt8>?, Int) -> Int32

    /// Feeds every file named on the command line (folders: each regular file in
    /// them, sorted) to `body`, printing one line per file; exits 0 when all ran, 66
    /// when one could not be read, 64 with no arguments.
    public static func run(_ body: TestOneInput) -> Never {
        let arguments = CommandLine.arguments.dropFirst()
        guard !arguments.isEmpty else {
            writeErr(
                "usage: \(CommandLine.arguments[0]) FILE|FOLDER... (a replay driver; build with -DFUZZING for libFuzzer)\n"
            )
            exit(64)
        }
        var failed = false
        for argument in arguments {
            for path in files(at: argument) {
                guard let bytes = contents(of: path) else {
                    writeErr("cannot read \(path)\n")
                    failed = true
                    continue
                }
                _ = bytes.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
                print("ran \(path) (\(bytes.count) bytes)")
            }
        }
        exit(failed ? 66 : 0)
    }

    private static func files(at path: String) -> [String] {
        guard let folder = opendir(path) else { return [path] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            if stat(path + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

    private static func contents(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue } else { return nil } }
            if count == 0 { return result }
            result += chunk[0..<count]
        }
    }

    private static func writeErr(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}

/// Helpers for shaping fuzz input.
public enum FuzzInput {
    /// The input as bytes.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Whether `bytes` start with the signature of a raster format that goes to
    /// gdk-pixbuf (JPEG, WebP, GIF, BMP, TIFF, ICO): targets that fuzz our own code
    /// and libpng/librsvg skip those, so gdk-pixbuf's loaders are not what is fuzzed.
    public static func isPixbufFormat(_ bytes: [UInt8]) -> Bool {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<offset + prefix.count].elementsEqual(prefix)
        }
        return starts([0xFF, 0xD8, 0xFF]) || (starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8))
            || starts(Array("GIF8".utf8)) || starts(Array("BM".utf8)) || starts([0x49, 0x49, 0x2A, 0x00])
            || starts([0x4D, 0x4D, 0x00, 0x2A]) || starts([0x00, 0x00, 0x01, 0x00]) || starts([0x00, 0x00, 0x02, 0x00])
    }

    /// The PNG signature.
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
