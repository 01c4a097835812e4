#!/usr/bin/env bash
# Rewrites Sources/JourneyAPI/JourneyAPI.docc/Resources/openapi.json from what `journeys serve`
# publishes at /openapi.json (OpenAPIStaticCopyTests checks they are equal). Run after changing a
# route or the OpenAPI builder (Sources/JourneyAPI/OpenAPIDocument*.swift), then commit the files.
# Also rewrites JourneyAPI.docc/BackendExamples.md, the guide's real example answers
# (BackendGuideExampleTests).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null
JOURNEYS_REGENERATE_OPENAPI=1 swift test --skip-build --filter "OpenAPIStaticCopyTests|BackendGuideExampleTests"
git status --short Sources/JourneyAPI/JourneyAPI.docc/
