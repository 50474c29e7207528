"""The first thing a user types: JAX_PLATFORMS=kiln, a jitted function, Kiln's device."""
import os
import subprocess
import sys

import numpy as np

from conftest import HERE, PLUGIN

SMOKE = ("import jax, jax.numpy as jnp; "
         "print(jax.jit(lambda x: jnp.argmax(jnp.sin(x) @ x.T, axis=1))(jnp.ones((4, 4)))); "
         "print(jax.devices()); print(jax.devices()[0].platform)")


def test_smoke_only_kiln(kiln_device):
    """JAX_PLATFORMS=kiln alone, in a fresh process: the README's one-liner."""
    env = dict(os.environ, JAX_PLATFORMS="kiln", PYTHONPATH=os.pathsep.join(sys.path))
    cp = subprocess.run([sys.executable, "-c", SMOKE], capture_output=True, text=True, env=env,
                        timeout=300, cwd=HERE)
    assert cp.returncode == 0, cp.stderr[-3000:]
    lines = cp.stdout.strip().splitlines()
    assert lines[0] == "[0 0 0 0]", cp.stdout
    assert lines[-1] == "kiln", cp.stdout


def test_default_device_is_kiln(kiln_device):
    import jax
    import jax.numpy as jnp
    assert jax.devices()[0].platform == "kiln"
    assert jax.default_backend() == "kiln"
    x = jnp.ones((4, 4))
    assert x.devices() == {kiln_device}
    y = jax.jit(lambda x: jnp.argmax(jnp.sin(x) @ x.T, axis=1))(x)
    assert y.devices() == {kiln_device}
    np.testing.assert_array_equal(np.asarray(y), np.zeros(4, np.int32))


def test_device_description(kiln_device):
    """What JAX shows of Kiln's device."""
    assert kiln_device.platform == "kiln"
    assert kiln_device.id == 0
    assert "kiln" in repr(kiln_device).lower() or kiln_device.device_kind


def test_elementwise_and_transfers(kiln_device, cpu_device):
    import jax
    import jax.numpy as jnp
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    f = jax.jit(lambda x: x * 2 + 1)
    got = f(jax.device_put(x, kiln_device))
    np.testing.assert_array_equal(np.asarray(got), x * 2 + 1)
    # between devices
    back = jax.device_put(got, cpu_device)
    np.testing.assert_array_equal(np.asarray(back), x * 2 + 1)
    for dt in (np.int32, np.float64 if jax.config.jax_enable_x64 else np.float16, np.bool_):
        a = (np.arange(6) % 3).astype(dt)
        np.testing.assert_array_equal(np.asarray(jax.device_put(a, kiln_device)), a)
    assert jnp.zeros(()).devices() == {kiln_device}


def test_package_registration_and_device_option(kiln_device):
    """The package's own registration (jax_plugins.kiln.initialize with KILN_PJRT_LIBRARY,
    no PJRT_NAMES_AND_LIBRARY_PATHS): configure(devices=...) reaches Kiln's client as the
    PJRT create option `devices`, and is what jax.devices() then shows."""
    code = ("import jax_plugins.kiln as k; k.configure(devices='interp'); import jax; "
            "d = jax.devices()[0]; print(d.platform); print(d)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PJRT_", "KILN_DEVICE"))}
    env.update(JAX_PLATFORMS="kiln", KILN_PJRT_LIBRARY=PLUGIN,
               PYTHONPATH=os.pathsep.join(sys.path))
    cp = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                        timeout=300, cwd=HERE)
    assert cp.returncode == 0, cp.stderr[-3000:]
    lines = cp.stdout.strip().splitlines()
    assert lines[0] == "kiln" and "interp" in lines[1], cp.stdout


def test_unset_platforms_keeps_cpu_default(kiln_device):
    """JAX_PLATFORMS unset: Kiln is registered below XLA:CPU (opt-in) and reachable by name."""
    code = ("import jax; print(jax.default_backend()); print(jax.devices('kiln')[0].platform)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PJRT_", "JAX_PLATFORMS"))}
    env.update(KILN_PJRT_LIBRARY=PLUGIN, PYTHONPATH=os.pathsep.join(sys.path))
    cp = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                        timeout=300, cwd=HERE)
    assert cp.returncode == 0, cp.stderr[-3000:]
    assert cp.stdout.split() == ["cpu", "kiln"], cp.stdout


def test_dump_dir(kiln_device, tmp_path):
    """KILN_PJRT_DUMP_DIR: the artifacts JAX sends are written out, and `kiln print` reads
    them (what Kiln really compiles, for bug reports and benchmarks)."""
    env = dict(os.environ, JAX_PLATFORMS="kiln", PYTHONPATH=os.pathsep.join(sys.path),
               KILN_PJRT_DUMP_DIR=str(tmp_path))
    cp = subprocess.run([sys.executable, "-c", SMOKE], capture_output=True, text=True, env=env,
                        timeout=300, cwd=HERE)
    assert cp.returncode == 0, cp.stderr[-3000:]
    dumps = sorted(p for p in os.listdir(tmp_path) if p.endswith(".mlir.bc"))
    assert dumps, os.listdir(tmp_path)
    kiln = os.path.join(os.path.dirname(PLUGIN), "kiln")
    printed = [subprocess.run([kiln, "print", os.path.join(tmp_path, d)], capture_output=True,
                              text=True, timeout=60) for d in dumps]
    assert all(p.returncode == 0 for p in printed), [p.stderr for p in printed]
    assert any("stablehlo.sine" in p.stdout for p in printed), [p.stdout for p in printed]
