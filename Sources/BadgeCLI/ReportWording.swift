import BadgeCore
import BadgeJobs

/// How `batch --check`, `compare` and `merge-reports` say where their reports went
/// (`ReportPublishing.publish`).
enum ReportWording {
    /// One line per report published, the error of one that was not, and a note for
    /// a results file whose images are outside its folder.
    static func say(_ published: [ReportPublishing.Published], io: CommandIO) {
        for item in published {
            switch item {
            case .html(let path): io.writeErr("iconbadge: HTML report: \(Shown(path))\n")
            case .junit(let path): io.writeErr("iconbadge: JUnit report: \(Shown(path))\n")
            case .results(let path, let imagesOutside, let folder):
                io.writeErr("iconbadge: results: \(Shown(path))\n")
                if imagesOutside {
                    io.note(
                        "--results \(Quoted(path)): some images are outside the results file's folder, so merge-reports cannot show them; write the report and artifacts inside \(Quoted(folder))"
                    )
                }
            case .failed(let error): io.error(ErrorWording.message(error))
            }
        }
    }
}
