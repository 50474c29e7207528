"""Sharded programs on 4 Kiln devices against XLA:CPU on 4 devices, in one process: jit with
NamedSharding (a tensor-parallel MLP, a data-parallel training step, sharding constraints,
uncommitted inputs), shard_map with every collective JAX has, pmap, and the same in JAX's
GSPMD mode. Each case runs on both
and must give XLA:CPU's values, and the shardings JAX reads back (Kiln's Shardings
extension) must be the ones it asked for, and XLA:CPU's where the program leaves them to the
compiler and Kiln keeps a value's blocks (shard_map results). Run in a pytest process of its
own (ctest does): the device counts are set before JAX starts."""
import os

os.environ["KILN_CPU_DEVICES"] = "4"  # read when JAX makes Kiln's client
os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=4"

from functools import partial  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

RNG = np.random.default_rng(7)
X = RNG.standard_normal((8, 16)).astype(np.float32)
W1 = RNG.standard_normal((16, 32)).astype(np.float32) / 4
W2 = RNG.standard_normal((32, 8)).astype(np.float32) / 4


@pytest.fixture(scope="module")
def device_sets(kiln_device):
    import jax
    kiln, cpu = jax.devices("kiln"), jax.devices("cpu")
    assert len(kiln) == 4 and len(cpu) == 4, "run this file in a pytest process of its own"
    return {"kiln": kiln, "cpu": cpu}


def spec(a):
    return getattr(a.sharding, "spec", None)


def check(device_sets, case, same_spec=True):
    """Runs case(devices) -> dict of arrays on both, compares values and shardings."""
    got, want = case(device_sets["kiln"]), case(device_sets["cpu"])
    for name, w in want.items():
        g = got[name]
        assert {d.platform for d in g.devices()} == {"kiln"} and len(g.devices()) == len(w.devices()), name
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-5, atol=2e-5, err_msg=name)
        if same_spec:
            assert spec(g) == spec(w), f"{name}: {spec(g)} on Kiln, {spec(w)} on XLA:CPU"


def test_tensor_parallel_mlp(device_sets):
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    def case(devs):
        mesh = Mesh(np.array(devs).reshape(2, 2), ("data", "model"))
        put = lambda a, *s: jax.device_put(a, NamedSharding(mesh, P(*s)))  # noqa: E731
        f = jax.jit(lambda x, w1, w2: jnp.tanh(x @ w1) @ w2, out_shardings=NamedSharding(mesh, P("data", None)))
        return {"mlp": f(put(X, "data", None), put(W1, None, "model"), put(W2, "model", None))}

    check(device_sets, case)


def test_data_parallel_training_step(device_sets):
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    def loss(params, x, y):
        w1, w2 = params
        return jnp.mean((jnp.tanh(x @ w1) @ w2 - y) ** 2)

    @jax.jit
    def step(params, x, y):
        l, g = jax.value_and_grad(loss)(params, x, y)
        return l, jax.tree.map(lambda p, d: p - 0.1 * d, params, g)

    y = RNG.standard_normal((8, 8)).astype(np.float32)

    def case(devs):
        mesh = Mesh(np.array(devs), ("batch",))
        rep, bat = NamedSharding(mesh, P()), NamedSharding(mesh, P("batch"))
        params = (jax.device_put(W1, rep), jax.device_put(W2, rep))
        l, (w1, w2) = step(params, jax.device_put(X, bat), jax.device_put(y, bat))
        return {"loss": l, "w1": w1, "w2": w2}

    check(device_sets, case)


def test_constraints_and_uncommitted_inputs(device_sets):
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    def case(devs):
        mesh = Mesh(np.array(devs).reshape(2, 2), ("a", "b"))
        wsc = NamedSharding(mesh, P(None, ("a", "b")))
        f = jax.jit(lambda v: jax.lax.with_sharding_constraint(jnp.sin(v), wsc) * 2,
                    out_shardings=NamedSharding(mesh, P("b", "a")))
        g = jax.jit(lambda v: v.T @ v, out_shardings=NamedSharding(mesh, P("a", "b")))
        return {"constraint": f(jax.device_put(X, NamedSharding(mesh, P("a")))), "uncommitted": g(X)}

    check(device_sets, case)


def test_shard_map_collectives(device_sets):
    import jax
    from jax.sharding import Mesh, PartitionSpec as P

    def case(devs):
        mesh = Mesh(np.array(devs), ("i",))
        mesh2 = Mesh(np.array(devs).reshape(2, 2), ("a", "b"))
        sm = partial(jax.shard_map, mesh=mesh, in_specs=P("i"), out_specs=P("i"))
        lax = jax.lax
        return {
            "psum": jax.jit(sm(lambda v: v + lax.psum(v.sum(0, keepdims=True), "i")))(X),
            "all_gather": jax.jit(partial(jax.shard_map, mesh=mesh, in_specs=P("i"), out_specs=P(), check_vma=False)(
                lambda v: lax.all_gather(v, "i", tiled=True)))(X),
            "psum_scatter": jax.jit(sm(lambda v: lax.psum_scatter(v, "i", scatter_dimension=1, tiled=True)))(X),
            "ppermute": jax.jit(sm(lambda v: lax.ppermute(v, "i", [(j, (j + 1) % 4) for j in range(4)])))(X),
            "all_to_all": jax.jit(sm(lambda v: lax.all_to_all(v, "i", 1, 0, tiled=True)))(X),
            "axis_index": jax.jit(sm(lambda v: v * lax.axis_index("i")))(X),
            "pmax_2d": jax.jit(partial(jax.shard_map, mesh=mesh2, in_specs=P("a", "b"), out_specs=P("a", "b"))(
                lambda v: lax.pmax(v, "b")))(X),
            "partial_manual": jax.jit(partial(jax.shard_map, mesh=mesh2, in_specs=P("a"), out_specs=P("a"),
                                              axis_names={"a"})(lambda v: lax.psum(v, "a") * 2))(X),
        }

    check(device_sets, case)


def test_pmap(device_sets):
    import jax

    def case(devs):
        f = jax.pmap(lambda v: v - jax.lax.pmean(v, "p"), axis_name="p", devices=devs)
        return {"pmap": f(X.reshape(4, 2, 16))}

    check(device_sets, case)


def test_errors_come_back_as_exceptions(device_sets):
    """An op Kiln cannot run, in a sharded program, is an exception with Kiln's message (at
    compile time), and the devices work afterwards."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    mesh = Mesh(np.array(device_sets["kiln"]), ("i",))
    x = jax.device_put(np.ones((8, 2), np.float32), NamedSharding(mesh, P("i")))
    f = jax.jit(lambda v: jax.ffi.ffi_call("kiln_test_no_such_target", jax.ShapeDtypeStruct(v.shape, v.dtype))(v) + 1)
    with pytest.raises(Exception, match="kiln_test_no_such_target.*which Kiln does not implement"):
        f(x).block_until_ready()
    z = jax.jit(lambda v: jnp.cos(v) * 3)(x)
    np.testing.assert_allclose(np.asarray(z), np.cos(np.ones((8, 2))) * 3, rtol=1e-6)


def test_gspmd_mode(device_sets):
    """JAX's GSPMD mode (jax_use_shardy_partitioner off): mhlo.sharding strings and the
    Sharding / SPMDFullToShardShape / SPMDShardToFullShape custom calls instead of sdy."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    def case(devs):
        mesh = Mesh(np.array(devs).reshape(2, 2), ("data", "model"))
        put = lambda a, *s: jax.device_put(a, NamedSharding(mesh, P(*s)))  # noqa: E731
        hidden = NamedSharding(mesh, P("data", "model"))
        mlp = jax.jit(lambda x, w1, w2: jax.lax.with_sharding_constraint(jnp.tanh(x @ w1), hidden) @ w2,
                      out_shardings=NamedSharding(mesh, P("data", None)))
        body = jax.shard_map(lambda x, w: jax.lax.psum(jnp.tanh(x @ w), "model"), mesh=mesh,
                             in_specs=(P("data", "model"), P("model", None)), out_specs=P("data"))
        return {"mlp": mlp(put(X, "data", None), put(W1, None, "model"), put(W2, "model", None)),
                "shard_map": jax.jit(body)(put(X, "data", "model"), put(W1, "model", None))}

    jax.config.update("jax_use_shardy_partitioner", False)
    try:
        check(device_sets, case)
    finally:
        jax.config.update("jax_use_shardy_partitioner", True)
