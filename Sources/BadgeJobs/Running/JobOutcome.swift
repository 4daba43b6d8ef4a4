import BadgeCore
import BadgeRender

/// What running one job gave: its result, and what its user should know.
package struct JobOutcome: Sendable {
    /// The job's label (`jobs[3]@2x`; "" for a lone render).
    package var label: String
    /// What the job produced, or why it failed.
    package var result: RenderResult<Done>

    /// A job that ran to the end.
    package struct Done: Sendable {
        /// The golden check's outcome, when the job has a check.
        package var check: GoldenCheck.Outcome?
        /// The `--report` geometry, when asked for.
        package var report: JSONValue?
        /// Notes and warnings, in the order found.
        package var diagnostics: [Diagnostic] = []
        /// The smallest text drawn (its label, and its em size in pixels), nil when no
        /// badge drew text: what a smaller copy of the image would shrink.
        package var smallestText: (label: String, pixels: Double)?
    }

    /// The same outcome with no notes or warnings (a job whose notes others say).
    package var withoutDiagnostics: JobOutcome {
        guard case .success(var done) = result else { return self }
        done.diagnostics = []
        return JobOutcome(label: label, result: .success(done))
    }

    /// The diagnostics, whatever the result.
    package var diagnostics: [Diagnostic] {
        if case .success(let done) = result { return done.diagnostics }
        return []
    }
}
