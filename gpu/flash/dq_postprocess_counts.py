"""Prints the shared-memory counters of the dQ postprocess kernel from Nsight Compute's pages:
the raw page (`ncu -i REPORT --csv --page raw --print-units base`) gives one block per profiled
kernel whose name contains "postprocess" (any case); the source page (`--csv --page source
--print-source sass`), when given, adds that kernel's shared-memory instructions, one line each
(executions, wavefronts, ideal wavefronts, n-way conflicts). Names are shortened.
    dq_postprocess_counts.py RAW_CSV [SASS_CSV]
Exit 1 when no such kernel is in a file."""
import csv
import sys

WANTED = ("launch__grid_size", "launch__block_size", "smsp__sass_inst_executed_op_shared_st.sum",
          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
          "smsp__sass_inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")


def is_postprocess(name):
    return "postprocess" in name.lower()


def raw_page(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    name_col = head.index("Kernel Name")
    found = 0
    print("kernels profiled:", ", ".join(r[name_col][:60] for r in rows[2:]))
    for r in rows[2:]:  # rows[1] holds the units
        if not is_postprocess(r[name_col]):
            continue
        found += 1
        print(r[name_col][:120])
        for col, value in zip(head, r):
            if col in WANTED or "stsm" in col.lower() or "stmatrix" in col.lower():
                print(f"  {col} = {value}")
    return found


def source_page(path):
    """The page holds, per kernel, a ("Kernel Name", NAME) row, then a header row, then one row
    per SASS instruction."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    found, name, head = 0, "", None
    for r in rows:
        if not r:
            continue
        if r[0] == "Kernel Name":
            name, head = r[1], None
            continue
        if r[0] == "Address":
            head = {k: i for i, k in enumerate(r)}
            if is_postprocess(name):
                found += 1
                print(f"{name[:120]}: shared-memory instructions (executed, wavefronts, ideal, n-way)")
            continue
        if head is None or not is_postprocess(name) or r[head["Address Space"]] != "Shared":
            continue
        cells = [r[head[k]] for k in ("Instructions Executed", "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal",
                                       "L1 Conflicts Shared N-Way")]
        print(f"  {r[head['Source']].strip():<40} {' '.join(c.rjust(6) for c in cells)}")
    return found


def main(argv):
    if len(argv) not in (1, 2):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 64
    ok = raw_page(argv[0]) > 0
    if len(argv) == 2:
        ok &= source_page(argv[1]) > 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
