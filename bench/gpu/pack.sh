#!/usr/bin/env bash
# Packs the polyfuse built here for a GPU machine that has CUDA but none of polyfuse's
# build dependencies: the binary and every shared library it needs beyond the C and C++
# runtimes, with a RUNPATH of $ORIGIN so that the loader finds them there and nothing
# leaks into the environment of the tools polyfuse starts (nvcc's host compiler loads its
# own isl and gmp). Writes .gpu/ (ignored by git); session.sh links it as build/bin/polyfuse.
# Usage (repository root, after make build): bench/gpu/pack.sh
set -euo pipefail
command -v patchelf > /dev/null || apt-get install -y -q patchelf > /dev/null
rm -rf .gpu && mkdir -p .gpu/bin .gpu/lib
cp build/bin/polyfuse .gpu/bin/
# The system's own: glibc's libraries, the C++ runtime and compression libraries that any
# CUDA image has (and that its other programs must keep sharing with us).
keep='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|librt\.|libpthread\.|libstdc\+\+|libgcc_s|libz\.|libbz2\.)'
ldd build/bin/polyfuse | awk '$3 ~ /^\// {print $1, $3}' | while read -r name path; do
  [[ $name =~ $keep ]] && continue
  cp -L "$path" ".gpu/lib/$name"
done
patchelf --set-rpath '$ORIGIN/../lib' .gpu/bin/polyfuse
for l in .gpu/lib/*; do patchelf --set-rpath '$ORIGIN' "$l"; done
grep -qx '/.gpu/' .git/info/exclude 2> /dev/null || echo '/.gpu/' >> .git/info/exclude
# The validation study's MiniLM layer as TC: the GPU machine has no MLIR to read linalg.
/usr/bin/python3 -c 'import sys; sys.path.insert(0, "bench"); import validation_study as v; print(v.minilm_layer(True), end="")' > .gpu/minilm_layer.mlir
build/bin/polyfuse check --tc .gpu/minilm_layer.mlir > .gpu/minilm_layer.tc
echo "packed polyfuse, $(ls .gpu/lib | wc -l) libraries and the MiniLM layer in .gpu ($(du -sh .gpu | cut -f1))"
