/// Every failure iconbadge reports: each case carries the offending value or path
/// and maps to one exit code of docs/DESIGN.md.
///
/// `message` is the one line printed after `iconbadge: error: `; it names the value
/// and, where there is one, the fix.
public enum BadgeError: Error, Equatable, Sendable {
    /// An option's value is not accepted: `option` as typed (`--background`), the
    /// raw `value`, and the `problem` with what is accepted, worded to follow the
    /// quoted value ("is not a colour (use #RGB, ...)"). Exit 64.
    case invalidValue(option: String, value: String, problem: String)
    /// Any other usage problem (missing icon argument, flag given twice). Exit 64.
    case usage(String)
    /// An input's bytes are corrupt, unsupported or over a limit (an empty path: the
    /// badge itself cannot be laid out). Exit 65.
    case badInput(path: String, reason: String)
    /// An input (an empty path: the badge itself) is over a limit; the command line
    /// adds which option changes it. Exit 65.
    case overLimit(path: String, LimitExceeded)
    /// A badge cannot be drawn as asked (`RenderProblem`: its values, no option's
    /// name; the command line adds the options that change it); `badge` is which of
    /// several (from 2), nil for a lone badge or the first. Exit 64 or 65, by the
    /// problem.
    case render(RenderProblem, badge: Int? = nil)
    /// An input does not exist or cannot be read. Exit 66.
    case missingInput(path: String, reason: String)
    /// A resource such as a font family or a glyph is not available. Exit 69.
    case unavailable(resource: String, reason: String)
    /// A library returned a status iconbadge did not expect. Exit 70.
    case internalError(String)
    /// An output cannot be created (folder missing, read-only, is a folder). Exit 73.
    case cannotCreate(path: String, reason: String)
    /// Writing an output failed part way (disk full, I/O error). Exit 74.
    case ioError(path: String, reason: String)

    /// The exit code docs/DESIGN.md assigns to this failure.
    public var exitCode: ExitCode {
        switch self {
        case .invalidValue, .usage: return .usage
        case .badInput, .overLimit: return .dataError
        case .render(let problem, _): return problem.exitCode
        case .missingInput: return .noInput
        case .unavailable: return .unavailable
        case .internalError: return .software
        case .cannotCreate: return .cannotCreate
        case .ioError: return .ioError
        }
    }

    /// The one-line description, without the `iconbadge: error: ` prefix.
    public var message: String {
        switch self {
        case .invalidValue(let option, let value, let problem):
            return "\(option): \(Quoted(value)) \(problem)"
        case .usage(let text):
            return text
        case .badInput(let path, let reason):
            // An empty path: the reason is about the badge itself, not a file.
            return path.isEmpty ? reason : "\(Quoted(path)): \(reason)"
        case .overLimit(let path, let limit):
            return path.isEmpty ? limit.description : "\(Quoted(path)): \(limit.description)"
        case .render(let problem, let badge):
            return BadgeError.prefix(badge: badge, path: problem.path) + problem.description
        case .missingInput(let path, let reason):
            return "\(Quoted(path)): \(reason)"
        case .unavailable(let resource, let reason):
            return "\(resource): \(reason)"
        case .internalError(let text):
            return "internal error: \(text)"
        case .cannotCreate(let path, let reason):
            return "cannot create \(Quoted(path)): \(reason)"
        case .ioError(let path, let reason):
            return "cannot write \(Quoted(path)): \(reason)"
        }
    }
}

extension BadgeError {
    /// Memory this process could not get for `what` ("a 4096 × 4096 image"): a limit
    /// the caller set (`ulimit -v`, a container's), not a fault in iconbadge or the
    /// input, so 69 (a needed resource is unavailable) with the fix, not 70.
    /// (Isolated SVG decoding has its own cap, sized from the file: running out there
    /// is the file's doing, 65.)
    public static func outOfMemory(_ what: String) -> BadgeError {
        .unavailable(
            resource: "memory",
            reason: "cannot allocate \(what); raise the memory limit (ulimit -v) or render smaller")
    }
}

extension BadgeError {
    /// The error of badge `number` of several (`--and`, a manifest's "badges"), saying
    /// which; the exit code is the same. Errors about a file name the file already.
    public func forBadge(_ number: Int) -> BadgeError {
        switch self {
        case .usage(let text): return .usage("badge \(number): \(text)")
        case .overLimit(let path, _) where path.isEmpty:
            return .badInput(path: "", reason: "badge \(number): \(message)")
        case .badInput(let path, let reason) where path.isEmpty:
            return .badInput(path: "", reason: "badge \(number): \(reason)")
        case .render(let problem, nil) where problem.path == nil: return .render(problem, badge: number)
        default: return self
        }
    }

    /// What goes before a render problem's words: `badge 2: ` for one of several, the
    /// quoted path for a file's problem.
    public static func prefix(badge: Int?, path: String?) -> String {
        (badge.map { "badge \($0): " } ?? "") + (path.map { "\(Quoted($0)): " } ?? "")
    }
}
