/// The process exit codes of `iconbadge`, from docs/DESIGN.md (BSD `sysexits.h` values).
///
/// 2 is deliberately unused: `cmp`, `diff` and ImageMagick's `compare` use it for
/// "the tool failed", and CI scripts read it that way.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Success; also `--help`, `--version` and a hidden badge.
    case success = 0
    /// `compare` / `--check`: the images differ (pixels beyond tolerance, or sizes).
    case different = 1
    /// Usage error: unknown option, bad value, missing argument (`EX_USAGE`).
    case usage = 64
    /// Bad input data: corrupt or unsupported image, bad manifest, over a limit (`EX_DATAERR`).
    case dataError = 65
    /// An input is missing or unreadable (`EX_NOINPUT`).
    case noInput = 66
    /// A needed resource is unavailable, such as a font family or memory (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// Internal error: an unexpected library status (`EX_SOFTWARE`).
    case software = 70
    /// The output cannot be created (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// I/O error while writing (`EX_IOERR`).
    case ioError = 74
    /// Interrupted by SIGINT (128 + 2, the shell convention).
    case interrupted = 130
    /// Terminated by SIGTERM (128 + 15, the shell convention).
    case terminated = 143
}
