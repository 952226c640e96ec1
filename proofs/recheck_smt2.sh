#!/usr/bin/env bash
# Second-solver check: every query of every named law in SMT-LIB 2 with Z3's answers
# (`; expect: unsat`); cvc5 answers them, at most PER_QUERY ms each and PER_LAW s for one law's
# queries, and the test fails on any definite answer that differs. A query cvc5 does not answer
# within those limits is counted and named with the reason.
#
# The queries are those the law tests exported (each runs `proof_suite --law NAME --smt2-dir
# EXPORTED_DIR`): a law's file is used when it is newer than the proof suite's binary, and the
# law is run here (Z3 again) when it is not, so that Z3's work is not done twice in one test run.
# Laws are re-checked CUTEREF_RECHECK_JOBS (2) at a time; the report keeps the laws' order.
# Usage: recheck_smt2.sh PROOF_SUITE CVC5 [EXPORTED_DIR [PER_QUERY_MS [PER_LAW_S]]]
set -uo pipefail
suite="$1"; cvc5="${2:-}"; exported="${3:-}"; per_query="${4:-2000}"; per_law="${5:-40}"
if [ -z "$cvc5" ]; then
  echo "cvc5_recheck: cvc5 is not installed (./run test installs Debian's cvc5): skipping"
  exit 77
fi
# Laws whose queries cvc5 (Debian's 1.0.3) does not answer at all within PER_LAW s, its
# per-query limit notwithstanding: single large queries over 2^40-element domains and the bank
# laws. Measured 2026-11-29 (clean-clone run, 2 cores): 0 of 6, 0 of 4, 0 of 5, 0 of 1, 0 of 1,
# 0 of 1 answered, 240 s spent. They are named below and counted as not re-checked.
undecided_by_cvc5=" complement_disjoint_injective composition_huge right_inverse swizzle_128B_block smem_wavefronts_swizzled_atoms smem_wavefronts_row_major_refuted "
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
laws=$("$suite" --list) || { echo "cvc5_recheck: $suite --list failed"; exit 1; }
# Two laws at a time: the re-check runs last, alone, and one law at a time left a core idle.
jobs=${CUTEREF_RECHECK_JOBS:-2}

# One law: its report lines into $dir/$law.out, "N AGREE SLOW LATE DIFFER REUSED" into
# $dir/$law.counts (absent when the proof suite failed on it).
recheck_law() {
  local law=$1 f reused=0
  f="$exported/$law.smt2"
  if [ -n "$exported" ] && [ -f "$f" ] && [ "$f" -nt "$suite" ]; then
    reused=1
  else
    "$suite" --law "$law" --smt2-dir "$dir" > "$dir/$law.log" ||
      { cat "$dir/$law.log"; echo "cvc5_recheck: the proof suite failed on $law"; return; }
    f="$dir/$law.smt2"
    [ -f "$f" ] || { echo "  $law: exports no query"; echo "0 0 0 0 0 $reused" > "$dir/$law.counts"; return; }
  fi
  local expected got agree=0 slow=0 late=0 differ=0 i g
  mapfile -t expected < <(grep '^; expect: ' "$f" | sed 's/^; expect: //')
  mapfile -t got < <(timeout "$per_law" "$cvc5" --incremental --tlimit-per="$per_query" "$f" 2>/dev/null |
                     grep -E '^(sat|unsat|unknown)$')
  for i in "${!expected[@]}"; do
    g="${got[$i]:-none}"
    if [ "$g" = "${expected[$i]}" ]; then agree=$((agree+1))
    elif [ "$g" = "unknown" ]; then slow=$((slow+1))
    elif [ "$g" = "none" ]; then late=$((late+1))
    else differ=$((differ+1)); echo "  $law query $i: cvc5 says $g, Z3 said ${expected[$i]}"
    fi
  done
  local n=${#expected[@]}
  echo "  $law: $n queries, $agree agree$([ "$slow" -gt 0 ] && echo ", $slow without a cvc5 answer in ${per_query} ms")$([ "$late" -gt 0 ] && echo ", $late not reached within the law's ${per_law} s")"
  echo "$n $agree $slow $late $differ $reused" > "$dir/$law.counts"
}

checked=0; differ=0; undecided=0; unreached=0; total=0; skipped=0; reused=0; failed=0
running=0
for law in $laws; do
  [[ "$undecided_by_cvc5" == *" $law "* ]] && continue
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running-1)); fi
  recheck_law "$law" > "$dir/$law.out" 2>&1 &
  running=$((running+1))
done
wait
for law in $laws; do
  if [[ "$undecided_by_cvc5" == *" $law "* ]]; then
    skipped=$((skipped+1))
    echo "  $law: not re-checked (cvc5 answers none of its queries within ${per_law} s)"
    continue
  fi
  cat "$dir/$law.out"
  if [ ! -f "$dir/$law.counts" ]; then failed=$((failed+1)); continue; fi
  read -r n a s l d r < "$dir/$law.counts"
  total=$((total+n)); checked=$((checked+a)); undecided=$((undecided+s)); unreached=$((unreached+l))
  differ=$((differ+d)); reused=$((reused+r))
done
echo "cvc5_recheck: $total queries of $(( $(wc -w <<<"$laws") - skipped )) laws ($reused exported by their law tests, $jobs at a time): $checked agree, $differ differ, $undecided without a cvc5 answer within ${per_query} ms, $unreached not reached within ${per_law} s per law; $skipped laws not re-checked (listed above)"
[ "$failed" -eq 0 ] && [ "$differ" -eq 0 ] && [ "$checked" -gt 0 ]
