"""Every model of the zoo (bench/models/zoo.py), exported for XLA:CPU as bench/run exports it,
compiles on Kiln's cpu device to code only: `kiln bench` (made-up inputs, one run, the
optimising tier) reports no interpreted ops, except the ops listed in EXCLUDED with the reason.
Which ops the interpreter runs comes from KILN_CPU_PROFILE's interpreter steps (op and line);
the line of model.mlir tells an entry's `where` (a part of the op's text) apart. The kiln
executable is the one beside the PJRT plugin under test. KILN_PY_ZOO_SIZES=small limits the
sizes."""
import os
import re
import subprocess

import pytest

SIZES = os.environ.get("KILN_PY_ZOO_SIZES", "small,large").split(",")

# (op, where, reason): op is an op name or "*" (any); where, when not None, must occur in
# the op's line of model.mlir. The first entry that matches gives the reason.
EXCLUDED = [
]

STEP = re.compile(r"^\s+[\d.]+%\s+step \d+\s+interpreter\s+(\S+) \(line (\d+)\)", re.M)


def _models():
    import zoo_names
    return zoo_names.names(SIZES)


def _reason(op, line):
    for name, where, reason in EXCLUDED:
        if name in ("*", op) and (where is None or where in line):
            return reason
    return None


def _export(kind, size, dtype, path):
    import jax
    platforms = jax.config.jax_platforms
    import zoo  # sets jax_platforms to "cpu" for its own exports: put ours back
    jax.config.update("jax_platforms", platforms or os.environ.get("JAX_PLATFORMS"))
    flat_fn, specs, _ = zoo.build(kind, size, dtype, abstract=True)
    specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in specs]
    exported = jax.export.export(jax.jit(flat_fn), platforms=["cpu"])(*specs)
    with open(path, "w") as f:
        f.write(exported.mlir_module())


@pytest.mark.parametrize("model", _models())
def test_zoo_model_compiled(model, tmp_path):
    plugin = os.environ.get("KILN_PJRT_PLUGIN") or os.environ.get("KILN_PJRT_LIBRARY", "")
    kiln = os.path.join(os.path.dirname(os.path.abspath(plugin)), "kiln") if plugin else ""
    if not os.path.exists(kiln):
        pytest.skip(f"no kiln executable beside the plugin ('{kiln}')")
    mlir = str(tmp_path / "model.mlir")
    _export(*model, mlir)
    env = dict(os.environ, KILN_CPU_PROFILE="1", KILN_CPU_TIER="optimized", KILN_CACHE_DIR="")
    cp = subprocess.run([kiln, "bench", mlir, "--device", "cpu", "--iterations", "1", "--warmup", "0"],
                        capture_output=True, text=True, env=env, timeout=600)
    assert cp.returncode == 0, cp.stderr[-2000:]
    m = re.search(r"interpreted ops: (\d+)", cp.stdout)
    assert m, "kiln bench reports no interpreted ops: " + cp.stdout
    count = int(m.group(1))
    assert "runs whole in the interpreter" not in cp.stderr, cp.stderr[-2000:]
    lines = open(mlir).read().split("\n")
    steps = [(op, int(n)) for op, n in STEP.findall(cp.stderr)]
    assert len(steps) >= count, f"{count} interpreted ops, {len(steps)} interpreter steps listed"
    bad = [f"{op} (line {n}): {lines[n - 1].strip()[:160]}" for op, n in steps
           if not _reason(op, lines[n - 1] if 0 < n <= len(lines) else "")]
    assert not bad, "left to the interpreter, not in EXCLUDED:\n  " + "\n  ".join(bad)
