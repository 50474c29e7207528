"""Errors come back as Python exceptions carrying Kiln's message, and the process lives on."""
import os
import subprocess
import sys

import numpy as np
import pytest


def test_unsupported_custom_call(kiln_device):
    """A custom call Kiln has no implementation for: compiling (not running) fails with
    Kiln's message naming the target, as an exception (not a crash), and Kiln still works
    afterwards."""
    import jax
    x = jax.device_put(np.ones(4, np.float32), kiln_device)

    def f(x):
        return jax.ffi.ffi_call("kiln_test_no_such_target",
                                jax.ShapeDtypeStruct(x.shape, x.dtype))(x)

    lowered = jax.jit(f).lower(x)
    with pytest.raises(Exception) as info:
        lowered.compile()
    message = str(info.value)
    assert "UNIMPLEMENTED" in message and "kiln_test_no_such_target" in message, message
    assert "which Kiln does not implement" in message, message
    with pytest.raises(Exception) as info:
        jax.jit(f)(x).block_until_ready()
    assert "kiln_test_no_such_target" in str(info.value), str(info.value)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda x: x + 1)(x)), np.full(4, 2.0))


def test_unsafe_buffer_pointer(kiln_device):
    """jax.Array.unsafe_buffer_pointer: the host address of the contents (cpu and interp keep
    buffers in host memory), one per buffer, stable across calls."""
    import jax
    x = jax.device_put(np.arange(4, dtype=np.float32), kiln_device)
    y = jax.jit(lambda v: v * 2)(x)
    px, py = x.unsafe_buffer_pointer(), y.unsafe_buffer_pointer()
    assert px and py and px != py
    assert x.unsafe_buffer_pointer() == px


def test_executable_fingerprint(kiln_device):
    """The compiled executable has a fingerprint: the same for the same program, another
    for another program."""
    import jax
    x = jax.device_put(np.ones(3, np.float32), kiln_device)
    fingerprint = lambda f: jax.jit(f).lower(x).compile().runtime_executable().fingerprint

    def add_one(v):
        return v + 1

    a, b, c = fingerprint(add_one), fingerprint(add_one), fingerprint(lambda v: v * 3)
    assert a and a == b and a != c, (a, b, c)


def test_bad_program_is_an_exception(kiln_device):
    """A module that does not verify (an add of mismatched shapes), sent to the client: an
    exception (jaxlib checks text itself before the plugin sees it), and Kiln works after."""
    import jax
    text = """module @bad {
  func.func public @main(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
"""
    for program in (text, b"this is not a program"):
        with pytest.raises(Exception) as info:
            kiln_device.client.compile_and_load(program, [kiln_device])
        assert str(info.value), "empty message"
    np.testing.assert_array_equal(
        np.asarray(jax.jit(lambda x: x * 3)(jax.device_put(np.ones(2, np.int32), kiln_device))),
        [3, 3])


def test_bad_device_list_is_kilns_message(kiln_device):
    """A device list naming no backend Kiln has (KILN_DEVICE): JAX cannot make the client and
    says why in Kiln's words (each name and its reason), as a Python exception."""
    code = ("import jax\n"
            "try:\n    jax.devices()\nexcept Exception as e:\n"
            "    print(type(e).__name__, e)\nelse:\n    print('no error')\n")
    env = dict(os.environ, JAX_PLATFORMS="kiln", KILN_DEVICE="nosuchdevice",
               PYTHONPATH=os.pathsep.join(sys.path))
    cp = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                        timeout=300)
    assert cp.returncode == 0, cp.stderr[-3000:]
    assert "nosuchdevice" in cp.stdout and "no error" not in cp.stdout, cp.stdout


def test_missing_lowering_is_an_exception(kiln_device):
    """jax.debug.print needs a host callback, which Kiln's plugin does not offer: JAX finds no
    lowering for it on Kiln and raises NotImplementedError, naming the primitive."""
    import jax
    import jax.numpy as jnp

    def f(x):
        jax.debug.print("x={x}", x=x)
        return x + 1
    with pytest.raises(NotImplementedError, match="debug_print"):
        jax.jit(f)(jax.device_put(jnp.ones(3), kiln_device))


def test_linalg_lowers_as_on_xla_cpu(kiln_device):
    """jax.numpy.linalg / jax.scipy.linalg on Kiln: the package registers JAX's cpu lowering
    rules for "kiln", so each function lowers to the program it lowers to for XLA:CPU (the
    same LAPACK custom calls, op for op) and gives XLA:CPU's results: eig, schur and
    hessenberg, which have no generic rule, included."""
    import jax
    import jax.numpy as jnp
    import jax.scipy.linalg as jsl
    cpu = jax.devices("cpu")[0]
    rng = np.random.default_rng(0)
    a = rng.standard_normal((6, 4)).astype(np.float32)
    g = rng.standard_normal((5, 5)).astype(np.float32)
    s = g + g.T
    spd = g @ g.T + 5 * np.eye(5, dtype=np.float32)
    cases = [("qr", jnp.linalg.qr, a), ("eigh", jnp.linalg.eigh, s),
             ("svd", lambda x: jnp.linalg.svd(x, compute_uv=False), a),
             ("eigvals", jnp.linalg.eigvals, g), ("schur", lambda x: jsl.schur(x)[0], g),
             ("hessenberg", lambda x: jsl.hessenberg(x), g), ("cholesky", jnp.linalg.cholesky, spd),
             ("solve", lambda x: jnp.linalg.solve(x, jnp.ones(5, x.dtype)), spd),
             ("inv", jnp.linalg.inv, spd), ("slogdet", lambda x: jnp.linalg.slogdet(x)[1], g)]
    for name, f, x in cases:
        on_kiln = jax.jit(f).lower(jax.device_put(x, kiln_device)).as_text()
        on_cpu = jax.jit(f).lower(jax.device_put(x, cpu)).as_text()
        assert "lapack_" in on_kiln, name
        assert on_kiln == on_cpu, name
        got = jax.jit(f)(jax.device_put(x, kiln_device))
        want = jax.jit(f)(jax.device_put(x, cpu))
        for p, q in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
            np.testing.assert_allclose(np.asarray(p), np.asarray(q), rtol=1e-4, atol=1e-4,
                                       err_msg=name)
