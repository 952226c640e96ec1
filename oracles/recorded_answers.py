"""CuTe C++'s recorded answers: the output of a compiled CuTe program on its input, kept so that
a run need not compile the program again to know what CuTe answers.

A compiled program's output is a function of four things: the compiler, the headers it
includes, its own source and its input. `fingerprint` hashes the first two (the compiler's
version and the contents, not the paths, of every header the program includes, as the compiler
itself lists them), and a recorded answer is keyed by that fingerprint with the program's source
and input. Another wheel, another CUDA header, another compiler, another case or another verdict
of the model (which decides the operations a program runs) is another key: the program is
compiled and run as if nothing were recorded.

A recording is only as good as the check that it is CuTe's: each run compiles a few recorded
programs again (`verification_sample`) and fails if their output differs from the recording by
a byte. Regenerating the recording is one command (oracles/README.md, "Recorded answers").
"""

import argparse
import hashlib
import json
import lzma
import os
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

# A program's output: its result lines, and its traps as (input line, op index, exit status).
Answers = Tuple[List[str], List[Tuple[str, int, int]]]


def _included_files(cxx: str, flags: Sequence[str], source_text: str) -> List[str]:
    """The files a source includes, in the order the compiler lists them (`-M`: system
    headers too). Raises RuntimeError with the compiler's message when it cannot list them."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "fingerprint.cpp")
        with open(src, "w") as f:
            f.write(source_text)
        r = subprocess.run([cxx, *flags, "-M", src], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"listing the headers of a CuTe program failed:\n{r.stderr[-4000:]}")
    words = r.stdout.replace("\\\n", " ").split()
    # "fingerprint.o: fingerprint.cpp header header ..."
    return [w for w in words[1:] if not w.endswith("fingerprint.cpp")]


def preprocessor_directives(source_text: str) -> str:
    """The source's preprocessor directives (with their continuation lines), nothing else: what
    decides which files it includes (other lines cannot change a condition)."""
    kept, continued = [], False
    for line in source_text.splitlines():
        if continued or line.lstrip().startswith("#"):
            kept.append(line)
            continued = line.endswith("\\")
    return "\n".join(kept) + "\n"


def fingerprint(cxx: str, semantic_flags: Sequence[str], include_flags: Sequence[str], source_text: str) -> str:
    """sha256 of the compiler's version, the flags that can change a program's meaning
    (`semantic_flags`: language standard, optimisation; not the include paths, which differ
    from one checkout to another) and the contents of every file `source_text` includes."""
    h = hashlib.sha256()
    version = subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()
    h.update(("\n".join(version[:1]) + "\n" + " ".join(semantic_flags) + "\n").encode())
    files = _included_files(cxx, list(semantic_flags) + list(include_flags), preprocessor_directives(source_text))
    if not files:
        raise RuntimeError("the compiler listed no header for a CuTe program")
    for path in files:
        with open(path, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def answer_key(fingerprint_hex: str, source_text: str, input_lines: Sequence[str]) -> str:
    h = hashlib.sha256()
    for part in (fingerprint_hex, source_text, "\n".join(input_lines)):
        h.update(hashlib.sha256(part.encode()).digest())
    return h.hexdigest()


class Recording:
    """Recorded answers by key, read from and written to one xz-compressed JSON file ("" for
    none; a path that does not exist is an error, not an empty recording) (xz, not
    gzip: CuTe's printed layouts repeat over long distances, and xz's window finds them)."""

    def __init__(self, path: str):
        self.path = path
        self.answers: Dict[str, Answers] = {}
        if path:
            if not os.path.exists(path):
                raise RuntimeError(f"the recording {path} does not exist (write it with --record)")
            with lzma.open(path, "rt") as f:
                data = json.load(f)
            for key, entry in data["answers"].items():
                self.answers[key] = (list(entry["out"]), [tuple(t) for t in entry["traps"]])

    def get(self, key: str) -> Optional[Answers]:
        return self.answers.get(key)


def write_recording(path: str, answers: Dict[str, Answers], about: str) -> None:
    """Writes exactly `answers` to `path` (keys sorted, so that equal recordings are equal files)."""
    data = {"about": about,
            "answers": {k: {"out": out, "traps": [list(t) for t in traps]}
                        for k, (out, traps) in sorted(answers.items())}}
    tmp = path + ".tmp"
    # xz stores no name or time: the same answers give the same bytes.
    with lzma.open(tmp, "wb", preset=9 | lzma.PRESET_EXTREME) as f:
        f.write(json.dumps(data, indent=0, sort_keys=True).encode())
    os.replace(tmp, path)


def verification_sample(keys: Sequence[str], count: int, seed: str) -> List[str]:
    """`count` of the recorded keys (all when count < 0), chosen by a hash of the seed and the
    key: reproducible for one seed, another sample for another."""
    ordered = sorted(keys, key=lambda k: hashlib.sha256(f"{seed}:{k}".encode()).hexdigest())
    return ordered if count < 0 else ordered[:count]


def selected_one_in(seed: str, name: str, period: int) -> bool:
    """Whether `seed` selects the program `name` for verification: for one seed in about `period`
    (1: every seed), by a hash of the seed and the name. For a recording of a single program,
    which `verification_sample` would either always or never choose. Pre: period >= 1."""
    if period < 1:
        raise ValueError(f"a verification period must be >= 1, not {period}")
    return int(hashlib.sha256(f"{seed}:{name}".encode()).hexdigest(), 16) % period == 0


def _shown(x, limit: int = 400) -> str:
    """repr(x), cut to `limit` characters (a DSL answer can hold thousands of values)."""
    r = repr(x)
    return r if len(r) <= limit else r[:limit] + f"... ({len(r)} characters)"


def first_difference(recorded: Answers, live: Answers, oracle: str = "CuTe C++") -> Optional[str]:
    """None when the two outputs are equal; else where they first differ, in words (`oracle`
    names who answered now)."""
    (r_out, r_traps), (l_out, l_traps) = recorded, live
    for i in range(max(len(r_out), len(l_out))):
        a = r_out[i] if i < len(r_out) else "<none>"
        b = l_out[i] if i < len(l_out) else "<none>"
        if a != b:
            return f"line {i + 1}: recorded {_shown(a)}, {oracle} now {_shown(b)}"
    if [tuple(t) for t in r_traps] != [tuple(t) for t in l_traps]:
        return f"traps: recorded {_shown(r_traps)}, {oracle} now {_shown(l_traps)}"
    return None


def contents_fingerprint(labels: Sequence[str], files: Sequence[str], base: str) -> str:
    """sha256 of some labels (versions, settings) and of the contents of `files`, each named by
    its path relative to `base` (so that another checkout or install folder with the same
    files gives the same fingerprint). For an oracle that is not compiled (the CuTe DSL): what
    its answers depend on is the files it is made of. Raises OSError for a missing file."""
    h = hashlib.sha256()
    for label in labels:
        h.update(hashlib.sha256(label.encode()).digest())
    for path in sorted(files, key=lambda p: os.path.relpath(p, base)):
        h.update(hashlib.sha256(os.path.relpath(path, base).encode()).digest())
        with open(path, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


@dataclass
class Sourced:
    """What recorded_or_live found: every program's answers and where each came from."""
    answers: Dict[str, Answers]
    errors: List[str]      # "NAME: where the recording differs from the oracle now"
    recorded: List[str]    # names whose key is in the recording (the verified ones too)
    verified: List[str]    # recorded names computed again and compared byte for byte
    live: List[str]        # names computed now: not recorded, verified, or everything when recording
    absent: List[str]      # names whose key is not in the recording (empty when none is read)


def recorded_or_live(keys: Dict[str, str], compute: Callable[[List[str]], Dict[str, Answers]],
                     recording: str, verify: int, seed: str, record: str = "", about: str = "",
                     oracle: str = "CuTe C++") -> Sourced:
    """The answers of named programs (name -> key, in the order they are wanted): from the
    recording file `recording` where it holds their key ("" for none), else computed now by
    `compute(names)` (name -> answers; all at once, so that it can share the work).
    `verify` of the recorded names (-1: all; chosen by `seed`) are computed too, and each
    byte of difference from the recording is an error naming `oracle`. With `record`, every
    name is computed and the answers are written there (and nothing is read)."""
    store = Recording("" if record else recording)
    in_store = {keys[n]: n for n in keys if store.get(keys[n]) is not None}
    verified = [in_store[k] for k in verification_sample(list(in_store), verify, seed)]
    live = [n for n in keys if keys[n] not in in_store or n in verified]
    computed = compute(live)
    answers, errors = {}, []
    for n in keys:
        if n in computed:
            answers[n] = computed[n]
            if n in verified:
                difference = first_difference(store.get(keys[n]), answers[n], oracle)
                if difference:
                    errors.append(f"{n}: {difference}")
        else:
            answers[n] = store.get(keys[n])
    if record:
        write_recording(record, {keys[n]: answers[n] for n in keys}, about)
    absent = [n for n in keys if keys[n] not in in_store] if recording and not record else []
    return Sourced(answers, errors, [n for n in keys if keys[n] in in_store], verified, live, absent)


def stale_note(absent: Sequence[str], what: str) -> str:
    """The summary's words for recorded answers that are missing (empty when none is)."""
    if not absent:
        return ""
    named = ", ".join(absent) if len(absent) <= 8 else f"{', '.join(absent[:8])}, ..."
    return (f"; {len(absent)} not in the recording ({named}): another {what} than recorded; with the "
            f"test's own arguments the recording is stale, regenerate it (oracles/README.md, \"Recorded answers\")")


def source_commit(directory: str) -> str:
    """The checkout's commit (the default verification seed), or "0" outside a git checkout."""
    r = subprocess.run(["git", "-C", directory, "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else "0"


def verification_seed(args: argparse.Namespace, directory: str) -> str:
    """The seed that chooses what a run verifies: --verify-seed where given, else the commit of
    the checkout holding `directory` (add_recording_arguments' default)."""
    return args.verify_seed if args.verify_seed is not None else source_commit(directory)


def add_recording_arguments(parser: argparse.ArgumentParser, default_file: str, unit: str,
                            verify_count: Optional[int] = None, verify_every: Optional[int] = None) -> None:
    """The options of a test driver whose CuTe answers are recorded: --recording, --no-recording,
    --record, --verify-seed, and how much of the recording each run compiles again:
    --verify-recorded N (N recorded units, the driver's many programs) or --verify-every N (one
    seed in N, a recording of a single program). `unit` names what is compiled ("TU", "unit",
    "program"). Pre: exactly one of verify_count and verify_every is given."""
    if (verify_count is None) == (verify_every is None):
        raise ValueError("add_recording_arguments: give exactly one of verify_count and verify_every")
    parser.add_argument("--recording", default=default_file,
                        help=f"CuTe C++'s recorded answers (recorded_answers.py): a {unit} whose answers are "
                             "recorded for this compiler, these headers, this source and this input is not compiled")
    if verify_count is not None:
        parser.add_argument("--verify-recorded", type=int, default=verify_count,
                            help=f"how many recorded {unit}s are compiled and run again and must give the "
                                 "recorded answers byte for byte (-1: all)")
        seed_help = f"chooses those {unit}s (default: the checkout's commit, so each commit checks another sample)"
    else:
        parser.add_argument("--verify-every", type=int, default=verify_every,
                            help="a recorded output is compiled and run anyway, and must be the recorded one "
                                 "byte for byte, for one verification seed in this many (1: every run)")
        seed_help = "decides whether this run verifies (default: the checkout's commit)"
    parser.add_argument("--verify-seed", default=None, help=seed_help)
    parser.add_argument("--no-recording", action="store_true", help=f"compile every {unit}")
    parser.add_argument("--record", default="",
                        help=f"compile every {unit} and write their answers to this file (then --recording)")


def add_more_recording_arguments(parser: argparse.ArgumentParser, prefix: str, default_file: str, whose: str,
                                 unit: str, verify_count: int) -> None:
    """A second recording of the same driver (another oracle's answers), beside those of
    add_recording_arguments, whose --no-recording and --verify-seed it shares: --PREFIX-recording,
    --PREFIX-record and --PREFIX-verify-recorded (default None: `verify_count`, or every
    recorded `unit` when --verify-recorded is -1)."""
    parser.add_argument(f"--{prefix}-recording", default=default_file,
                        help=f"{whose} recorded answers (recorded_answers.py): a {unit} whose answers are recorded "
                             f"for these files and this input is not asked again (--no-recording: none is read)")
    parser.add_argument(f"--{prefix}-verify-recorded", type=int, default=None,
                        help=f"how many recorded {unit}s are asked again and must give the recorded answers "
                             f"byte for byte (-1: all; default {verify_count}, all with --verify-recorded -1)")
    parser.add_argument(f"--{prefix}-record", default="",
                        help=f"ask every {unit} and write their answers to this file (then --{prefix}-recording)")


def more_verify_count(args: argparse.Namespace, prefix: str, verify_count: int) -> int:
    """How many units of add_more_recording_arguments' recording a run verifies, as parsed."""
    given = getattr(args, f"{prefix}_verify_recorded")
    if given is not None:
        return given
    return -1 if getattr(args, "verify_recorded", None) == -1 else verify_count
