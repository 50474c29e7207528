"""Four Python threads calling one jitted function on Kiln at once (JAX releases the GIL during
execution and transfers, so the plugin's entry points run concurrently)."""
import threading

import numpy as np


def test_four_threads_one_function(kiln_device):
    import jax
    import jax.numpy as jnp

    @jax.jit
    def f(x, w):
        return jnp.tanh(x @ w).sum(axis=1) + jnp.max(x, axis=1)

    rng = np.random.default_rng(0)
    w = rng.standard_normal((64, 64)).astype(np.float32)
    xs = [rng.standard_normal((32, 64)).astype(np.float32) for _ in range(4)]
    want = [np.tanh(x.astype(np.float64) @ w).sum(axis=1) + x.max(axis=1) for x in xs]
    wk = jax.device_put(w, kiln_device)
    f(jax.device_put(xs[0], kiln_device), wk).block_until_ready()  # compiled once, before
    errors = []
    barrier = threading.Barrier(4)

    def worker(i):
        try:
            barrier.wait()
            for _ in range(25):
                got = np.asarray(f(jax.device_put(xs[i], kiln_device), wk))
                np.testing.assert_allclose(got, want[i], rtol=1e-4, atol=1e-4)
        except Exception as e:  # reported below, with the thread's number
            errors.append(f"thread {i}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a thread did not finish (deadlock?)"
    assert not errors, "\n".join(errors)


def test_four_threads_compiling(kiln_device):
    """Each thread compiles its own function while the others run theirs."""
    import jax
    import jax.numpy as jnp
    errors = []

    def worker(i):
        try:
            f = jax.jit(lambda x: jnp.cumsum(x * (i + 1)))
            for n in range(3, 8):
                got = np.asarray(f(jax.device_put(np.ones(n, np.float32), kiln_device)))
                np.testing.assert_array_equal(got, np.arange(1, n + 1) * (i + 1.0))
        except Exception as e:
            errors.append(f"thread {i}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, "\n".join(errors)
