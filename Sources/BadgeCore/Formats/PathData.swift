/// SVG path data of absolute moves, lines and cubic curves (`M`, `L`, `C`, `Z`, a
/// command's numbers repeated after it as SVG allows): the form of AOSP's icon masks
/// (`ContactSheet.AndroidMask`). Other commands end the path (none of those masks
/// uses them but the circle's arcs, which are drawn as a circle).
public enum PathData {
    /// One drawing command, in the path's own units.
    public enum Command: Equatable, Sendable {
        case move(Point)
        case line(Point)
        case curve(Point, Point, Point)
        case close
    }

    /// The commands of `data`, in order.
    public static func commands(_ data: String) -> [Command] {
        // Tokens: command letters and numbers (separated by spaces or commas).
        var tokens: [Substring] = []
        var start: String.Index?
        for index in data.indices {
            let character = data[index]
            let isNumber = character.isNumber || character == "." || character == "-"
            if isNumber {
                if start == nil { start = index }
                continue
            }
            if let begun = start {
                tokens.append(data[begun..<index])
                start = nil
            }
            if character.isLetter { tokens.append(data[index...index]) }
        }
        if let begun = start { tokens.append(data[begun...]) }
        var commands: [Command] = []
        var current: Character?
        var numbers: [Double] = []
        func flush() {
            guard let command = current else { return }
            let arity: Int
            switch command {
            case "M", "L": arity = 2
            case "C": arity = 6
            default: arity = 0
            }
            if command == "Z" || command == "z" { commands.append(.close) }
            guard arity > 0 else { return }
            var index = 0
            var first = true
            while index + arity <= numbers.count {
                let n = numbers[index..<index + arity].map { $0 }
                switch command {
                case "M": commands.append(first ? .move(Point(x: n[0], y: n[1])) : .line(Point(x: n[0], y: n[1])))
                case "L": commands.append(.line(Point(x: n[0], y: n[1])))
                default:
                    commands.append(
                        .curve(Point(x: n[0], y: n[1]), Point(x: n[2], y: n[3]), Point(x: n[4], y: n[5])))
                }
                first = false
                index += arity
            }
        }
        for token in tokens {
            if let letter = token.first, letter.isLetter {
                flush()
                current = letter
                numbers = []
                guard "MLCZmlcz".contains(letter) else { return commands }
            } else if let value = DecimalNumber.parse(token) {
                numbers.append(value)
            }
        }
        flush()
        return commands
    }
}
