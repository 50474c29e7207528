"""Several Kiln devices in one process (KILN_CPU_DEVICES=4, set before JAX starts; ctest runs
this file on its own): jax.devices() lists 4 Kiln devices with ids 0..3 and process index 0,
each with one memory; device_put and jit place arrays and programs on a chosen device and give
XLA:CPU's results there. Programs sharded over the devices: test_sharded.py."""
import os

os.environ["KILN_CPU_DEVICES"] = "4"  # read when JAX makes Kiln's client

import numpy as np  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(scope="module")
def kiln_devices(kiln_device):
    import jax
    devs = jax.devices("kiln")
    assert len(devs) == 4, (f"{len(devs)} Kiln devices: JAX made its Kiln client before this module set "
                            "KILN_CPU_DEVICES=4 (run this file in a pytest process of its own)")
    return devs


def test_listing(kiln_devices):
    assert [d.id for d in kiln_devices] == [0, 1, 2, 3]
    assert {d.process_index for d in kiln_devices} == {0}
    assert {d.platform for d in kiln_devices} == {"kiln"}
    for d in kiln_devices:
        assert d.device_kind == "cpu"
        assert str(d) == f"cpu:{d.id}" and "one of 4 devices" in repr(d)
        mems = d.addressable_memories()
        assert len(mems) == 1 and mems[0] == d.default_memory() and mems[0].kind == "device"
    import jax
    assert jax.local_devices(backend="kiln") == kiln_devices


def test_put_and_jit_on_one_device(kiln_devices, cpu_device):
    import jax
    import jax.numpy as jnp

    def f(x, w):
        return jnp.tanh(x @ w).sum(axis=1) * 2 + 1

    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 32)).astype(np.float32)
    w = rng.standard_normal((32, 8)).astype(np.float32)
    want = np.asarray(jax.jit(f)(jax.device_put(x, cpu_device), jax.device_put(w, cpu_device)))
    for d in (kiln_devices[2], kiln_devices[3], kiln_devices[0]):
        xd, wd = jax.device_put(x, d), jax.device_put(w, d)
        assert xd.devices() == {d}
        got = jax.jit(f)(xd, wd)
        assert got.devices() == {d}
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)
    # moved from device 2 to device 1: the next run is on device 1
    y = jax.device_put(jax.device_put(x, kiln_devices[2]), kiln_devices[1])
    assert y.devices() == {kiln_devices[1]}
    assert jax.jit(lambda a: a + 1)(y).devices() == {kiln_devices[1]}
