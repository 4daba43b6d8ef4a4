import BadgeCore
import BadgeJobs

/// Shell completion scripts for bash, zsh and fish, generated from the command
/// and option tables: subcommands, option names, enumerated values (anchors,
/// overflow modes, styles, formats) and file or folder paths.
enum Completions {
    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        switch arguments.first {
        case "bash": io.writeOut(bash())
        case "zsh": io.writeOut(zsh())
        case "fish": io.writeOut(fish())
        default:
            io.error(
                "--generate-completion-script: \(Quoted(arguments.first ?? "")) is not a shell (use bash, zsh or fish)")
            return .usage
        }
        return .success
    }

    static var commandNames: [String] { BadgeCLI.commands.map(\.name) + ["help"] }

    /// A value's completion as a word list for the shells, or a kind.
    private static func values(_ option: OptionInfo) -> [String]? {
        if case .choices(let choices, _) = option.completion { return choices }
        return nil
    }

    // MARK: bash

    static func bash() -> String {
        var out = "# bash completion for iconbadge (iconbadge --generate-completion-script bash)\n"
        out += "_iconbadge() {\n"
        out += "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
        out += "    local command=render\n"
        out +=
            "    case \"${COMP_WORDS[1]}\" in \(commandNames.joined(separator: "|"))) command=\"${COMP_WORDS[1]}\" ;; esac\n"
        out += "    COMPREPLY=()\n"
        out += "    case \"$command\" in\n"
        for command in BadgeCLI.commands {
            out += "    \(command.name))\n"
            out += "        case \"$prev\" in\n"
            for option in command.options {
                guard case .value = option.kind else { continue }
                let names = ([option.flagName] + (option.short.map { ["-\($0)"] } ?? [])).joined(separator: "|")
                out += "        \(names))\n"
                switch option.completion {
                case .choices(let choices, _):
                    out +=
                        "            COMPREPLY=($(compgen -W \"\(choices.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
                case .file: out += "            COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                case .folder: out += "            COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
                case .none: out += "            return ;;\n"
                }
            }
            out += "        esac\n"
            let words = command.options.flatMap { [$0.flagName] + ($0.short.map { ["-\($0)"] } ?? []) } + ["--help"]
            out += "        if [[ \"$cur\" == -* ]]; then\n"
            out += "            COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))\n"
            out += "            return\n        fi\n"
            switch command.positional {
            case .folder: out += "        COMPREPLY=($(compgen -d -- \"$cur\"))\n"
            case .none: break
            default: out += "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
            }
            if command.name == "render" {
                out += "        if [[ $COMP_CWORD -eq 1 ]]; then\n"
                out += "            COMPREPLY+=($(compgen -W \"\(commandNames.joined(separator: " "))\" -- \"$cur\"))\n"
                out += "        fi\n"
            }
            out += "        ;;\n"
        }
        out +=
            "    help)\n        COMPREPLY=($(compgen -W \"\(BadgeCLI.commands.map(\.name).joined(separator: " "))\" -- \"$cur\")) ;;\n"
        out += "    esac\n}\n"
        out += "complete -o filenames -F _iconbadge iconbadge\n"
        return out
    }

    // MARK: zsh

    static func zsh() -> String {
        var out = "#compdef iconbadge\n# zsh completion for iconbadge (iconbadge --generate-completion-script zsh)\n\n"
        for command in BadgeCLI.commands {
            out += "_iconbadge_\(command.name)() {\n    _arguments -s \\\n"
            for option in command.options {
                let help = zshEscape(option.help)
                var action = ""
                if case .value(let placeholder) = option.kind {
                    switch option.completion {
                    case .choices(let choices, _): action = ":\(placeholder):(\(choices.joined(separator: " ")))"
                    case .file: action = ":\(placeholder):_files"
                    case .folder: action = ":\(placeholder):_files -/"
                    case .none: action = ":\(placeholder): "
                    }
                }
                let repeatMark = option.repeatable ? "*" : ""
                if let short = option.short {
                    out += "        '\(repeatMark)'{-\(short),--\(option.name)}'[\(help)]\(action)' \\\n"
                } else {
                    out += "        '\(repeatMark)--\(option.name)[\(help)]\(action)' \\\n"
                }
            }
            out += "        '(- *)--help[show help]' \\\n"
            switch command.positional {
            case .folder: out += "        '*:folder:_files -/'\n"
            case .none: out += "        '*:pattern: '\n"
            default: out += "        '*:file:_files'\n"
            }
            out += "}\n\n"
        }
        out += "_iconbadge() {\n"
        out += "    local -a commands\n    commands=(\n"
        for command in BadgeCLI.commands {
            out += "        '\(command.name):\(zshEscape(command.summary))'\n"
        }
        out += "        'help:show help for a command'\n    )\n"
        out += "    if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then\n"
        out += "        _describe -t commands 'iconbadge command' commands\n        _files\n        return\n    fi\n"
        out += "    case $words[2] in\n"
        for command in BadgeCLI.commands {
            out += "        \(command.name)) shift words; (( CURRENT-- )); _iconbadge_\(command.name) ;;\n"
        }
        out += "        help) _describe -t commands 'iconbadge command' commands ;;\n"
        out += "        *) _iconbadge_render ;;\n    esac\n}\n\n_iconbadge \"$@\"\n"
        return out
    }

    private static func zshEscape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "'": out += "'\\''"
            case "[", "]", ":": out += "\\" + String(character)
            default: out.append(character)
            }
        }
        return out
    }

    // MARK: fish

    static func fish() -> String {
        var out = "# fish completion for iconbadge (iconbadge --generate-completion-script fish)\n"
        let names = commandNames.joined(separator: " ")
        out += "complete -c iconbadge -f\n"
        for command in BadgeCLI.commands {
            out +=
                "complete -c iconbadge -n '__fish_use_subcommand' -a \(command.name) -d '\(fishEscape(command.summary))'\n"
        }
        out += "complete -c iconbadge -n '__fish_use_subcommand' -a help -d 'show help for a command'\n"
        out +=
            "complete -c iconbadge -n '__fish_seen_subcommand_from help' -a '\(BadgeCLI.commands.map(\.name).joined(separator: " "))'\n"
        for command in BadgeCLI.commands {
            let condition =
                command.name == "render"
                ? "not __fish_seen_subcommand_from \(names.replacingRender())"
                : "__fish_seen_subcommand_from \(command.name)"
            if command.positional != .none {
                out += "complete -c iconbadge -n '\(condition)' -F\n"
            }
            for option in command.options {
                var line = "complete -c iconbadge -n '\(condition)' -l \(option.name)"
                if let short = option.short { line += " -s \(short)" }
                if case .value = option.kind {
                    switch option.completion {
                    case .choices(let choices, _): line += " -x -a '\(choices.joined(separator: " "))'"
                    case .file: line += " -r -F"
                    case .folder: line += " -x -a '(__fish_complete_directories)'"
                    case .none: line += " -x"
                    }
                }
                line += " -d '\(fishEscape(option.help))'"
                out += line + "\n"
            }
        }
        return out
    }

    private static func fishEscape(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "'" || character == "\\" { out += "\\" }
            out.append(character)
        }
        return out
    }
}

extension String {
    /// The command list without `render` (for fish's "no other subcommand" test).
    fileprivate func replacingRender() -> String {
        split(separator: " ").filter { $0 != "render" }.joined(separator: " ")
    }
}
