"""One process of a jax.distributed run on Kiln (test_distributed.py starts it under Open
MPI's mpirun: `mpirun -np 2 python distributed_worker.py`, KILN_CPU_DEVICES local devices
each). Every case runs a sharded program over every process's Kiln devices and compares
the global result (gathered with multihost_utils.process_allgather, itself a Kiln program)
with XLA:CPU's on this process's own CPU device, computed whole; the shardings JAX reads
back must be the ones it asked for. Prints "case NAME ok" per case, then "all ok"."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLUGIN = os.environ["KILN_PJRT_PLUGIN"]
os.environ["PJRT_NAMES_AND_LIBRARY_PATHS"] = "kiln:" + os.path.abspath(PLUGIN)
os.environ["JAX_PLATFORMS"] = "kiln,cpu"
sys.path.insert(0, os.path.join(ROOT, "python"))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.experimental import multihost_utils  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

jax.distributed.initialize()  # under mpirun: Open MPI's ranks and coordinator

KILN = jax.devices("kiln")
LOCAL = jax.local_devices(backend="kiln")
CPU = jax.local_devices(backend="cpu")[0]
N = len(KILN)
assert jax.process_count() > 1 and N == jax.process_count() * len(LOCAL), (jax.process_count(), KILN, LOCAL)
assert all(d.process_index == jax.process_index() for d in LOCAL)
RNG = np.random.default_rng(11)


def say(text):
    os.write(1, (text + "\n").encode())  # one write: lines of the two processes never mix


def put(x, mesh, spec):
    """The global array x laid out over mesh by spec (each process supplies its blocks)."""
    return jax.make_array_from_callback(x.shape, NamedSharding(mesh, spec), lambda idx: x[idx])


def whole(y):
    return np.asarray(multihost_utils.process_allgather(y, tiled=True))


def reference(f, *args):
    return jax.jit(f)(*(jax.device_put(a, CPU) for a in args))


def check(name, got, want, sharding=None, expected_spec=None, tol=1e-5):
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=name)
    if expected_spec is not None:
        assert sharding.spec == expected_spec, (name, sharding.spec, expected_spec)
    say(f"case {name} ok")


def shard_map_collectives():
    mesh = Mesh(np.array(KILN), ("x",))
    x = RNG.standard_normal((N * 4, 8)).astype(np.float32)
    xs = put(x, mesh, P("x"))
    cases = {
        "psum": (lambda a: jax.lax.psum(a, "x"), P(), lambda a: a.reshape(N, 4, 8).sum(0)),
        "all_gather": (lambda a: jax.lax.all_gather(a, "x", tiled=True), P(), lambda a: a),
        "psum_scatter": (lambda a: jax.lax.psum_scatter(a, "x", tiled=True), P("x"),
                         lambda a: a.reshape(N, 4, 8).sum(0)),
        "ppermute": (lambda a: jax.lax.ppermute(a, "x", [(i, (i + 1) % N) for i in range(N)]), P("x"),
                     lambda a: np.roll(a.reshape(N, 4, 8), 1, axis=0).reshape(N * 4, 8)),
        "all_to_all": (lambda a: jax.lax.all_to_all(a, "x", 1, 1, tiled=True), P("x"), None),
        "axis_index": (lambda a: a + jax.lax.axis_index("x").astype(jnp.float32), P("x"),
                       lambda a: a + np.repeat(np.arange(N, dtype=np.float32), 4)[:, None]),
    }
    for name, (body, out_spec, want_of) in cases.items():
        # all_gather's result is the same everywhere, which JAX's replication check cannot infer
        f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=out_spec, check_vma=name != "all_gather"))
        y = f(xs)
        if want_of is None:  # all_to_all: block j of device i's result is device j's block i
            blocks = x.reshape(N, 4, N, 8 // N)
            want = np.concatenate([np.concatenate([blocks[j, :, i] for j in range(N)], axis=1) for i in range(N)])
        else:
            want = want_of(x)
        check("shard_map_" + name, whole(y), want, y.sharding, out_spec)


def data_parallel_step():
    mesh = Mesh(np.array(KILN), ("batch",))
    x = RNG.standard_normal((N * 8, 16)).astype(np.float32)
    t = RNG.standard_normal((N * 8, 4)).astype(np.float32)
    w1 = (RNG.standard_normal((16, 32)) / 4).astype(np.float32)
    w2 = (RNG.standard_normal((32, 4)) / 4).astype(np.float32)

    def step(w1, w2, x, t):
        def loss(w1, w2):
            return jnp.mean((jnp.tanh(x @ w1) @ w2 - t) ** 2)
        l, (g1, g2) = jax.value_and_grad(loss, argnums=(0, 1))(w1, w2)
        return l, w1 - 0.1 * g1, w2 - 0.1 * g2

    args = (put(w1, mesh, P()), put(w2, mesh, P()), put(x, mesh, P("batch")), put(t, mesh, P("batch")))
    got = jax.jit(step)(*args)
    want = reference(step, w1, w2, x, t)
    for name, g, w in zip(("loss", "w1", "w2"), got, want):
        check("data_parallel_" + name, whole(g), np.asarray(w), g.sharding, P())


def megatron_mlp():
    if N % 2:
        return
    mesh = Mesh(np.array(KILN).reshape(2, N // 2), ("data", "model"))
    x = RNG.standard_normal((8, 16)).astype(np.float32)
    w1 = (RNG.standard_normal((16, 32)) / 4).astype(np.float32)
    w2 = (RNG.standard_normal((32, 8)) / 4).astype(np.float32)

    def mlp(x, w1, w2):
        h = jax.lax.with_sharding_constraint(jnp.tanh(x @ w1), NamedSharding(mesh, P("data", "model")))
        return h @ w2

    args = (put(x, mesh, P("data", None)), put(w1, mesh, P(None, "model")), put(w2, mesh, P("model", None)))
    f = jax.jit(mlp, out_shardings=NamedSharding(mesh, P("data", None)))
    y = f(*args)
    want = np.asarray(reference(lambda x, w1, w2: jnp.tanh(x @ w1) @ w2, x, w1, w2))
    check("megatron_mlp", whole(y), want, y.sharding, P("data", None), tol=1e-4)


def uncommitted_input():
    """A host array given to a sharded jit: every process passes the same whole value."""
    mesh = Mesh(np.array(KILN), ("x",))
    v = RNG.standard_normal((8, 2 * N)).astype(np.float32)  # the same on every process (one seed)
    y = jax.jit(lambda v: jnp.tanh(v.T @ v), out_shardings=NamedSharding(mesh, P("x")))(v)
    check("uncommitted_input", whole(y), np.tanh(v.T.astype(np.float64) @ v), y.sharding, P("x"), tol=1e-4)


def pmap_psum():
    """pmap over this process's devices; its psum sums over every process's."""
    x = RNG.standard_normal((N, 6)).astype(np.float32)  # row d: device d's
    mine = x[jax.process_index() * len(LOCAL):(jax.process_index() + 1) * len(LOCAL)]
    y = jax.pmap(lambda a: jax.lax.psum(a, "i"), axis_name="i")(mine)
    got = np.asarray(y)
    check("pmap_psum", got, np.broadcast_to(x.sum(0), got.shape))


shard_map_collectives()
data_parallel_step()
megatron_mlp()
uncommitted_input()
pmap_psum()
say("all ok")
