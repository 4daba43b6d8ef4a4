import BadgeCore

/// Whether one path lies inside a folder, links resolved where the path exists: a
/// report or artifacts folder inside a compared folder would be compared next time,
/// and a compared folder inside the artifacts folder would be left out.
public enum PathContainment {
    /// `path` resolved: the longest existing prefix through `realpath`, the rest
    /// appended lexically (`..` and `.` normalised).
    public static func resolved(_ path: String) -> String {
        var lexical = LexicalPath(path).absolute()
        var tail: [String] = []
        while true {
            if let real = FileIdentity.realPath(lexical.description) {
                return tail.isEmpty ? real : (real == "/" ? "" : real) + "/" + tail.reversed().joined(separator: "/")
            }
            guard let last = lexical.components.popLast() else { return LexicalPath(path).absolute().description }
            tail.append(last)
        }
    }

    /// Whether `path` is `folder` or below it.
    public static func isInside(_ path: String, _ folder: String) -> Bool {
        let inner = resolved(path)
        let outer = resolved(folder)
        return inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }
}
