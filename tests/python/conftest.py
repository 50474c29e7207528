"""Python tests of Kiln as a JAX device (tests/python/run.sh starts them from ctest).

They test the tree: the build's libkiln_pjrt.so (KILN_PJRT_PLUGIN, or KILN_PJRT_LIBRARY) is
registered through PJRT_NAMES_AND_LIBRARY_PATHS, and the package's Python side (python/
jax_plugins/kiln: the lowering rules) is imported from the source tree. JAX runs with
JAX_PLATFORMS=kiln,cpu: Kiln is the default device, XLA:CPU beside it for the references.
All of this is set before JAX is imported."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLUGIN = os.environ.get("KILN_PJRT_PLUGIN") or os.environ.get("KILN_PJRT_LIBRARY", "")

if PLUGIN:
    os.environ["PJRT_NAMES_AND_LIBRARY_PATHS"] = "kiln:" + os.path.abspath(PLUGIN)
os.environ.setdefault("JAX_PLATFORMS", "kiln,cpu")
sys.path.insert(0, os.path.join(ROOT, "python"))         # jax_plugins.kiln (namespace package)
sys.path.insert(0, os.path.join(ROOT, "bench", "models"))  # zoo.py

import pytest  # noqa: E402


def pytest_report_header(config):
    return [f"kiln plugin: {PLUGIN or '(none: set KILN_PJRT_PLUGIN)'}",
            f"JAX_PLATFORMS={os.environ.get('JAX_PLATFORMS')}"]


@pytest.fixture(scope="session")
def kiln_device():
    if not PLUGIN or not os.path.exists(PLUGIN):
        pytest.skip("no libkiln_pjrt.so (set KILN_PJRT_PLUGIN)")
    import jax
    return jax.devices("kiln")[0]


@pytest.fixture(scope="session")
def cpu_device():
    import jax
    return jax.devices("cpu")[0]
