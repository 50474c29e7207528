"""Buffer donation (jax.jit donate_argnums) on Kiln: the plugin enables it for the platform,
the donated array is deleted after the call, its reuse is JAX's error, and results are right."""
import warnings

import numpy as np
import pytest


def test_donated_argument_is_consumed(kiln_device):
    import jax
    x = jax.device_put(np.arange(8, dtype=np.float32), kiln_device)
    y = jax.device_put(np.ones(8, dtype=np.float32), kiln_device)
    f = jax.jit(lambda a, b: a * 2 + b, donate_argnums=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "donation is not implemented for kiln" would be one
        z = f(x, y)
    np.testing.assert_array_equal(np.asarray(z), np.arange(8, dtype=np.float32) * 2 + 1)
    assert x.is_deleted() and not y.is_deleted() and not z.is_deleted()
    with pytest.raises(RuntimeError, match="deleted"):
        np.asarray(x)
    with pytest.raises(Exception, match="deleted"):
        f(x, y)


def test_donation_in_a_loop(kiln_device):
    """A training-step shape: the state donated each step, over a scan inside."""
    import jax
    import jax.numpy as jnp

    @jax.jit
    def inner(s):
        return jax.lax.scan(lambda c, _: (c * 0.5 + 1.0, c.sum()), s, None, length=4)

    step = jax.jit(lambda s: inner(s)[0], donate_argnums=0)
    s = jax.device_put(jnp.zeros((16,), jnp.float32), kiln_device)
    want = np.zeros(16, np.float32)
    for _ in range(3):
        old = s
        s = step(s)
        for _ in range(4):
            want = want * 0.5 + 1.0
        assert old.is_deleted()
    np.testing.assert_allclose(np.asarray(s), want, rtol=1e-6)


def test_undonated_argument_kept(kiln_device):
    import jax
    x = jax.device_put(np.arange(4, dtype=np.float32), kiln_device)
    z = jax.jit(lambda a: a + 1)(x)
    assert not x.is_deleted()
    np.testing.assert_array_equal(np.asarray(x), np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(z), np.arange(4, dtype=np.float32) + 1)
