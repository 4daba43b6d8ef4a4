#!/bin/sh
# Makes the README's picture of the HTML report of a golden check,
# docs/images/check-report.png. HTMLReportBrowserTests builds a report from real renders
# of Fixtures/icons (every status, hostile paths included), opens it in headless Chromium
# at 1280 x 900 and checks the screenshot; with ICONBADGE_REPORT_SCREENSHOT set it also
# copies the screenshot there. The test itself never writes into docs/.
# Needs chromium (make deps installs it). Look at the picture before committing it.
set -eu
cd "$(dirname "$0")/.."
swift build --build-tests
ICONBADGE_REPORT_SCREENSHOT="$PWD/docs/images/check-report.png" \
    swift test --skip-build --filter 'HTMLReportBrowserTests/screenshotShowsThePage'
echo docs/images/check-report.png
