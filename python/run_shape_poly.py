#!/usr/bin/env python3
"""Runs JAX's own shape-polymorphism harnesses on Kiln: programs Kiln's authors did not write.

    python/run_shape_poly.py JAX_CHECKOUT [--kiln build/kiln] [--devices cpu,interp]
                             [--only SUBSTRING] [--out DIR] [--python PY]

JAX_CHECKOUT holds jax-ml/jax at tag jax-v0.10.2 (its tests/, as for run_jax_tests.py). Every
harness of its tests/shape_poly_test.py (`_POLY_SHAPE_TEST_HARNESSES`, flattened, about 350:
each a function, its arguments and their polymorphic shapes, such as "b, ..." or "(b, 2*b)")
is exported as ShapePolyHarnessesTest does it, with jax.export and symbolic shapes, for the
cpu platform; the shape-polymorphic StableHLO module (`Exported.mlir_module()`: `?`
dimensions, dimension variables computed from the inputs' shapes, shape assertions) is run
by `kiln run` on each device of --devices with the harness's own concrete arguments, and
its results are compared with JAX's on XLA:CPU (jax.jit of the same function on the same
arguments) within the harness's tolerance, or JAX's default for the dtype when larger, relative
to each element and, as absolute error, to the result's largest magnitude;
harnesses whose results are not unique (eigenvectors, ...) use their own custom_assert.

Harnesses that expect an error from JAX's export, or that JAX skips on CPU, are not run.
Written to --out (default: shape_poly/ in the working directory): per harness a folder with
its module, inputs and Kiln's results; summary.tsv (harness, device, outcome, detail) and the table printed at
the end. Exit status 0 when the runs finished (failures are results), 2 on a setup problem.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from run_jax_tests import default_python  # noqa: E402  (the same Python as JAX's test runs)

# ShapePolyHarnessesTest's own skips that apply on CPU (its test_harness), by name.
SKIP_GROUPS = {"vmap_eigh", "vmap_tan", "vmap_conv_general_dilated"}
SKIP_NAMES = {"cumsum_reduce_axis_poly", "cumprod_reduce_axis_poly", "cummin_reduce_axis_poly",
              "cummax_reduce_axis_poly", "cumlogsumexp_reduce_axis_poly", "jnp_insert_insert_constant",
              "jnp_insert_insert_poly", "jnp_nonzero_size_constant", "jnp_nonzero_size_poly"}
DEFAULT_TOL = {"float16": 1e-3, "bfloat16": 1e-2, "float32": 1e-5, "float64": 1e-12,
               "complex64": 1e-5, "complex128": 1e-12}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("jax_checkout")
    ap.add_argument("--kiln", default=os.path.join(ROOT, "build", "kiln"))
    ap.add_argument("--devices", default="cpu,interp")
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="shape_poly")
    ap.add_argument("--python", default=default_python())
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if not a.worker:  # the harnesses need JAX's test tree on the path and XLA:CPU as JAX's device
        env = dict(os.environ, JAX_PLATFORMS="cpu", JAX_ENABLE_X64="0",
                   PYTHONPATH=os.path.join(a.jax_checkout, "tests") + os.pathsep + a.jax_checkout)
        if not os.path.exists(os.path.join(a.jax_checkout, "tests", "shape_poly_test.py")):
            sys.exit(f"run_shape_poly.py: no tests/shape_poly_test.py in {a.jax_checkout}")
        if not os.path.exists(a.kiln):
            sys.exit(f"run_shape_poly.py: no Kiln CLI at {a.kiln} (build it, or give --kiln)")
        cmd = [a.python, os.path.abspath(__file__), "--worker"] + sys.argv[1:]
        sys.exit(subprocess.call(cmd, env=env))
    worker(a)


def flatten(harnesses):
    out = []
    for h in harnesses:
        out.extend(flatten(h) if isinstance(h, (list, tuple)) else [h])
    return out


def tolerance(h, dtype):
    tol = DEFAULT_TOL.get(str(dtype), 0.0)
    if h.tol is not None:
        tol = max(tol, h.tol)
    elif h.limitations:
        lim = h.limitations[0].get_max_tolerance_limitation(h.limitations)
        if lim is not None and lim.tol is not None:
            tol = max(tol, lim.tol)
    return tol


def worker(a):
    import numpy as np
    import jax
    import jax.numpy as jnp
    from jax import export
    from jax._src import test_util as jtu
    import shape_poly_test as spt

    class Case(jtu.JaxTestCase):  # for the harnesses' own assertions (custom_assert)
        def runTest(self):
            pass

    tst = Case()
    devices = [d for d in a.devices.split(",") if d]
    os.makedirs(a.out, exist_ok=True)
    rows, counts = [], {}
    harnesses = [h for h in flatten(spt._POLY_SHAPE_TEST_HARNESSES) if a.only in h.fullname]
    for h in harnesses:
        name = h.fullname
        if h.expect_error is not None or h.group_name in SKIP_GROUPS or name in SKIP_NAMES or \
                ("fft_fft_type" in name and "nr_fft_lengths_2" in name):
            continue
        d = os.path.join(a.out, "%03d_%s" % (len(rows), name.replace("/", "_")[:80]))
        os.makedirs(d, exist_ok=True)
        tst._rng = np.random.RandomState(len(rows))  # what JaxTestCase.setUp makes, seeded per harness
        try:
            with jtu.thread_local_config_context(**h.override_jax_config_flags):
                f = jax.jit(h.dyn_fun)
                args = jax.tree.map(jnp.array, h.dyn_args_maker(tst.rng()))
                specs = export.symbolic_args_specs(args, h.polymorphic_shapes,
                                                   constraints=h.symbolic_constraints)
                exp = export.export(f, platforms=("cpu",))(*specs)
                want = jax.tree.leaves(f(*args)) if h.check_result else None
                want_tree = f(*args) if h.check_result else None
        except Exception as e:  # JAX itself cannot export or run it here: not Kiln's result
            rows.append((name, "-", "jax-error", str(e).splitlines()[0][:200] if str(e) else type(e).__name__))
            continue
        module = os.path.join(d, "module.mlir")
        with open(module, "w") as fh:
            fh.write(exp.mlir_module())
        leaves = jax.tree.leaves(args)
        kept = sorted(exp.module_kept_var_idx)  # the export drops the arguments nothing reads
        inputs = []
        for i, x in enumerate(leaves[k] for k in kept):
            p = os.path.join(d, f"input_{i}.npy")
            np.save(p, np.asarray(x))
            inputs += ["--input", p]
        for dev in devices:
            out = os.path.join(d, "out_" + dev)
            os.makedirs(out, exist_ok=True)
            for old in os.listdir(out):
                os.unlink(os.path.join(out, old))
            r = subprocess.run([a.kiln, "run", module, *inputs, "--output-dir", out, "--device", dev],
                               capture_output=True, text=True, timeout=600)
            if r.returncode != 0:
                lines = r.stderr.strip().splitlines()
                msg = next((ln for ln in lines if "error" in ln), lines[-1] if lines else "exit %d" % r.returncode)
                rows.append((name, dev, "kiln-error", msg[:300]))
                continue
            if want is None:
                rows.append((name, dev, "ran", "results not compared (check_result=False)"))
                continue
            got = [np.load(os.path.join(out, f"result_{k}.npy")) for k in range(len(want))]
            outcome, detail = compare(h, tst, want, want_tree, got, args, np, jax)
            rows.append((name, dev, outcome, detail))
    with open(os.path.join(a.out, "summary.tsv"), "w") as fh:
        for r in rows:
            fh.write("\t".join(r) + "\n")
    for name, dev, outcome, detail in rows:
        counts.setdefault(dev, {}).setdefault(outcome, 0)
        counts[dev][outcome] += 1
        if outcome not in ("passed", "ran"):
            print(f"{outcome:10s} {dev:7s} {name}: {detail}")
    print(f"\n{len(harnesses)} harnesses; per device:")
    for dev, c in counts.items():
        print(f"  {dev}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))


def compare(h, tst, want, want_tree, got, args, np, jax):
    if len(got) != len(want):
        return "failed", f"{len(got)} results, JAX has {len(want)}"
    for k, (w, g) in enumerate(zip(want, got)):
        w = np.asarray(w)
        if w.shape != g.shape or (w.dtype != g.dtype and str(w.dtype) != "bfloat16"):
            return "failed", f"result {k}: {g.dtype}{list(g.shape)} from Kiln, {w.dtype}{list(w.shape)} from JAX"
    custom = [lim for lim in h.limitations if lim.custom_assert is not None]
    try:
        if custom:
            got_tree = jax.tree.unflatten(jax.tree.structure(want_tree), [g.astype(np.asarray(w).dtype) for w, g in zip(want, got)])
            custom[0].custom_assert(tst, want_tree, got_tree, args=args, tol=tolerance(h, np.asarray(want[0]).dtype), err_msg=None)
        else:
            for k, (w, g) in enumerate(zip(want, got)):
                w = np.asarray(w)
                tol = tolerance(h, w.dtype)
                if w.dtype.kind in "fc" or str(w.dtype) == "bfloat16":
                    wide = np.complex128 if w.dtype.kind == "c" else np.float64
                    g64, w64 = g.astype(wide), w.astype(wide)
                    # two implementations' rounding: relative to the element, and to the
                    # result's largest magnitude (sums and transforms of many terms)
                    finite = np.abs(w64[np.isfinite(w64)])
                    scale = max(1.0, float(finite.max())) if finite.size else 1.0
                    np.testing.assert_allclose(g64, w64, rtol=tol, atol=tol * scale, err_msg=f"result {k}")
                else:
                    np.testing.assert_array_equal(g, w, err_msg=f"result {k}")
    except AssertionError as e:
        return "failed", " ".join(str(e).split())[:300]
    return "passed", ""


if __name__ == "__main__":
    main()
