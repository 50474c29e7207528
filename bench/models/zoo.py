"""Kiln's benchmark model zoo: real models written in JAX, exported to StableHLO text.

Run on demand (bench/run does it; never at test time):
    python bench/models/zoo.py [--out DIR] [--sizes small,large] [--only NAME,...]

Each model is one directory DIR/NAME (NAME = KIND_SIZE[_DTYPE], e.g. mlp_small, mlp_small_bf16):
    model.mlir       jax.export's StableHLO text of the model; every weight is a parameter
                     (as JAX passes params), so the file stays small and the very same file
                     runs on Kiln, IREE and XLA
    input_N.npy      the N-th argument of @main, in order (the weights first, then the data)
    expected_N.npy   JAX's (XLA:CPU's) N-th result for those inputs
    meta.json        kind, size, dtype, tolerances, argument names, FLOP count, versions

Everything is deterministic (fixed PRNG keys), so a regenerated zoo has the same inputs.
`build(kind, size, dtype)` returns the flat JAX function and its inputs; bench/run's XLA:CPU
peer jits that very function.
Needs: jax, numpy, ml_dtypes (pinned in bench/models/requirements.txt).
"""
import argparse
import json
import os
import sys

import jax
import jax.numpy as jnp
import ml_dtypes  # noqa: F401  (registers bfloat16 with NumPy)
import numpy as np

jax.config.update("jax_platforms", "cpu")

HERE = os.path.dirname(os.path.abspath(__file__))

# (kind, dtypes): every kind comes in f32; the MLP and the transformer block also in bf16.
KINDS = [
    ("mlp", ["f32", "bf16"]),
    ("cnn", ["f32"]),
    ("transformer", ["f32", "bf16"]),
    ("rnn", ["f32"]),
    ("embed_update", ["f32"]),
    ("mlp_train", ["f32"]),
]
SIZES = ["small", "large"]

# Tolerance: a result passes when max|got - ref| <= atol + rtol * max|ref| (per result);
# integer results must match exactly.
TOLERANCE = {"f32": (1e-4, 1e-5), "bf16": (5e-2, 1e-2)}


def model_name(kind, size, dtype):
    return f"{kind}_{size}" + ("" if dtype == "f32" else f"_{dtype}")


def all_models(sizes=SIZES):
    return [(k, s, d) for k, dts in KINDS for s in sizes for d in dts]


def _normal(key, shape, scale, dtype):
    return (jax.random.normal(key, shape, jnp.float32) * scale).astype(dtype)


def _dense_init(key, n_in, n_out, dtype):
    kw, kb = jax.random.split(key)
    return {"w": _normal(kw, (n_in, n_out), (2.0 / n_in) ** 0.5, dtype),
            "b": _normal(kb, (n_out,), 0.1, dtype)}


# ---------------------------------------------------------------- MLP (and its training step)

MLP_SIZES = {"small": dict(batch=1, dims=[256, 512, 512, 10]),
             "large": dict(batch=256, dims=[784, 2048, 2048, 10])}


def mlp_params(key, dims, dtype):
    keys = jax.random.split(key, len(dims) - 1)
    return [_dense_init(k, a, b, dtype) for k, a, b in zip(keys, dims[:-1], dims[1:])]


def mlp_logits(params, x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def mlp_forward(params, x):
    return (jax.nn.softmax(mlp_logits(params, x), axis=-1),)


def mlp_loss(params, x, y):
    logp = jax.nn.log_softmax(mlp_logits(params, x))
    return -jnp.mean(jnp.sum(logp * jax.nn.one_hot(y, logp.shape[-1], dtype=logp.dtype), -1))


def mlp_train_step(params, x, y):
    loss, grads = jax.value_and_grad(mlp_loss)(params, x, y)
    new = jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)
    return (loss, new)


def build_mlp(size, dtype, key):
    c = MLP_SIZES[size]
    kp, kx = jax.random.split(key)
    params = mlp_params(kp, c["dims"], dtype)
    x = _normal(kx, (c["batch"], c["dims"][0]), 1.0, dtype)
    return mlp_forward, (params, x), ["params", "x"]


def build_mlp_train(size, dtype, key):
    c = MLP_SIZES[size]
    kp, kx, ky = jax.random.split(key, 3)
    params = mlp_params(kp, c["dims"], dtype)
    x = _normal(kx, (c["batch"], c["dims"][0]), 1.0, dtype)
    y = jax.random.randint(ky, (c["batch"],), 0, c["dims"][-1], jnp.int32)
    return mlp_train_step, (params, x, y), ["params", "x", "y"]


# ---------------------------------------------------------------- ResNet-style CNN

CNN_SIZES = {"small": dict(batch=1, hw=16, ch=16, blocks=2, classes=10),
             "large": dict(batch=32, hw=32, ch=32, blocks=3, classes=10)}


def _conv(x, w, stride=1):
    return jax.lax.conv_general_dilated(x, w, (stride, stride), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def _bn(x, p):
    # inference-mode batch norm on running statistics (lowers to plain arithmetic)
    inv = jax.lax.rsqrt(p["var"] + 1e-5) * p["gamma"]
    return (x - p["mean"]) * inv + p["beta"]


def _bn_init(key, c, dtype):
    k1, k2, k3, k4 = jax.random.split(key, 4)
    return {"gamma": (1.0 + _normal(k1, (c,), 0.1, jnp.float32)).astype(dtype),
            "beta": _normal(k2, (c,), 0.1, dtype),
            "mean": _normal(k3, (c,), 0.1, dtype),
            "var": (0.5 + jax.random.uniform(k4, (c,), jnp.float32)).astype(dtype)}


def cnn_forward(params, x):
    h = jax.nn.relu(_bn(_conv(x, params["stem"]), params["stem_bn"]))
    for i, blk in enumerate(params["blocks"]):
        stride = 2 if i > 0 else 1
        y = jax.nn.relu(_bn(_conv(h, blk["w1"], stride), blk["bn1"]))
        y = _bn(_conv(y, blk["w2"]), blk["bn2"])
        short = h if stride == 1 else _conv(h, blk["proj"], stride)
        h = jax.nn.relu(y + short)
    h = jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    h = jnp.mean(h, axis=(1, 2))
    return (h @ params["head"]["w"] + params["head"]["b"],)


def build_cnn(size, dtype, key):
    c = CNN_SIZES[size]
    ch = c["ch"]
    keys = iter(jax.random.split(key, 4 + 5 * c["blocks"]))
    params = {"stem": _normal(next(keys), (3, 3, 3, ch), (2.0 / 27) ** 0.5, dtype),
              "stem_bn": _bn_init(next(keys), ch, dtype), "blocks": []}
    for i in range(c["blocks"]):
        params["blocks"].append({
            "w1": _normal(next(keys), (3, 3, ch, ch), (2.0 / (9 * ch)) ** 0.5, dtype),
            "bn1": _bn_init(next(keys), ch, dtype),
            "w2": _normal(next(keys), (3, 3, ch, ch), (2.0 / (9 * ch)) ** 0.5, dtype),
            "bn2": _bn_init(next(keys), ch, dtype),
            "proj": _normal(next(keys), (1, 1, ch, ch), (1.0 / ch) ** 0.5, dtype)})
        if i == 0:
            del params["blocks"][0]["proj"]  # the first block keeps its resolution
    params["head"] = _dense_init(next(keys), ch, c["classes"], dtype)
    x = _normal(next(keys), (c["batch"], c["hw"], c["hw"], 3), 1.0, dtype)
    return cnn_forward, (params, x), ["params", "x"]


# ---------------------------------------------------------------- transformer encoder block

TRANSFORMER_SIZES = {"small": dict(batch=1, seq=16, d=64, heads=4, ffn=256),
                     "large": dict(batch=8, seq=128, d=256, heads=8, ffn=1024)}


def _layernorm(x, p):
    xf = x.astype(jnp.float32)
    mu = jnp.mean(xf, -1, keepdims=True)
    var = jnp.mean(jnp.square(xf - mu), -1, keepdims=True)
    y = ((xf - mu) * jax.lax.rsqrt(var + 1e-5)).astype(x.dtype)
    return y * p["g"] + p["b"]


def transformer_forward(params, x, heads):
    b, s, d = x.shape
    hd = d // heads
    h = _layernorm(x, params["ln1"])
    qkv = h @ params["qkv"]["w"] + params["qkv"]["b"]
    q, k, v = jnp.split(qkv, 3, axis=-1)
    q, k, v = (t.reshape(b, s, heads, hd).transpose(0, 2, 1, 3) for t in (q, k, v))
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.asarray(hd ** 0.5, x.dtype)
    att = jax.nn.softmax(scores.astype(jnp.float32), axis=-1).astype(x.dtype)
    o = jnp.einsum("bhqk,bhkd->bhqd", att, v).transpose(0, 2, 1, 3).reshape(b, s, d)
    x = x + (o @ params["out"]["w"] + params["out"]["b"])
    h = _layernorm(x, params["ln2"])
    h = jax.nn.gelu(h @ params["ff1"]["w"] + params["ff1"]["b"], approximate=False)
    return (x + (h @ params["ff2"]["w"] + params["ff2"]["b"]),)


def build_transformer(size, dtype, key):
    c = TRANSFORMER_SIZES[size]
    d, f = c["d"], c["ffn"]
    k = jax.random.split(key, 5)
    ln = lambda: {"g": jnp.ones((d,), dtype), "b": jnp.zeros((d,), dtype)}
    params = {"ln1": ln(), "qkv": _dense_init(k[0], d, 3 * d, dtype),
              "out": _dense_init(k[1], d, d, dtype), "ln2": ln(),
              "ff1": _dense_init(k[2], d, f, dtype), "ff2": _dense_init(k[3], f, d, dtype)}
    x = _normal(k[4], (c["batch"], c["seq"], d), 1.0, dtype)
    fn = lambda p, x: transformer_forward(p, x, c["heads"])
    return fn, (params, x), ["params", "x"]


# ---------------------------------------------------------------- recurrent model (lax.scan)

RNN_SIZES = {"small": dict(batch=1, seq=16, n_in=32, hidden=64),
             "large": dict(batch=64, seq=64, n_in=128, hidden=256)}


def rnn_forward(params, xs):
    # a GRU over time (xs: [seq, batch, n_in]) with lax.scan, which lowers to stablehlo.while
    def cell(h, x):
        zr = jax.nn.sigmoid(x @ params["wx_zr"] + h @ params["wh_zr"] + params["b_zr"])
        z, r = jnp.split(zr, 2, axis=-1)
        n = jnp.tanh(x @ params["wx_n"] + (r * h) @ params["wh_n"] + params["b_n"])
        h = (1 - z) * n + z * h
        return h, h
    h0 = jnp.zeros((xs.shape[1], params["wh_n"].shape[0]), xs.dtype)
    h, hs = jax.lax.scan(cell, h0, xs)
    return (h @ params["head"]["w"] + params["head"]["b"], jnp.mean(hs, axis=0))


def build_rnn(size, dtype, key):
    c = RNN_SIZES[size]
    n, hdim = c["n_in"], c["hidden"]
    k = jax.random.split(key, 8)
    params = {"wx_zr": _normal(k[0], (n, 2 * hdim), n ** -0.5, dtype),
              "wh_zr": _normal(k[1], (hdim, 2 * hdim), hdim ** -0.5, dtype),
              "b_zr": _normal(k[2], (2 * hdim,), 0.1, dtype),
              "wx_n": _normal(k[3], (n, hdim), n ** -0.5, dtype),
              "wh_n": _normal(k[4], (hdim, hdim), hdim ** -0.5, dtype),
              "b_n": _normal(k[5], (hdim,), 0.1, dtype),
              "head": _dense_init(k[6], hdim, 10, dtype)}
    xs = _normal(k[7], (c["seq"], c["batch"], n), 1.0, dtype)
    return rnn_forward, (params, xs), ["params", "xs"]


# ---------------------------------------------------------------- sort / top-k / gather / scatter

EMBED_SIZES = {"small": dict(vocab=512, dim=16, n_ids=32, k=8),
               "large": dict(vocab=65536, dim=64, n_ids=8192, k=256)}


def embed_update(table, ids, grads, query, k):
    # A sparse embedding update: gather the rows in use, score them against a query, keep the
    # top k ids, sort them, and scatter-add their (scaled) gradients back into the table.
    rows = table[ids]                                          # gather
    scores = rows @ query                                      # [n_ids]
    top_scores, top_pos = jax.lax.top_k(scores, k)             # top-k
    top_ids = ids[top_pos]                                     # gather
    order = jnp.argsort(top_ids)                               # sort
    sel_ids = top_ids[order]
    sel_grads = grads[top_pos][order] * jax.nn.sigmoid(top_scores[order])[:, None]
    new_table = table.at[sel_ids].add(-0.1 * sel_grads)        # scatter-add
    ranked = jnp.sort(scores)[::-1]                            # full sort
    return (new_table, sel_ids, ranked)


def build_embed_update(size, dtype, key):
    c = EMBED_SIZES[size]
    k = jax.random.split(key, 4)
    table = _normal(k[0], (c["vocab"], c["dim"]), 1.0, dtype)
    # distinct ids (a permutation prefix), so top-k and sort see no ties
    ids = jax.random.permutation(k[1], c["vocab"])[: c["n_ids"]].astype(jnp.int32)
    grads = _normal(k[2], (c["n_ids"], c["dim"]), 1.0, dtype)
    query = _normal(k[3], (c["dim"],), 1.0, dtype)
    fn = lambda t, i, g, q: embed_update(t, i, g, q, c["k"])
    return fn, (table, ids, grads, query), ["table", "ids", "grads", "query"]


BUILDERS = {"mlp": build_mlp, "cnn": build_cnn, "transformer": build_transformer,
            "rnn": build_rnn, "embed_update": build_embed_update, "mlp_train": build_mlp_train}
DTYPES = {"f32": jnp.float32, "bf16": jnp.bfloat16}


def build(kind, size, dtype, abstract=False):
    """Returns (flat_fn, flat_inputs, arg_names): flat_fn(*flat_inputs) -> tuple of arrays.
    With abstract=True the inputs are jax.ShapeDtypeStructs and nothing is computed (bench/run's
    XLA:CPU peer wants only the function: it loads the inputs from the .npy files)."""
    key = jax.random.PRNGKey(sorted(BUILDERS).index(kind) * 10 + SIZES.index(size))
    made = {}

    def make(k):
        made["fn"], args, made["names"] = BUILDERS[kind](size, DTYPES[dtype], k)
        return args

    args = jax.eval_shape(make, key) if abstract else make(key)
    fn, names = made["fn"], made["names"]
    leaves, treedef = jax.tree_util.tree_flatten(args)
    paths = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(args)[0]]
    arg_names = []
    for p in paths:  # "[0]['blocks'][1]['w1']" -> "params.blocks.1.w1"
        parts = [t.strip("'") for t in p.replace("]", "").split("[")[1:]]
        arg_names.append(".".join([names[int(parts[0])]] + parts[1:]))

    def flat_fn(*flat):
        out = fn(*jax.tree_util.tree_unflatten(treedef, flat))
        return tuple(jax.tree_util.tree_leaves(out))

    if not abstract:
        leaves = [np.asarray(leaf) for leaf in leaves]
    return flat_fn, leaves, arg_names


def count_flops(flat_fn, inputs):
    try:
        cost = jax.jit(flat_fn).lower(*inputs).compile().cost_analysis()
        if isinstance(cost, list):
            cost = cost[0]
        return float(cost.get("flops", 0.0))
    except Exception:  # cost analysis is informational only
        return 0.0


def save_npy(path, a):
    """np.save, except that an ml_dtypes array (bfloat16, ...) is written with its ml_dtypes name
    as the header's descr: np.save would write '<V2' (raw bytes), which no reader can tell from
    any other 2-byte type. np.load reads it back once ml_dtypes is imported; so does Kiln."""
    a = np.asarray(a)
    if not a.flags.c_contiguous:
        a = a.copy(order="C")  # (np.ascontiguousarray would turn a 0-d array into 1-d)
    if a.dtype.kind != "V":
        np.save(path, a)
        return
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": a.dtype.name, "fortran_order": False, "shape": a.shape})
        f.write(a.tobytes())


def export_model(kind, size, dtype, out_dir):
    name = model_name(kind, size, dtype)
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    flat_fn, inputs, arg_names = build(kind, size, dtype)
    specs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in inputs]
    exported = jax.export.export(jax.jit(flat_fn))(*specs)
    with open(os.path.join(d, "model.mlir"), "w") as f:
        f.write(exported.mlir_module())
    outputs = [np.asarray(o) for o in jax.jit(flat_fn)(*inputs)]
    for old in os.listdir(d):
        if old.endswith(".npy"):
            os.remove(os.path.join(d, old))
    for i, a in enumerate(inputs):
        save_npy(os.path.join(d, f"input_{i}.npy"), a)
    for i, a in enumerate(outputs):
        save_npy(os.path.join(d, f"expected_{i}.npy"), a)
    rtol, atol = TOLERANCE[dtype]
    meta = {"name": name, "kind": kind, "size": size, "dtype": dtype,
            "rtol": rtol, "atol": atol, "args": arg_names,
            "inputs": [[list(a.shape), str(a.dtype)] for a in inputs],
            "outputs": [[list(a.shape), str(a.dtype)] for a in outputs],
            "flops": count_flops(flat_fn, inputs),
            "jax": jax.__version__}
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    return name


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, "zoo"))
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--only", default="", help="comma-separated model names")
    args = ap.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    for kind, size, dtype in all_models(args.sizes.split(",")):
        name = model_name(kind, size, dtype)
        if only and name not in only:
            continue
        export_model(kind, size, dtype, args.out)
        print(f"exported {name}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
