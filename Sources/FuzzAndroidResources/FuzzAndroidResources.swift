// libFuzzer target: Android resource lookups through the real resource table
// (`AndroidResourceTable` in BadgeJobs) on a small `res/` tree written from the input:
// the manifest's icon names (`AndroidResources`), the adaptive icon's XML, `@color/`
// colour state lists, `@drawable/` files and `values/` colours, each layer converted at two
// densities through one table (issue 44: a file referred to by many paths, at each
// density, is parsed once; each folder is listed once).
//
// Input: up to five parts separated by NUL bytes (XMLScanner refuses a NUL, so no part
// needs one): res/mipmap-anydpi-v26/ic_launcher.xml, res/color/csl.xml,
// res/values/values.xml, res/drawable/fg.xml, and AndroidManifest.xml beside res/.
//
// Invariants: an error is 64, 65 or 66 with a message; every document is within the SVG
// limit, well-formed (XMLScanner reads it) and the same through a fresh table (what the
// table keeps never changes an answer); the table parses each XML file at most once and
// lists each folder at most once, within its bounds.
import BadgeCore
import BadgeJobs
import FuzzSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let limits: ImageLimits = {
    var limits = ImageLimits()
    limits.maxSVGBytes = 1 << 20
    limits.maxSide = 512
    limits.maxPixels = 262_144
    return limits
}()

/// The scratch folder of this process: `app/res/...` and `app/AndroidManifest.xml`.
let root: String = {
    var template = Array("/tmp/iconbadge-fuzz-res-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    return String(cString: made)
}()

/// Where each part of the input goes, below `root`.
let parts = [
    "app/res/mipmap-anydpi-v26/ic_launcher.xml", "app/res/color/csl.xml", "app/res/values/values.xml",
    "app/res/drawable/fg.xml", "app/AndroidManifest.xml",
]
let folders = ["app", "app/res", "app/res/mipmap-anydpi-v26", "app/res/color", "app/res/values", "app/res/drawable"]

/// Writes `bytes` to `path` (replacing it), or removes it when nil.
func put(_ path: String, _ bytes: ArraySlice<UInt8>?) {
    unlink(path)
    guard let bytes else { return }
    // Unlinked above, so a new file: never through a link left in the tree.
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot write \(path)")
    defer { close(fd) }
    let array = Array(bytes)
    var written = 0
    while written < array.count {
        let n = array.withUnsafeBytes { write(fd, $0.baseAddress! + written, array.count - written) }
        precondition(n > 0, "cannot write \(path)")
        written += n
    }
}

/// Each layer of the icon at mdpi and xxxhdpi through `table`: a document or a problem.
func layers(_ res: String, table: AndroidResourceTable, icon: AndroidResources.AdaptiveIcon) -> [String] {
    var answers: [String] = []
    for part in ["background", "foreground", "monochrome"] {
        guard let element = icon.root.child(part) else { continue }
        for density in [1.0, 4.0] {
            do throws(AndroidDrawableProblem) {
                let document = try AndroidDrawableSVG.layer(
                    element, of: icon.bytes, path: res + "/" + icon.components.joined(separator: "/"), width: 108,
                    height: 108, density: density, lookup: table.lookup, limits: limits)
                precondition(document.count <= limits.maxSVGBytes, "a document over the limit")
                precondition((try? XMLScanner.parse(document)) != nil, "a document that is not well-formed XML")
                answers.append(String(decoding: document, as: UTF8.self))
            } catch {
                precondition(!error.reason.isEmpty && !error.path.isEmpty)
                answers.append("problem: \(error.path) \(error.description)")
            }
        }
    }
    return answers
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAndroidResources(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    mkdir(root, 0o700)
    for folder in folders { mkdir(root + "/" + folder, 0o700) }
    // Nothing is left in /tmp after an input.
    defer {
        for part in parts { unlink(root + "/" + part) }
        for folder in folders.reversed() { rmdir(root + "/" + folder) }
        rmdir(root)
    }
    let pieces = bytes.split(separator: 0, maxSplits: parts.count - 1, omittingEmptySubsequences: false)
    for (index, part) in parts.enumerated() { put(root + "/" + part, index < pieces.count ? pieces[index] : nil) }
    let res = root + "/app/res"
    do throws(BadgeError) {
        var notes: [String] = []
        let resources = try AndroidResources(folder: res, names: [], notes: &notes)
        let table = try AndroidResourceTable(folder: res, limits: limits, maxEntries: 64, maxXMLBytes: 256 << 10)
        for icon in resources.adaptive {
            let first = layers(res, table: table, icon: icon)
            // Asked again through the same table (all kept), then through a fresh one.
            precondition(layers(res, table: table, icon: icon) == first, "not the same answers twice")
            let fresh = try AndroidResourceTable(folder: res, limits: limits, maxEntries: 64, maxXMLBytes: 256 << 10)
            precondition(layers(res, table: fresh, icon: icon) == first, "a kept answer differs from a fresh one")
        }
        // values.xml, and the icon, csl.xml and fg.xml once each however often asked.
        precondition(table.documentsParsed <= 4, "an XML file parsed twice: \(table.documentsParsed)")
        // res/ and its four folders.
        precondition(table.foldersListed <= 5, "a folder listed twice: \(table.foldersListed)")
    } catch {
        precondition(
            [64, 65, 66].contains(error.exitCode.rawValue), "exit \(error.exitCode.rawValue): \(error.message)")
        precondition(!error.message.isEmpty)
    }
    return 0
}

#if !FUZZING
    /// Without libFuzzer (a plain build): replays the files named on the command line.
    @main enum Replay {
        static func main() { FuzzReplay.run(fuzzAndroidResources) }
    }
#endif
