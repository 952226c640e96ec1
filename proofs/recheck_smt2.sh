#!/usr/bin/env bash
# Second-solver check: the proof suite exports a sample of its queries (two per law) in
# SMT-LIB 2 with Z3's answers (`; expect: unsat`); cvc5 answers each and the test fails on
# any definite answer that differs. Usage: recheck_smt2.sh PROOF_SUITE CVC5
set -uo pipefail
suite="$1"; cvc5="${2:-}"
if [ -z "$cvc5" ]; then
  echo "cvc5_recheck: cvc5 is not installed (./run installs Debian's cvc5): skipping"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$suite" --smt2-dir "$dir" > "$dir/suite.log" || { cat "$dir/suite.log"; echo "cvc5_recheck: the proof suite failed"; exit 1; }
checked=0; differ=0; undecided=0
for f in "$dir"/*.smt2; do
  mapfile -t expected < <(grep '^; expect: ' "$f" | sed 's/^; expect: //')
  mapfile -t got < <(timeout 60 "$cvc5" --incremental --tlimit-per=20000 "$f" 2>/dev/null | grep -E '^(sat|unsat|unknown)$')
  for i in "${!expected[@]}"; do
    g="${got[$i]:-none}"
    if [ "$g" = "${expected[$i]}" ]; then checked=$((checked+1))
    elif [ "$g" = "unknown" ] || [ "$g" = "none" ]; then undecided=$((undecided+1)); echo "  $(basename "$f") query $i: cvc5 gave no answer (Z3: ${expected[$i]})"
    else differ=$((differ+1)); echo "  $(basename "$f") query $i: cvc5 says $g, Z3 said ${expected[$i]}"
    fi
  done
done
echo "cvc5_recheck: $checked queries agree, $differ differ, $undecided without a cvc5 answer"
[ "$differ" -eq 0 ] && [ "$checked" -gt 0 ]
