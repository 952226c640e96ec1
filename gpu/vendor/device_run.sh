#!/bin/bash
# The device side of the vendor-kernel runs (issue 15), for the GPU machine, where the
# project tree arrives as a copy of the main checkout: CARRY holds src.tar (this branch's tree)
# and cutlass.tar.xz (CUTLASS's include/, tools/util/include and examples/88_hopper_fmha), and optionally a prebuilt
# cuteref-gpu.xz and the DSL kernels (dsl_manifest.txt and its cubins from build/gpu). Logs go to OUT.
#   device_run.sh CARRY OUT build      the harness only (a build cut short by the call's limit
#                                      resumes in the next call on the same machine)
#   device_run.sh CARRY OUT run        build, `cuteref-gpu vendor`, `cuteref-gpu all`, the binary
#                                      back, then `all` under compute-sanitizer memcheck
#   device_run.sh CARRY OUT attention  build, `cuteref-gpu attention`, `cuteref-gpu all`, the binary
#                                      back, then `attention` under compute-sanitizer memcheck and racecheck
#   device_run.sh CARRY OUT sanitize   `cuteref-gpu all` under compute-sanitizer $SAN_TOOLS
#                                      (default memcheck racecheck synccheck), $SAN_LIMIT s each
set -u
CARRY=$(cd "$1" && pwd); OUT=$2; MODE=${3:-run}
W=/tmp/cuteref
mkdir -p $W/src $W/cutlass $W/src.fresh
# A second call on the same machine (a resumed build) unpacks into src.fresh and replaces only the
# files whose bytes changed: the build keeps every object whose sources are the same.
tar xf $CARRY/src.tar -C $W/src.fresh
python3 - $W/src.fresh $W/src <<'PY'
import filecmp, os, sys
fresh, dest = sys.argv[1:3]
for d, _, files in os.walk(fresh):
    out = os.path.join(dest, os.path.relpath(d, fresh))
    os.makedirs(out, exist_ok=True)
    for f in files:
        src, dst = os.path.join(d, f), os.path.join(out, f)
        if not (os.path.exists(dst) and filecmp.cmp(src, dst, shallow=False)):
            os.replace(src, dst)
            os.utime(dst)  # newer than any object built from the old bytes
PY
rm -rf $W/src.fresh
[ -d $W/cutlass/include ] || tar xJf $CARRY/cutlass.tar.xz -C $W/cutlass
nvidia-smi --query-gpu=name,driver_version,memory.total,persistence_mode --format=csv > $OUT/device.txt 2>&1
nproc >> $OUT/device.txt
BIN=$W/b/cuteref-gpu
if [ -f $CARRY/cuteref-gpu.xz ]; then
  mkdir -p $W/b && xz -dc $CARRY/cuteref-gpu.xz > $BIN && chmod +x $BIN
else
  { time python3 $W/src/gpu/vendor/device_build.py $W/src $W/b $W/cutlass -j16 -k 0 ; } > $OUT/build.log 2>&1 || { tail -50 $OUT/build.log; exit 1; }
  tail -3 $OUT/build.log
fi
# The CuTe DSL kernels (built where the DSL is, gpu/dsl/dsl_kernels.py) go beside the harness.
if [ -f $CARRY/dsl_manifest.txt ]; then cp $CARRY/dsl_manifest.txt $CARRY/*.cubin $W/b/; fi
# sanitize TOOL... : each tool over each probe of $SAN_PROBES (default all), $SAN_LIMIT s per run,
# logs appended per tool.
sanitize() {
  for tool in "$@"; do
    for probe in ${SAN_PROBES:-all}; do
      { time timeout ${SAN_LIMIT:-200} $(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer) --tool $tool \
          --target-processes all $BIN $probe ; } > $OUT/one.log 2>&1
      rc=$?
      # memcheck and synccheck close with "ERROR SUMMARY: N errors", racecheck with
      # "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
      echo "== $tool $probe rc=$rc processes: $(grep -Ec 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/one.log), with errors: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/one.log | grep -vEc 'ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards')" | tee -a $OUT/san_$tool.log
      grep -E "passed, .* failed|^real" $OUT/one.log | tail -3
      cat $OUT/one.log >> $OUT/san_$tool.log
    done
  done
  rm -f $OUT/one.log
}
case $MODE in
  build)
    ;;
  run)
    { time $BIN vendor ; } > $OUT/vendor.log 2>&1; tail -4 $OUT/vendor.log
    { time $BIN all ; } > $OUT/all.log 2>&1; grep -E "passed|real|user|sys" $OUT/all.log | tail -12
    xz -T16 -c $BIN > $OUT/cuteref-gpu.xz
    sanitize memcheck
    ;;
  attention)
    { time timeout 300 $BIN attention ; } > $OUT/attention.log 2>&1; grep -E "passed|real" $OUT/attention.log | tail -4
    { time timeout 300 $BIN all ; } > $OUT/all.log 2>&1; grep -E "passed|real|user|sys" $OUT/all.log | tail -12
    [ -f $OUT/build.log ] && xz -T16 -c $BIN > $OUT/cuteref-gpu.xz
    SAN_PROBES=attention sanitize memcheck racecheck
    ;;
  sanitize)
    [ -f $OUT/build.log ] && xz -T16 -c $BIN > $OUT/cuteref-gpu.xz
    sanitize ${SAN_TOOLS:-memcheck racecheck synccheck}
    ;;
esac
