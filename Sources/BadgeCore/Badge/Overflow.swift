/// What happens to a badge that would overhang the icon's canvas.
public enum Overflow: String, CaseIterable, Sendable {
    /// Move the badge inward until it is wholly inside (the default).
    case clamp
    /// Keep the canvas and cut what overhangs.
    case clip
    /// Grow the canvas just enough that nothing is cut; the icon's pixels keep
    /// their values at their new position.
    case expand
}
