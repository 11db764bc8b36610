#!/usr/bin/env bash
# Installs the browser build's tool chain (the page `arena web` writes, web/): the Rust target
# wasm32-unknown-unknown (rustup) and wasm-bindgen-cli at exactly the version of the
# wasm-bindgen crate in Cargo.lock (cargo install, built from crates.io's sources; the glue it
# writes must match the crate). Nothing here downloads a prebuilt binary.
#
# Idempotent and quick when both are there. The arena's build script (arena/build.rs) builds
# the WebAssembly module when it finds them, and otherwise builds an arena without the page
# (`arena web` then says how to get it); under CI=true the web tests fail instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."

wanted=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$wanted" ]; then
    echo "error: Cargo.lock names no wasm-bindgen version" >&2
    exit 2
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "== rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
fi

cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
have=$("$cargo_bin/wasm-bindgen" --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$wanted" ]; then
    echo "== cargo install wasm-bindgen-cli --version $wanted (about a minute, once)"
    # Not --locked: the tool's own lock file names a webpki-roots release the registry may
    # not hold (1.0.11 is missing from some mirrors); its other dependencies resolve as usual.
    # Only the `wasm-bindgen` binary, without the TLS stack its test runner downloads drivers
    # with (--no-default-features), and unoptimised (--debug): the build took 56 s instead of
    # 192 s on a fresh 2-core machine, and the tool writes the same glue, byte for byte, in
    # 0.5 s instead of 0.14 s (docs/testing.md, "Where CI's time goes").
    CARGO_PROFILE_DEV_DEBUG=0 cargo install wasm-bindgen-cli --version "$wanted" --quiet \
        --bin wasm-bindgen --no-default-features --debug
fi
echo "wasm32-unknown-unknown and wasm-bindgen $wanted are installed"
