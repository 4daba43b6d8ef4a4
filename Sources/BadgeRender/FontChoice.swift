/// Which font draws the badge text.
public enum FontChoice: Equatable, Sendable {
    /// The font compiled into iconbadge: DejaVu Sans Bold, or DejaVu Sans for
    /// `.regular`. The same on every machine, fonts installed or not.
    case bundled(FontWeight)
    /// A TrueType/OpenType file by path; `index` picks a face of a collection.
    case file(path: String, index: Int)
    /// A fontconfig pattern such as `DejaVu Sans:bold` (family and properties).
    case family(String)
}

/// The two weights the bundled font comes in.
public enum FontWeight: String, CaseIterable, Sendable {
    /// DejaVu Sans (book weight).
    case regular
    /// DejaVu Sans Bold, the default.
    case bold
}
