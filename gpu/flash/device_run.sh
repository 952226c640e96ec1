#!/usr/bin/env bash
# The FlashAttention and quack checks on an SM90 GPU machine that has python3 with torch and no
# network: the CuTe DSL, flash-attn-4, quack and their Python dependencies arrive as wheels
# (stage_wheels.sh makes them), installed into one folder with pip --no-index --no-deps.
#
#   device_run.sh stash PART1             keep the first part of the split DSL library wheel
#                                         (/tmp, for the next step on the same machine)
#   device_run.sh install WHEEL_DIR       join the parts (checked against WHEEL_DIR/SHA256SUMS),
#                                         install every wheel into $SITE
#   device_run.sh flash|controls|memcheck|quack|placement OUT [options]
#                                         run flash_check.py --part main|controls|memcheck,
#                                         quack_check.py or placement.py with PYTHONPATH set,
#                                         output into OUT (options: flash_check.py's or
#                                         placement.py's)
#   device_run.sh placement-backward OUT [options]
#                                         placement.py --backward into OUT/placement_backward.json.gz
#   device_run.sh placement-stores OUT [options]
#                                         placement.py --stores (the forward's O TMA store) into
#                                         OUT/placement_stores.json.gz
#   device_run.sh placement-backward-stores OUT [options]
#                                         placement.py --backward --stores (dK, dV) into
#                                         OUT/placement_backward_stores.json.gz
#   device_run.sh one CONFIG OUT          flash_check.py --one CONFIG
# Exit: the step's status; 64 for a bad command line.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SITE=${SITE:-/tmp/flash-site}
PARTS=/tmp/flash-wheel-parts

env_path() {
  export PYTHONPATH="$SITE:$SITE/nvidia_cutlass_dsl/python_packages:$SITE/nvidia_cutlass_dsl/dsl_packages"
  export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 QUACK_CACHE_ENABLED=0
}

case "${1:-}" in
  stash)
    [ $# -eq 2 ] || { echo "usage: device_run.sh stash PART1" >&2; exit 64; }
    mkdir -p "$PARTS" && cp "$2" "$PARTS/" && ls -l "$PARTS" ;;
  install)
    [ $# -eq 2 ] || { echo "usage: device_run.sh install WHEEL_DIR" >&2; exit 64; }
    whl=$(cd "$2" && pwd) || exit 64
    name=$(cat "$whl/SPLIT_NAME")
    cat "$PARTS"/"$name".part-* "$whl"/"$name".part-* > "/tmp/$name" || exit 1
    mkdir -p /tmp/flash-wheels && cp "$whl"/*.whl /tmp/flash-wheels/ && mv "/tmp/$name" /tmp/flash-wheels/
    (cd /tmp/flash-wheels && sha256sum -c "$whl/SHA256SUMS") || { echo "device_run: a wheel does not match its checksum" >&2; exit 1; }
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" /tmp/flash-wheels/*.whl || exit 1
    env_path
    python3 -c 'import torch, cutlass, flash_attn.cute.interface, quack; from importlib import metadata as m; print("torch", torch.__version__, torch.version.cuda, torch.cuda.get_device_name(), "| " + ", ".join(d + " " + m.version(d) for d in ("nvidia-cutlass-dsl", "flash-attn-4", "quack-kernels", "apache-tvm-ffi", "torch-c-dlpack-ext")))' ;;
  flash|controls|memcheck)
    [ $# -ge 2 ] || { echo "usage: device_run.sh $1 OUT [flash_check.py options]" >&2; exit 64; }
    env_path
    part=$1; [ "$part" = flash ] && part=main
    out=$2; shift 2
    python3 "$HERE/flash_check.py" --out "$out" --part "$part" "$@" ;;
  quack)
    [ $# -eq 2 ] || { echo "usage: device_run.sh quack OUT" >&2; exit 64; }
    env_path
    python3 "$HERE/quack_check.py" --out "$2" ;;
  placement)
    [ $# -ge 2 ] || { echo "usage: device_run.sh placement OUT [placement.py options]" >&2; exit 64; }
    env_path
    out=$2; shift 2
    mkdir -p "$out" && python3 "$HERE/placement.py" --out "$out/placement.json.gz" "$@" ;;
  placement-backward)
    [ $# -ge 2 ] || { echo "usage: device_run.sh placement-backward OUT [placement.py options]" >&2; exit 64; }
    env_path
    out=$2; shift 2
    mkdir -p "$out" && python3 "$HERE/placement.py" --backward --out "$out/placement_backward.json.gz" "$@" ;;
  placement-stores|placement-backward-stores)
    [ $# -ge 2 ] || { echo "usage: device_run.sh $1 OUT [placement.py options]" >&2; exit 64; }
    env_path
    step=$1 out=$2; shift 2
    if [ "$step" = placement-stores ]; then
      mkdir -p "$out" && python3 "$HERE/placement.py" --stores --out "$out/placement_stores.json.gz" "$@"
    else
      mkdir -p "$out" && python3 "$HERE/placement.py" --backward --stores --out "$out/placement_backward_stores.json.gz" "$@"
    fi ;;
  one)
    [ $# -eq 3 ] || { echo "usage: device_run.sh one CONFIG OUT" >&2; exit 64; }
    env_path
    python3 "$HERE/flash_check.py" --out "$3" --one "$2" ;;
  *)
    grep '^#' "$0" | sed -n '2,24p' >&2; exit 64 ;;
esac
