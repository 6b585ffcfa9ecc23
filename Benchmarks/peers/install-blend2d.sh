#!/usr/bin/env bash
# Installs Blend2D, the benchmark-only peer renderer, into Benchmarks/.peers/blend2d (gitignored):
# libblend2d.a from PyPI's blend2d-python 1.0.0 wheel and the headers from its sdist, plus a
# pkg-config file (blend2d-peer.pc) that the CBlend2D target finds through PKG_CONFIG_PATH.
# Nothing downloaded is committed. Usage: Benchmarks/peers/install-blend2d.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/.peers/blend2d"
version=1.0.0
wheel_sha=b3f34b7b118234932377168032a5ed64dc5d785d2dcc406d42e74af36e8339ff
sdist_sha=a88b1681568873266b39aefdc3b68023966c8ecbbbe6d8fe29d80a7dad28ee2b
# The sdist's address on PyPI (pip cannot fetch an sdist without building it).
sdist_url=https://files.pythonhosted.org/packages/68/5f/61a3df420487aff791639d069f849919041bcb94e7bf1184d6e70ff6769f/blend2d_python-$version.tar.gz

if [[ -f "$root/lib/libblend2d.a" && -f "$root/include/blend2d.h" && -f "$root/blend2d-peer.pc" ]]; then
    echo "Blend2D already installed in $root"
    exit 0
fi
download="$root/download"
mkdir -p "$download" "$root/lib" "$root/include"
python3 -m pip download --quiet --no-deps --only-binary :all: --platform manylinux_2_28_x86_64 \
    --python-version 3.11 --implementation cp "blend2d-python==$version" -d "$download"
curl -sSfL -o "$download/blend2d_python-$version.tar.gz" "$sdist_url"
wheel=$(ls "$download"/blend2d_python-$version-*.whl)
echo "$wheel_sha  $wheel" | sha256sum -c --quiet
echo "$sdist_sha  $download/blend2d_python-$version.tar.gz" | sha256sum -c --quiet

python3 - "$wheel" "$root/lib" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[2] + "/libblend2d.a", "wb") as out:
    out.write(z.read("blend2d/libblend2d.a"))
PY
tar -xzf "$download/blend2d_python-$version.tar.gz" -C "$download" \
    "blend2d_python-$version/3rdparty/blend2d/src"
src="$download/blend2d_python-$version/3rdparty/blend2d/src"
cp "$src/blend2d.h" "$root/include/"
mkdir -p "$root/include/blend2d"
cp "$src"/blend2d/*.h "$root/include/blend2d/"
rm -rf "$download"

cat > "$root/blend2d-peer.pc" <<PC
prefix=$root
Name: blend2d-peer
Description: Blend2D $version from blend2d-python (benchmark peer only)
Version: $version
Cflags: -I\${prefix}/include
Libs: -L\${prefix}/lib -lblend2d -lstdc++ -lpthread -lm -lrt
PC
echo "Blend2D $version installed in $root; build with PKG_CONFIG_PATH=$root"
