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
    """jnp.linalg.eig has no lowering JAX could use on Kiln: a NotImplementedError."""
    import jax
    import jax.numpy as jnp
    with pytest.raises(NotImplementedError):
        jax.jit(jnp.linalg.eig)(jax.device_put(np.eye(3, dtype=np.float32), kiln_device))


def test_linalg_through_kiln_lowerings(kiln_device):
    """qr, eigh, svd, solve on Kiln through the package's lowering rules (no LAPACK)."""
    import jax
    import jax.numpy as jnp
    rng = np.random.default_rng(0)
    a = rng.standard_normal((6, 4)).astype(np.float32)
    s = rng.standard_normal((5, 5)).astype(np.float32)
    s = s + s.T
    ak = jax.device_put(a, kiln_device)
    q, r = jax.jit(jnp.linalg.qr)(ak)
    np.testing.assert_allclose(np.asarray(q) @ np.asarray(r), a, atol=1e-5)
    w, v = jax.jit(jnp.linalg.eigh)(jax.device_put(s, kiln_device))
    np.testing.assert_allclose(np.asarray(w), np.linalg.eigvalsh(s), atol=1e-4)
    sv = jax.jit(lambda a: jnp.linalg.svd(a, compute_uv=False))(ak)
    np.testing.assert_allclose(np.asarray(sv), np.linalg.svd(a, compute_uv=False), atol=1e-4)
    m = s + 10 * np.eye(5, dtype=np.float32)
    x = jax.jit(jnp.linalg.solve)(jax.device_put(m, kiln_device),
                                  jax.device_put(np.ones(5, np.float32), kiln_device))
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(m, np.ones(5)), rtol=1e-4)
