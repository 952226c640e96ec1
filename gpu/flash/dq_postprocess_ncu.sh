#!/usr/bin/env bash
# Nsight Compute's shared-memory counts for FlashAttention's SM90 dQ postprocess kernel (bf16 head
# dim 128 causal, dq_postprocess_probe.py), as flash-attn-4 ships it (sdQ's SW128 swizzle in the
# layout over a plain pointer: element units) and with the swizzle moved onto the pointer (the
# SM100 path's construction: byte units), on the GPU machine after device_run.sh install.
#   dq_postprocess_ncu.sh OUT
# OUT gets log.txt and, for element and byte, TAG.csv (ncu's raw page), TAG_details.txt (its
# details page) and TAG_sass.csv (each profiled kernel's SASS with per-instruction counters).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SITE=${SITE:-/tmp/flash-site}
O=$1
mkdir -p "$O" /tmp/dq_probe
exec > >(tee "$O/log.txt") 2>&1
export PYTHONPATH="$SITE:$SITE/nvidia_cutlass_dsl/python_packages:$SITE/nvidia_cutlass_dsl/dsl_packages"
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 QUACK_CACHE_ENABLED=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
uname -r
ncu --version | tail -n 1
# The stmatrix-specific counters this ncu knows, from the two families of counters named below.
ncu --query-metrics > /tmp/dq_probe/metrics.txt 2>&1
extra=$(awk '{print $1}' /tmp/dq_probe/metrics.txt | sort -u \
  | grep -E '^(smsp__sass_inst_executed_op|l1tex__data_pipe_lsu_wavefronts_mem_shared_op|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op)_[a-z_]*(stsm|stmatrix)[a-z_]*$' \
  | awk '{printf ",%s.sum", $1}')
echo "stmatrix counters: ${extra:-none}"
M="launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic"
M="$M,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_ld.sum"
M="$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
M="$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
profile() {  # TAG [probe options]
  local tag=$1; shift
  local t0=$SECONDS
  # Every kernel of the forward and backward (a handful): the postprocess is picked by name afterwards.
  local r=/tmp/dq_probe/$tag
  ncu --clock-control none --target-processes all \
      --metrics "$M$extra" --section InstructionStats --section SourceCounters \
      -f -o "$r" python3 "$HERE/dq_postprocess_probe.py" "$tag" /tmp/dq_probe "$@"
  local rc=$?
  if [ ! -s "$r.ncu-rep" ] && [ -n "$extra" ]; then
    echo "[$tag] no report with the stmatrix counters; again without them"
    ncu --clock-control none --target-processes all \
        --metrics "$M" --section InstructionStats --section SourceCounters \
        -f -o "$r" python3 "$HERE/dq_postprocess_probe.py" "$tag" /tmp/dq_probe "$@"
    rc=$?
  fi
  echo "[$tag] ncu exit $rc, $((SECONDS - t0)) s"
  ncu -i "$r.ncu-rep" --csv --page raw --print-units base --print-metric-instances values > "$O/$tag.csv" || true
  python3 "$HERE/dq_postprocess_counts.py" "$O/$tag.csv" || true
  ncu -i "$r.ncu-rep" --print-units base --print-metric-instances values --page details --print-details all \
      > "$O/${tag}_details.txt" || true
  ncu -i "$r.ncu-rep" --csv --page source --print-source sass > "$O/${tag}_sass.csv" || true
  grep -iE 'STSM|STS[. ]|LDSM' "$O/${tag}_sass.csv" | head -n 20 || true
  return $rc
}
profile element
rc1=$?
p="$SITE/flash_attn/cute/flash_bwd_postprocess.py"
python3 - "$p" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = "sdQ = cute.make_tensor(cute.recast_ptr(sdQaccum.iterator, dtype=self.dtype), sdQ_layout)"
new = ("sdQ = cute.make_tensor(cute.recast_ptr(sdQaccum.iterator, sdQ_layout.inner, dtype=self.dtype), "
       "sdQ_layout.outer)")
assert s.count(old) == 1, "the SM90 sdQ line is not in this flash_bwd_postprocess.py"
open(p, "w").write(s.replace(old, new))
print("patched:", new)
PY
[ $? -eq 0 ] || exit 1
profile byte --same-as element
rc2=$?
echo "exit: element $rc1, byte $rc2"
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ]
