import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Every command the README and the manual show runs here, and prints what the page
/// says it prints (HACKING.md, "Documentation", has the conventions):
/// - a ```` ```console ```` block is a terminal session: `$ COMMAND` (continued by
///   lines ending in `\`), then exactly what it prints (standard output and error
///   together); a line `...` stands for any lines, `[...]` in a line for any text;
///   output that is JSON is compared as JSON, where an object holding `"…": "…"` may
///   leave keys out and an array element `"…"` stands for any elements. The command
///   must exit 0 (a failing one is shown as `$ COMMAND || echo "exit $?"`).
/// - a block whose info string names a file (```` ```json beta.json ````) is that
///   file: it is written into the page's folder before its commands run, and when
///   the repository has that file the two must be the same.
/// - a command writing `-o NAME.png` (or `--diff NAME.png`, `--preview NAME.png`)
///   where `docs/images/NAME.png` exists must make that picture.
/// Each page runs top to bottom in a folder of its own, made by
/// `Fixtures/docs/sandbox.sh` (the files the pages' commands name).
@Suite struct DocCommandTests {
    /// The pages: the README and every page of the manual.
    static let pages: [String] = {
        let manual =
            ((try? FileManager.default.contentsOfDirectory(atPath: Paths.root + "/docs/manual")) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/manual/" + $0 }
        return ["README.md"] + manual
    }()

    /// A command of a console block and what it prints.
    struct Command {
        var text: String
        var expected: [String]
        var line: Int
    }

    static func document(_ page: String) throws -> MarkdownDocument {
        MarkdownDocument(try String(contentsOfFile: Paths.root + "/" + page, encoding: .utf8))
    }

    /// The commands of a console block.
    static func commands(_ block: MarkdownBlock) -> [Command] {
        var commands: [Command] = []
        var continuing = false
        for (offset, line) in block.lines.enumerated() {
            if continuing, var last = commands.popLast() {
                last.text += "\n" + line
                commands.append(last)
                continuing = line.hasSuffix("\\")
            } else if line.hasPrefix("$ ") {
                commands.append(Command(text: String(line.dropFirst(2)), expected: [], line: block.line + 1 + offset))
                continuing = line.hasSuffix("\\")
            } else if var last = commands.popLast() {
                last.expected.append(line)
                commands.append(last)
            }
        }
        return commands
    }

    /// The folder holding a link named `iconbadge` to the built binary, for PATH.
    static let binFolder: String = {
        let folder = Paths.scratch("docs-bin")
        try? FileManager.default.createSymbolicLink(atPath: folder + "/iconbadge", withDestinationPath: Paths.binary)
        return folder
    }()

    /// Runs `command` with /bin/sh in `folder`: standard output and error into one
    /// pipe, standard input empty, a plain environment (no CI or ICONBADGE_ variables).
    static func shell(_ command: String, in folder: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ["PATH": binFolder + ":/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8"]
        environment["TMPDIR"] = ProcessInfo.processInfo.environment["TMPDIR"]
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Whether `actual` is what the page shows: line by line, `...` matching any
    /// lines; or, when the page shows JSON, the same JSON.
    static func matches(_ actual: String, _ expected: [String]) -> Bool {
        let shown = expected.joined(separator: "\n")
        if let first = shown.first, first == "{" || first == "[",
            let want = try? JSONSerialization.jsonObject(with: Data(shown.utf8), options: [.fragmentsAllowed]),
            let got = try? JSONSerialization.jsonObject(with: Data(actual.utf8), options: [.fragmentsAllowed])
        {
            return jsonMatches(got, want)
        }
        var lines = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return linesMatch(lines[...], expected[...])
    }

    static func linesMatch(_ actual: ArraySlice<String>, _ expected: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            let rest = expected.dropFirst()
            return (actual.startIndex...actual.endIndex).contains { linesMatch(actual[$0...], rest) }
        }
        guard let line = actual.first, lineMatches(line, first) else { return false }
        return linesMatch(actual.dropFirst(), expected.dropFirst())
    }

    /// A line as shown, where `[...]` stands for any text (a time, a path).
    static func lineMatches(_ line: String, _ shown: String) -> Bool {
        let parts = shown.components(separatedBy: "[...]")
        guard parts.count > 1 else { return line == shown }
        guard line.hasPrefix(parts[0]), line.hasSuffix(parts[parts.count - 1]),
            line.count >= parts[0].count + parts[parts.count - 1].count
        else { return false }
        var rest = line.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    /// JSON equality, except that an expected object holding the key "…" only
    /// needs its other keys in the actual object.
    static func jsonMatches(_ actual: Any, _ expected: Any) -> Bool {
        switch (actual, expected) {
        case (let a as [String: Any], let e as [String: Any]):
            let partial = e["…"] != nil
            let keys = e.keys.filter { $0 != "…" }
            if !partial, Set(a.keys) != Set(keys) { return false }
            return keys.allSatisfy { key in a[key].map { jsonMatches($0, e[key]!) } ?? false }
        case (let a as [Any], let e as [Any]):
            return arrayMatches(a[...], e[...])
        case (let a as NSNumber, let e as NSNumber):
            return a == e
        case (let a as String, let e as String):
            return a == e
        case (is NSNull, is NSNull):
            return true
        default:
            return false
        }
    }

    /// Arrays element by element, where an expected "…" stands for any elements.
    static func arrayMatches(_ actual: ArraySlice<Any>, _ expected: ArraySlice<Any>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if let marker = first as? String, marker == "…" {
            let rest = expected.dropFirst()
            return (actual.startIndex...actual.endIndex).contains { arrayMatches(actual[$0...], rest) }
        }
        guard let head = actual.first, jsonMatches(head, first) else { return false }
        return arrayMatches(actual.dropFirst(), expected.dropFirst())
    }

    /// A fresh folder for `page`, with the sandbox's files and the page's file blocks.
    static func sandbox(for page: String, _ document: MarkdownDocument) throws -> String {
        let folder = Paths.scratch("docs-" + page.replacingOccurrences(of: "/", with: "-"))
        let setup = try shell("'\(Paths.root)/Fixtures/docs/sandbox.sh' '\(Paths.root)'", in: folder)
        #expect(setup.status == 0, "Fixtures/docs/sandbox.sh: \(setup.output)")
        for block in document.blocks where !block.argument.isEmpty {
            let path = folder + "/" + block.argument
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try (block.lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test func theManualHasItsPages() {
        // README.md and the manual's index, then one page a topic.
        #expect(Self.pages.count == 19, "\(Self.pages)")
    }

    @Test(arguments: pages)
    func everyCommandPrintsWhatThePageShows(_ page: String) throws {
        let document = try Self.document(page)
        let folder = try Self.sandbox(for: page, document)
        for block in document.blocks where block.language == "console" {
            let commands = Self.commands(block)
            #expect(!commands.isEmpty, "\(page):\(block.line): a console block without a $ command")
            for command in commands {
                let run = try Self.shell(command.text, in: folder)
                let place = "\(page):\(command.line): $ \(command.text)"
                #expect(run.status == 0, "\(place)\nexit \(run.status):\n\(run.output)")
                #expect(
                    Self.matches(run.output, command.expected),
                    "\(place)\nprinted:\n\(run.output)\nthe page shows:\n\(command.expected.joined(separator: "\n"))")
                try checkPictures(command.text, in: folder, place: place)
            }
        }
    }

    /// A picture of docs/images named as the output is what the command made.
    func checkPictures(_ command: String, in folder: String, place: String) throws {
        let words = shellWords(command.replacingOccurrences(of: "\\\n", with: " "))
        for (flag, value) in zip(words, words.dropFirst()) where ["-o", "--diff", "--preview"].contains(flag) {
            guard !value.contains("/"), value.hasSuffix(".png") else { continue }
            let picture = Paths.root + "/docs/images/" + value
            guard FileManager.default.fileExists(atPath: picture) else { continue }
            #expect(
                try ImageFile.pixels(at: folder + "/" + value) == ImageFile.pixels(at: picture),
                "\(place): not docs/images/\(value); run make docs and look at it")
        }
    }

    /// A block that names a file of the repository shows that file as it is.
    @Test func fileBlocksAreTheRepositoryFiles() throws {
        var named = 0
        for page in Self.pages {
            for block in try Self.document(page).blocks where !block.argument.isEmpty {
                #expect(
                    !block.argument.hasPrefix("/") && !block.argument.split(separator: "/").contains(".."),
                    "\(page):\(block.line): \(block.argument) must be a relative path inside the page's folder")
                let path = Paths.root + "/" + block.argument
                guard FileManager.default.fileExists(atPath: path) else { continue }
                named += 1
                let file = try String(contentsOfFile: path, encoding: .utf8)
                #expect(
                    file == block.lines.joined(separator: "\n") + "\n",
                    "\(page):\(block.line): the block differs from \(block.argument)")
            }
        }
        #expect(named >= 2)
    }

    /// An iconbadge command shown outside a console block (in a workflow, a script,
    /// a Makefile, a GitLab `script:` list) is one a console block runs, so it is tested
    /// too; a line continued with a backslash is one command. The recipe of a check
    /// split across CI jobs holds CI variables (`${{ matrix.shard }}`, `$CI_NODE_INDEX`)
    /// a console block cannot run: ShardRecipeTests runs its lines with three shards.
    /// `text` blocks hold synopses and transcripts, not commands to run.
    @Test func commandsOutsideConsoleBlocksAreRunToo() throws {
        var tested = Set<String>()
        var shown: [(String, String)] = []
        for page in Self.pages {
            for block in try Self.document(page).blocks {
                if block.language == "console" {
                    for command in Self.commands(block) {
                        tested.insert(command.text.replacingOccurrences(of: "\\\n", with: " "))
                    }
                } else if block.language != "text" {
                    let code = block.lines.joined(separator: "\n").replacingOccurrences(of: "\\\n", with: " ")
                    for line in code.split(separator: "\n") {
                        var command = line.trimmingCharacters(in: .whitespaces)
                        for prefix in ["- run: ", "run: ", "- "] where command.hasPrefix(prefix) {
                            command = String(command.dropFirst(prefix.count))
                        }
                        if command.hasPrefix("iconbadge ") { shown.append(("\(page):\(block.line)", command)) }
                    }
                }
            }
        }
        #expect(tested.count > 100)
        let recipe = try ShardRecipeTests.commands("sh") + ShardRecipeTests.commands("yaml")
        #expect(recipe.count == 8, "\(recipe)")
        tested.formUnion(recipe)
        for (place, command) in shown {
            #expect(tested.contains(command), "\(place): \(command) is in no console block")
        }
    }
}
