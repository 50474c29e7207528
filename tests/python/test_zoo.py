"""Every model of the zoo (bench/models/zoo.py) through jax.jit on Kiln against XLA:CPU, in one
process, within the zoo's tolerances (max|kiln - xla| <= atol + rtol * max|xla| per result;
integers exactly). KILN_PY_ZOO_SIZES=small limits the sizes."""
import os

import numpy as np
import pytest

SIZES = os.environ.get("KILN_PY_ZOO_SIZES", "small,large").split(",")


def _zoo():
    import jax
    platforms = jax.config.jax_platforms
    import zoo  # sets jax_platforms to "cpu" for its own exports: put ours back
    jax.config.update("jax_platforms", platforms or os.environ.get("JAX_PLATFORMS"))
    return zoo


def _models():
    import zoo_names
    return zoo_names.names(SIZES)


def _close(got, ref, rtol, atol):
    if got.shape != ref.shape or got.dtype != ref.dtype:
        return f"shape/dtype {got.shape} {got.dtype}, expected {ref.shape} {ref.dtype}"
    if ref.dtype.kind in "iub":
        bad = int(np.sum(got != ref))
        return f"{bad} of {ref.size} integers differ" if bad else None
    r = ref.astype(np.float64)
    g = got.astype(np.float64)
    if not np.array_equal(np.isfinite(g), np.isfinite(r)):
        return "non-finite values differ"
    scale = float(np.max(np.abs(r[np.isfinite(r)]), initial=0.0))
    err = float(np.max(np.abs(np.where(np.isfinite(r), g - r, 0.0)), initial=0.0))
    tol = atol + rtol * scale
    return f"max error {err:.3g} > tolerance {tol:.3g}" if err > tol else None


@pytest.mark.parametrize("model", _models())
def test_zoo_model(model, kiln_device, cpu_device):
    import jax
    zoo = _zoo()
    kind, size, dtype = model
    with jax.default_device(cpu_device):
        flat_fn, inputs, _ = zoo.build(kind, size, dtype)
    rtol, atol = zoo.tolerance(kind, dtype)
    f = jax.jit(flat_fn)
    ref = f(*[jax.device_put(a, cpu_device) for a in inputs])
    got = f(*[jax.device_put(a, kiln_device) for a in inputs])
    assert all(o.devices() == {kiln_device} for o in got)
    assert all(o.devices() == {cpu_device} for o in ref)
    assert len(got) == len(ref)
    errors = [f"result {i}: {e}" for i, (g, r) in enumerate(zip(got, ref))
              if (e := _close(np.asarray(g), np.asarray(r), rtol, atol))]
    assert not errors, "; ".join(errors)
