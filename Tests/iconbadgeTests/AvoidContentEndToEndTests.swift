import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `--avoid-content` on the render command: any platform, raster or vector icon,
/// PNG or SVG output; the report's numbers; combinations that cannot move refused.
@Suite struct AvoidContentEndToEndTests {
    @Test func anSVGIconsBadgeCoversLessAndEveryOutputAgrees() throws {
        let folder = Paths.scratch("avoid-content")
        var covered: [JSONValue] = []
        for format in ["png", "svg"] {
            let run = try runIconbadge([
                Paths.fixture("icons/mail-unread-symbolic.svg"), "--size", "256x256", "--value", "3", "--height", "25%",
                "--avoid-content", "--report", "-o", "\(folder)/out.\(format)",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let report = try JSONParser().parse(Array(run.stdout))
            covered.append(try #require(report["placement"]?["contentCovered"]))
        }
        #expect(covered[0] == covered[1])
        guard case .number(let clamped)? = covered[0]["clamped"], case .number(let placed)? = covered[0]["placed"]
        else {
            Issue.record("no numbers: \(covered[0])")
            return
        }
        #expect(placed < clamped && clamped > 0, "\(covered[0])")
        let same = try runIconbadge(["compare", "\(folder)/out.svg", "\(folder)/out.png", "--threshold", "0.1"])
        #expect(same.status == 0, "\(same.stdoutText)")
        // Without the flag the report has no such key.
        let plain = try runIconbadge([
            Paths.fixture("icons/mail-unread-symbolic.svg"), "--size", "256x256", "--value", "3", "--height", "25%",
            "--report", "-o", "\(folder)/plain.png",
        ])
        #expect(try JSONParser().parse(Array(plain.stdout))["placement"]?["contentCovered"] == nil)
    }

    @Test func combinationsThatCannotMoveAreRefused() throws {
        let folder = Paths.scratch("avoid-content-refused")
        for (options, message) in [
            (
                ["--shape", "ribbon"],
                "--avoid-content moves a pill, dot, image or shield; a ribbon stays on its corner"
            ),
            (["--overflow", "clip"], "--avoid-content moves a clamped badge; it does not go with --overflow clip"),
        ] {
            let run = try runIconbadge(
                [Paths.fixture("icons/folder-512x512.png"), "--value", "3", "--avoid-content", "-o", folder + "/x.png"]
                    + options)
            #expect(run.status == 64)
            #expect(run.stderrLines == ["iconbadge: error: " + message], "\(run.stderr)")
        }
        // Shared through the environment, it is off for a ribbon rather than refused.
        let shared = try runIconbadge(
            [Paths.fixture("icons/folder-512x512.png"), "--value", "3", "--shape", "ribbon", "-o", folder + "/y.png"],
            environment: ["ICONBADGE_AVOID_CONTENT": "1"])
        #expect(shared.status == 0, "\(shared.stderr)")
    }
}
