"""A pytest plugin for running JAX's own tests on Kiln (python/run_jax_tests.py loads it with
`-p kiln_jax_pytest`): sets JAX's `jax_test_dut` flag, which has no environment variable and
which JAX's test files read from `--jax_test_dut` on their own command line only, in every
process (xdist workers included), before any test runs."""
import os


def pytest_configure(config):
    dut = os.environ.get("KILN_JAX_TEST_DUT", "")
    if dut:
        import jax
        from jax._src import test_util  # noqa: F401  (defines the flag)
        jax.config.update("jax_test_dut", dut)
