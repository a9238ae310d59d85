#!/usr/bin/env bash
# Checks the cloud stack without an AWS account: installs SST's platform and the AWS provider's
# types from the npm registry alone, then type-checks sst.config.ts, infra/ and stacks/.
#   bash infra/check.sh
# SST normally downloads Bun and Pulumi from GitHub; SST_SKIP_DEPENDENCY_CHECK=1 skips that,
# and SST_BUN_PATH points it at Bun from the npm package @oven/bun-linux-x64 instead. Pulumi's
# binary is only needed by `sst deploy`, which needs AWS anyway.
set -euo pipefail
cd "$(dirname "$0")/.."

BUN_VERSION=1.2.23
TOOLS="$PWD/.sst/tools"
case "$(uname -m)" in
  x86_64) BUN_PKG=@oven/bun-linux-x64 ;;
  aarch64) BUN_PKG=@oven/bun-linux-aarch64 ;;
  *) echo "unsupported machine $(uname -m)" >&2; exit 1 ;;
esac
BUN="$TOOLS/node_modules/$BUN_PKG/bin/bun"
if [ ! -x "$BUN" ]; then
  npm install --prefix "$TOOLS" --no-save --no-package-lock --no-audit --no-fund "$BUN_PKG@$BUN_VERSION" >/dev/null
fi

export SST_SKIP_DEPENDENCY_CHECK=1 SST_BUN_PATH="$BUN" SST_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
npx sst install --stage "${SST_STAGE:-dev}"
# The platform's own TypeScript (5.7, installed by `sst install`), as SST itself compiles with it.
.sst/platform/node_modules/typescript/bin/tsc -p tsconfig.infra.json
echo "infra check: sst install and type-check passed"
