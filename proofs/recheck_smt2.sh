#!/usr/bin/env bash
# Second-solver check: the proof suite exports every query of every named law in SMT-LIB 2
# with Z3's answers (`; expect: unsat`); cvc5 answers them, at most PER_QUERY ms each and
# PER_LAW s for one law's queries, and the test fails on any definite answer that differs.
# A query cvc5 does not answer within those limits is counted and named with the reason.
# Usage: recheck_smt2.sh PROOF_SUITE CVC5 [PER_QUERY_MS [PER_LAW_S]]
set -uo pipefail
suite="$1"; cvc5="${2:-}"; per_query="${3:-2000}"; per_law="${4:-40}"
if [ -z "$cvc5" ]; then
  echo "cvc5_recheck: cvc5 is not installed (./run test installs Debian's cvc5): skipping"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$suite" --smt2-dir "$dir" > "$dir/suite.log" || { cat "$dir/suite.log"; echo "cvc5_recheck: the proof suite failed"; exit 1; }
checked=0; differ=0; undecided=0; unreached=0; total=0
for f in "$dir"/*.smt2; do
  law=$(basename "$f" .smt2)
  mapfile -t expected < <(grep '^; expect: ' "$f" | sed 's/^; expect: //')
  mapfile -t got < <(timeout "$per_law" "$cvc5" --incremental --tlimit-per="$per_query" "$f" 2>/dev/null |
                     grep -E '^(sat|unsat|unknown)$')
  agree=0; slow=0; late=0
  for i in "${!expected[@]}"; do
    g="${got[$i]:-none}"
    if [ "$g" = "${expected[$i]}" ]; then agree=$((agree+1))
    elif [ "$g" = "unknown" ]; then slow=$((slow+1))
    elif [ "$g" = "none" ]; then late=$((late+1))
    else differ=$((differ+1)); echo "  $law query $i: cvc5 says $g, Z3 said ${expected[$i]}"
    fi
  done
  n=${#expected[@]}
  total=$((total+n)); checked=$((checked+agree)); undecided=$((undecided+slow)); unreached=$((unreached+late))
  echo "  $law: $n queries, $agree agree$([ "$slow" -gt 0 ] && echo ", $slow without a cvc5 answer in ${per_query} ms")$([ "$late" -gt 0 ] && echo ", $late not reached within the law's ${per_law} s")"
done
echo "cvc5_recheck: $total queries: $checked agree, $differ differ, $undecided without a cvc5 answer within ${per_query} ms, $unreached not reached within ${per_law} s per law"
[ "$differ" -eq 0 ] && [ "$checked" -gt 0 ]
