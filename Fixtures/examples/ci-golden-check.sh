#!/bin/sh
# A CI job, written as plain shell steps: render every badge of the manifest and
# compare it with the committed goldens. On a difference the job fails (exit 1) and
# the step after it uploads the artifacts: REL.actual.png, REL.diff.png, junit.xml.
#   ci-golden-check.sh MANIFEST GOLDENS ARTIFACTS   (ICONBADGE=/path/to/iconbadge)
set -u
manifest=$1
goldens=$2
artifacts=$3
ICONBADGE=${ICONBADGE:-iconbadge}
mkdir -p "$artifacts"

# Step 1: record the tools that made the renders (for the log).
"$ICONBADGE" --version

# Step 2: the check itself; exit 0 passed, 1 changed, 64-74 errors.
status=0
"$ICONBADGE" batch "$manifest" --check "$goldens" --artifacts "$artifacts" --junit "$artifacts/junit.xml" || status=$?

# Step 3: on failure, upload "$artifacts" (your CI's upload step goes here).
if [ "$status" -ne 0 ]; then
    echo "golden check failed (exit $status); upload these artifacts:"
    ls "$artifacts"
fi
exit "$status"
