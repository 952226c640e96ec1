#!/usr/bin/env bash
# Stages the wheels device_run.sh installs on the GPU machine (Python 3.12, manylinux x86_64)
# into DIR (give a folder git ignores), splitting the DSL's CUDA 13 library wheel (92 MB) in
# two so that each part travels in one call:
#   DIR/part1/        the wheel's first part
#   DIR/whl/          every other wheel, the second part, SPLIT_NAME and SHA256SUMS
# and copies the sources the run needs (gpu/flash, python/cuteref/dsl) into DIR/src.
#   stage_wheels.sh DIR
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: stage_wheels.sh DIR" >&2; exit 64; }
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$1
mkdir -p "$dir/download" "$dir/part1" "$dir/whl" "$dir/src/gpu/flash" "$dir/src/python/cuteref/dsl"
platforms=""
for p in manylinux_2_17 manylinux_2_24 manylinux_2_27 manylinux_2_28 manylinux_2_31 manylinux_2_34 manylinux_2_35; do
  platforms="$platforms --platform ${p}_x86_64"
done
# shellcheck disable=SC2086
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp $platforms \
  -d "$dir/download" nvidia-cutlass-dsl==4.8.1 nvidia-cutlass-dsl-libs-core==4.8.1 nvidia-cutlass-dsl-libs-base==4.8.1 \
  nvidia-cutlass-dsl-libs-cu13==4.8.1 flash-attn-4==4.0.0b36 quack-kernels==0.6.5 'apache-tvm-ffi>=0.1.11,<0.2' \
  torch-c-dlpack-ext
big=$(cd "$dir/download" && ls nvidia_cutlass_dsl_libs_cu13-*.whl)
rm -f "$dir"/part1/* "$dir"/whl/*
(cd "$dir/download" && sha256sum ./*.whl > "$dir/whl/SHA256SUMS")
split -b 46M -d "$dir/download/$big" "$dir/whl/$big.part-"
mv "$dir/whl/$big.part-00" "$dir/part1/"
echo "$big" > "$dir/whl/SPLIT_NAME"
for w in "$dir"/download/*.whl; do [ "$(basename "$w")" = "$big" ] || cp "$w" "$dir/whl/"; done
cp "$root"/gpu/flash/*.py "$root"/gpu/flash/*.sh "$dir/src/gpu/flash/"
cp "$root"/python/cuteref/dsl/*.py "$dir/src/python/cuteref/dsl/"
du -sh "$dir/part1" "$dir/whl" "$dir/src"
