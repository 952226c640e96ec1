"""The environment check the GPU programs here share: torch, a CUDA device of compute
capability 9.0 and the kernels' Python modules, else exit 77 (meson's skip) with the reason.

    torch = require_sm90("flash_check", ["flash_attn.cute.interface", ...], "flash-attn-4")

Post: returns the torch module when every requirement holds; otherwise prints
`PROGRAM: skipped: REASON` and exits 77, never a traceback.
"""
import importlib
import sys


def skip(program, reason):
    print(f"{program}: skipped: {reason}")
    sys.exit(77)


def require_sm90(program, modules, what):
    """PROGRAM names the caller in the message; MODULES are imported (the first that fails is
    named); WHAT says which package provides them."""
    try:
        import torch
    except ImportError:
        skip(program, f"torch is not installed ({program} needs torch and a Hopper GPU)")
    if not torch.cuda.is_available():
        skip(program, "no CUDA device")
    cc = torch.cuda.get_device_capability()
    if cc != (9, 0):
        skip(program, f"the GPU is compute capability {cc[0]}.{cc[1]}: {program} needs 9.0")
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as e:
            skip(program, f"{what} is not importable ({name}: {e})")
    return torch
