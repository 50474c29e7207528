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

# (kind, dtypes): every kind comes in f32 (int8_matmul: int8 operands whatever the label);
# some also in bf16 or f16.
KINDS = [
    ("mlp", ["f32", "bf16"]),
    ("cnn", ["f32", "f16"]),
    ("transformer", ["f32", "bf16"]),
    ("rnn", ["f32"]),
    ("embed_update", ["f32"]),
    ("mlp_train", ["f32"]),
    ("vit", ["f32", "bf16"]),
    ("conv_decoder", ["f32"]),
    ("conv1d", ["f32"]),
    ("gnn", ["f32"]),
    ("moe", ["f32"]),
    ("fft_filter", ["f32"]),
    ("cumulative", ["f32"]),
    ("int8_matmul", ["f32"]),
    ("cnn_train", ["f32"]),
    ("linalg", ["f32"]),
    ("random", ["f32"]),
    ("argmax", ["f32"]),
]
SIZES = ["small", "large"]

# Tolerance: a result passes when max|got - ref| <= atol + rtol * max|ref| (per result);
# integer results must match exactly. Per dtype, and per kind where its numerics need more
# (tolerance()).
TOLERANCE = {"f32": (1e-4, 1e-5), "bf16": (5e-2, 1e-2), "f16": (1e-2, 2e-3)}
# rtol, atol by (kind, dtype): factorizations and eigensolvers differ from LAPACK's in the
# last bits, which a solve or an eigenvector amplifies by the condition number.
KIND_TOLERANCE = {("linalg", "f32"): (2e-3, 1e-4)}


def tolerance(kind, dtype):
    """(rtol, atol) for a model's results."""
    return KIND_TOLERANCE.get((kind, dtype), TOLERANCE[dtype])


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


# ---------------------------------------------------------------- vision transformer

VIT_SIZES = {"small": dict(batch=1, hw=32, patch=8, d=64, heads=4, ffn=128, blocks=1, classes=10),
             "large": dict(batch=8, hw=64, patch=8, d=192, heads=6, ffn=768, blocks=2, classes=100)}


def vit_forward(params, images, heads, patch):
    # patch embedding: a convolution whose stride is its window, then tokens + positions
    x = jax.lax.conv_general_dilated(images, params["patch"], (patch, patch), "VALID",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
    b, h, w, d = x.shape
    x = x.reshape(b, h * w, d) + params["pos"]
    for blk in params["blocks"]:
        (x,) = transformer_forward(blk, x, heads)
    x = _layernorm(x, params["ln"])
    return (jnp.mean(x, axis=1) @ params["head"]["w"] + params["head"]["b"],)


def build_vit(size, dtype, key):
    c = VIT_SIZES[size]
    d, f, p = c["d"], c["ffn"], c["patch"]
    keys = iter(jax.random.split(key, 4 + 4 * c["blocks"]))
    ln = lambda: {"g": jnp.ones((d,), dtype), "b": jnp.zeros((d,), dtype)}  # noqa: E731
    params = {"patch": _normal(next(keys), (p, p, 3, d), (1.0 / (p * p * 3)) ** 0.5, dtype),
              "pos": _normal(next(keys), ((c["hw"] // p) ** 2, d), 0.02, dtype), "blocks": []}
    for _ in range(c["blocks"]):
        params["blocks"].append({"ln1": ln(), "qkv": _dense_init(next(keys), d, 3 * d, dtype),
                                 "out": _dense_init(next(keys), d, d, dtype), "ln2": ln(),
                                 "ff1": _dense_init(next(keys), d, f, dtype),
                                 "ff2": _dense_init(next(keys), f, d, dtype)})
    params["ln"] = ln()
    params["head"] = _dense_init(next(keys), d, c["classes"], dtype)
    images = _normal(next(keys), (c["batch"], c["hw"], c["hw"], 3), 1.0, dtype)
    fn = lambda prm, x: vit_forward(prm, x, c["heads"], p)  # noqa: E731
    return fn, (params, images), ["params", "images"]


# ---------------------------------------------------------------- transposed-convolution decoder

DECODER_SIZES = {"small": dict(batch=1, latent=16, base=4, ch=[32, 16, 8]),
                 "large": dict(batch=16, latent=64, base=8, ch=[64, 32, 16])}


def decoder_forward(params, z, base):
    h = jax.nn.relu(z @ params["fc"]["w"] + params["fc"]["b"])
    h = h.reshape(z.shape[0], base, base, -1)
    for i, layer in enumerate(params["up"]):
        h = jax.lax.conv_transpose(h, layer["w"], (2, 2), "SAME",
                                   dimension_numbers=("NHWC", "HWIO", "NHWC")) + layer["b"]
        h = jax.nn.relu(h) if i + 1 < len(params["up"]) else jax.nn.sigmoid(h)
    return (h,)


def build_conv_decoder(size, dtype, key):
    c = DECODER_SIZES[size]
    chans = c["ch"] + [3]
    keys = jax.random.split(key, len(chans) + 1)
    params = {"fc": _dense_init(keys[0], c["latent"], c["base"] ** 2 * chans[0], dtype), "up": []}
    for i, (a, b) in enumerate(zip(chans[:-1], chans[1:])):
        kw, kb = jax.random.split(keys[i + 1])
        params["up"].append({"w": _normal(kw, (4, 4, a, b), (2.0 / (16 * a)) ** 0.5, dtype),
                             "b": _normal(kb, (b,), 0.1, dtype)})
    z = _normal(keys[-1], (c["batch"], c["latent"]), 1.0, dtype)
    fn = lambda prm, x: decoder_forward(prm, x, c["base"])  # noqa: E731
    return fn, (params, z), ["params", "z"]


# ---------------------------------------------------------------- 1-D convnet (dilated, depthwise)

CONV1D_SIZES = {"small": dict(batch=1, length=128, ch=16, dilations=[1, 2, 4, 8], classes=4),
                "large": dict(batch=16, length=1024, ch=64, dilations=[1, 2, 4, 8, 16], classes=8)}


def conv1d_forward(params, x):
    dn = ("NWC", "WIO", "NWC")
    h = jax.lax.conv_general_dilated(x, params["stem"], (1,), "SAME", dimension_numbers=dn)
    ch = h.shape[-1]
    for blk in params["blocks"]:
        # depthwise (one filter per channel), dilated, causal padding; then pointwise
        y = jax.lax.conv_general_dilated(h, blk["dw"], (1,), [(2 * blk["dil"], 0)],
                                         rhs_dilation=(blk["dil"],), dimension_numbers=dn,
                                         feature_group_count=ch)
        y = jax.nn.gelu(y, approximate=True)
        y = jax.lax.conv_general_dilated(y, blk["pw"], (1,), "VALID", dimension_numbers=dn)
        h = h + y
    h = jax.lax.conv_general_dilated(h, params["down"], (2,), "SAME", dimension_numbers=dn)
    return (jnp.max(h, axis=1) @ params["head"]["w"] + params["head"]["b"],)


def build_conv1d(size, dtype, key):
    c = CONV1D_SIZES[size]
    ch = c["ch"]
    keys = iter(jax.random.split(key, 4 + 2 * len(c["dilations"])))
    params = {"stem": _normal(next(keys), (5, 1, ch), 0.5, dtype), "blocks": []}
    for dil in c["dilations"]:
        params["blocks"].append({"dil": dil, "dw": _normal(next(keys), (3, 1, ch), 0.5, dtype),
                                 "pw": _normal(next(keys), (1, ch, ch), ch ** -0.5, dtype)})
    params["down"] = _normal(next(keys), (4, ch, ch), (4 * ch) ** -0.5, dtype)
    params["head"] = _dense_init(next(keys), ch, c["classes"], dtype)
    x = _normal(next(keys), (c["batch"], c["length"], 1), 1.0, dtype)
    dils = [b.pop("dil") for b in params["blocks"]]  # static: not an argument

    def fn(prm, x):
        prm = dict(prm, blocks=[dict(b, dil=d) for b, d in zip(prm["blocks"], dils)])
        return conv1d_forward(prm, x)
    return fn, (params, x), ["params", "x"]


# ---------------------------------------------------------------- graph network (segment_sum)

GNN_SIZES = {"small": dict(nodes=32, edges=128, feat=16, layers=2),
             "large": dict(nodes=4096, edges=32768, feat=64, layers=3)}


def gnn_forward(params, x, senders, receivers):
    n = x.shape[0]
    for layer in params["layers"]:
        msg = jax.nn.relu(x[senders] @ layer["msg"]["w"] + layer["msg"]["b"])      # gather
        agg = jax.ops.segment_sum(msg, receivers, num_segments=n)                  # scatter-add
        deg = jax.ops.segment_sum(jnp.ones_like(receivers, x.dtype), receivers, num_segments=n)
        agg = agg / jnp.maximum(deg, 1.0)[:, None]
        x = x + jax.nn.relu(jnp.concatenate([x, agg], -1) @ layer["upd"]["w"] + layer["upd"]["b"])
    return (x, jnp.sum(x, axis=0) @ params["readout"])


def build_gnn(size, dtype, key):
    c = GNN_SIZES[size]
    f = c["feat"]
    keys = jax.random.split(key, 2 * c["layers"] + 4)
    params = {"layers": [{"msg": _dense_init(keys[2 * i], f, f, dtype),
                          "upd": _dense_init(keys[2 * i + 1], 2 * f, f, dtype)}
                         for i in range(c["layers"])],
              "readout": _normal(keys[-4], (f, 4), f ** -0.5, dtype)}
    x = _normal(keys[-3], (c["nodes"], f), 1.0, dtype)
    senders = jax.random.randint(keys[-2], (c["edges"],), 0, c["nodes"], jnp.int32)
    receivers = jax.random.randint(keys[-1], (c["edges"],), 0, c["nodes"], jnp.int32)
    return gnn_forward, (params, x, senders, receivers), ["params", "x", "senders", "receivers"]


# ---------------------------------------------------------------- mixture of experts (top-k routing)

MOE_SIZES = {"small": dict(tokens=16, d=32, hidden=64, experts=4, k=2),
             "large": dict(tokens=1024, d=256, hidden=512, experts=8, k=2)}


def moe_forward(params, x, k):
    t, d = x.shape
    e = params["router"].shape[1]
    cap = 2 * t * k // e  # each expert's buffer: twice its fair share; overflow is dropped
    gates, expert = jax.lax.top_k(x @ params["router"], k)             # [t, k]
    gates = jax.nn.softmax(gates, axis=-1)
    expert, gates = expert.reshape(-1), gates.reshape(-1)              # assignment a = t*k + j
    token = jnp.repeat(jnp.arange(t, dtype=jnp.int32), k)
    onehot = jax.nn.one_hot(expert, e, dtype=jnp.int32)
    slot = jnp.sum((jnp.cumsum(onehot, axis=0) - 1) * onehot, axis=1)  # place in its expert
    keep = slot < cap
    buf = jnp.zeros((e, cap, d), x.dtype).at[expert, slot].set(x[token], mode="drop")  # scatter
    h = jax.nn.gelu(jnp.einsum("ecd,edh->ech", buf, params["w1"]) + params["b1"][:, None, :])
    out = jnp.einsum("ech,ehd->ecd", h, params["w2"])
    y = out.at[expert, slot].get(mode="fill", fill_value=0)            # gather
    y = y * (gates * keep)[:, None]
    return (jnp.zeros_like(x).at[token].add(y),)                      # scatter-add


def build_moe(size, dtype, key):
    c = MOE_SIZES[size]
    d, h, e = c["d"], c["hidden"], c["experts"]
    k = jax.random.split(key, 6)
    params = {"router": _normal(k[0], (d, e), d ** -0.5, dtype),
              "w1": _normal(k[1], (e, d, h), d ** -0.5, dtype),
              "b1": _normal(k[2], (e, h), 0.1, dtype),
              "w2": _normal(k[3], (e, h, d), h ** -0.5, dtype)}
    x = _normal(k[4], (c["tokens"], d), 1.0, dtype)
    fn = lambda prm, x: moe_forward(prm, x, c["k"])  # noqa: E731
    return fn, (params, x), ["params", "x"]


# ---------------------------------------------------------------- FFT filter

FFT_SIZES = {"small": dict(batch=1, length=256), "large": dict(batch=64, length=4096)}


def fft_filter(signal, gain_re, gain_im):
    spectrum = jnp.fft.rfft(signal, axis=-1)
    filtered = spectrum * jax.lax.complex(gain_re, gain_im)
    return (jnp.fft.irfft(filtered, n=signal.shape[-1], axis=-1),)


def build_fft_filter(size, dtype, key):
    c = FFT_SIZES[size]
    n = c["length"]
    k = jax.random.split(key, 3)
    f = jnp.arange(n // 2 + 1, dtype=jnp.float32) / (n // 2)
    gain_re = (jnp.exp(-8 * f * f) + 0.05 * jax.random.normal(k[0], f.shape)).astype(dtype)
    gain_im = (0.1 * jax.random.normal(k[1], f.shape)).astype(dtype)
    signal = _normal(k[2], (c["batch"], n), 1.0, dtype)
    return fft_filter, (signal, gain_re, gain_im), ["signal", "gain_re", "gain_im"]


# ---------------------------------------------------------------- cumulative ops

CUMULATIVE_SIZES = {"small": dict(rows=4, length=128), "large": dict(rows=64, length=8192)}


def cumulative(x):
    return (jnp.cumsum(x, axis=1), jnp.cumprod(1.0 + 0.01 * x, axis=1), jax.lax.cummax(x, axis=1),
            jnp.cumsum(x[:, ::-1], axis=0))


def build_cumulative(size, dtype, key):
    c = CUMULATIVE_SIZES[size]
    return cumulative, (_normal(key, (c["rows"], c["length"]), 1.0, dtype),), ["x"]


# ---------------------------------------------------------------- int8 matmul

INT8_SIZES = {"small": dict(m=1, k=256, n=256), "large": dict(m=256, k=1024, n=1024)}


def int8_matmul(xq, wq, x_scale, w_scale, bias):
    acc = jax.lax.dot_general(xq, wq, (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32)
    y = acc.astype(jnp.float32) * (x_scale * w_scale) + bias
    return (acc, jax.nn.relu(y))


def build_int8_matmul(size, dtype, key):
    c = INT8_SIZES[size]
    k = jax.random.split(key, 4)
    xq = jax.random.randint(k[0], (c["m"], c["k"]), -128, 128, jnp.int32).astype(jnp.int8)
    wq = jax.random.randint(k[1], (c["k"], c["n"]), -128, 128, jnp.int32).astype(jnp.int8)
    x_scale = jnp.asarray(0.02, jnp.float32)
    w_scale = (0.001 + 0.001 * jax.random.uniform(k[2], (c["n"],))).astype(jnp.float32)
    bias = _normal(k[3], (c["n"],), 0.1, jnp.float32)
    return int8_matmul, (xq, wq, x_scale, w_scale, bias), ["xq", "wq", "x_scale", "w_scale", "bias"]


# ---------------------------------------------------------------- CNN training step with Adam

CNN_TRAIN_SIZES = {"small": dict(batch=4, hw=16, ch=8, classes=10),
                   "large": dict(batch=32, hw=32, ch=32, classes=10)}


def cnn_train_loss(params, x, y):
    h = jax.nn.relu(_conv(x, params["c1"]) + params["b1"])
    h = jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    h = jax.nn.relu(_conv(h, params["c2"]) + params["b2"])
    logits = jnp.mean(h, axis=(1, 2)) @ params["head"]["w"] + params["head"]["b"]
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.sum(logp * jax.nn.one_hot(y, logits.shape[-1], dtype=logp.dtype), -1))


def cnn_train_step(params, m, v, step, x, y, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    loss, grads = jax.value_and_grad(cnn_train_loss)(params, x, y)
    step = step + 1
    m = jax.tree_util.tree_map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
    v = jax.tree_util.tree_map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)
    mhat = 1 - b1 ** step.astype(jnp.float32)
    vhat = 1 - b2 ** step.astype(jnp.float32)
    new = jax.tree_util.tree_map(lambda p, a, s: p - lr * (a / mhat) / (jnp.sqrt(s / vhat) + eps),
                                 params, m, v)
    return (loss, new, m, v, step)


def build_cnn_train(size, dtype, key):
    c = CNN_TRAIN_SIZES[size]
    ch = c["ch"]
    k = jax.random.split(key, 8)
    params = {"c1": _normal(k[0], (3, 3, 3, ch), (2.0 / 27) ** 0.5, dtype),
              "b1": jnp.zeros((ch,), dtype),
              "c2": _normal(k[1], (3, 3, ch, 2 * ch), (2.0 / (9 * ch)) ** 0.5, dtype),
              "b2": jnp.zeros((2 * ch,), dtype),
              "head": _dense_init(k[2], 2 * ch, c["classes"], dtype)}
    # Adam's moments as after some steps (small, positive second moments)
    m = jax.tree_util.tree_map(lambda p: 1e-3 * _normal(k[3], p.shape, 1.0, dtype), params)
    v = jax.tree_util.tree_map(lambda p: 1e-6 * (1.0 + jax.random.uniform(k[4], p.shape)).astype(dtype),
                               params)
    step = jnp.asarray(10, jnp.int32)
    x = _normal(k[5], (c["batch"], c["hw"], c["hw"], 3), 1.0, dtype)
    y = jax.random.randint(k[6], (c["batch"],), 0, c["classes"], jnp.int32)
    return cnn_train_step, (params, m, v, step, x, y), ["params", "m", "v", "step", "x", "y"]


# ---------------------------------------------------------------- linear algebra

LINALG_SIZES = {"small": dict(n=16, rhs=4), "large": dict(n=192, rhs=32)}


def linalg(a, b):
    # results that do not depend on a factorization's sign conventions
    spd = a @ a.T / a.shape[0] + jnp.eye(a.shape[0], dtype=a.dtype)
    chol = jnp.linalg.cholesky(spd)
    x = jnp.linalg.solve(spd, b)
    q, r = jnp.linalg.qr(a)
    w, vecs = jnp.linalg.eigh(spd)
    s = jnp.linalg.svd(a, compute_uv=False)
    u, s2, vt = jnp.linalg.svd(a[:, : a.shape[0] // 2], full_matrices=False)
    return (chol, x, q @ r, jnp.abs(jnp.diagonal(r)), w, (vecs * w) @ vecs.T, s, (u * s2) @ vt)


def build_linalg(size, dtype, key):
    c = LINALG_SIZES[size]
    k = jax.random.split(key, 2)
    a = _normal(k[0], (c["n"], c["n"]), 1.0, dtype)
    b = _normal(k[1], (c["n"], c["rhs"]), 1.0, dtype)
    return linalg, (a, b), ["a", "b"]


# ---------------------------------------------------------------- random sampling

RANDOM_SIZES = {"small": dict(batch=8, dim=16, classes=10), "large": dict(batch=1024, dim=256, classes=1000)}


def random_sample(key_data, logits, mean, scale):
    key = jax.random.wrap_key_data(key_data, impl="threefry2x32")
    k1, k2 = jax.random.split(key)
    noise = mean + scale * jax.random.normal(k1, (logits.shape[0], mean.shape[0]), mean.dtype)
    labels = jax.random.categorical(k2, logits, axis=-1)
    return (noise, labels)


def build_random(size, dtype, key):
    c = RANDOM_SIZES[size]
    k = jax.random.split(key, 4)
    key_data = jax.random.key_data(jax.random.key(7 + SIZES.index(size), impl="threefry2x32"))
    logits = _normal(k[1], (c["batch"], c["classes"]), 2.0, dtype)
    mean = _normal(k[2], (c["dim"],), 1.0, dtype)
    scale = (0.5 + jax.random.uniform(k[3], (c["dim"],))).astype(dtype)
    return random_sample, (key_data, logits, mean, scale), ["key", "logits", "mean", "scale"]


# ---------------------------------------------------------------- argmax

ARGMAX_SIZES = {"small": dict(batch=4, d=64, classes=10), "large": dict(batch=4096, d=256, classes=1000)}


def argmax_classify(params, x):
    logits = x @ params["w"] + params["b"]
    return (jnp.argmax(logits, axis=-1).astype(jnp.int32), jnp.max(logits, axis=-1),
            jnp.argmin(x, axis=0).astype(jnp.int32))


def build_argmax(size, dtype, key):
    c = ARGMAX_SIZES[size]
    kp, kx = jax.random.split(key)
    params = _dense_init(kp, c["d"], c["classes"], dtype)
    x = _normal(kx, (c["batch"], c["d"]), 1.0, dtype)
    return argmax_classify, (params, x), ["params", "x"]


BUILDERS = {"mlp": build_mlp, "cnn": build_cnn, "transformer": build_transformer,
            "rnn": build_rnn, "embed_update": build_embed_update, "mlp_train": build_mlp_train,
            "vit": build_vit, "conv_decoder": build_conv_decoder, "conv1d": build_conv1d,
            "gnn": build_gnn, "moe": build_moe, "fft_filter": build_fft_filter,
            "cumulative": build_cumulative, "int8_matmul": build_int8_matmul,
            "cnn_train": build_cnn_train, "linalg": build_linalg, "random": build_random,
            "argmax": build_argmax}
# Each kind's PRNG seed: the first six in their old (sorted) order, so their inputs stay as
# they were; new kinds after them.
SEEDS = {k: i for i, k in enumerate(
    ["cnn", "embed_update", "mlp", "mlp_train", "rnn", "transformer", "vit", "conv_decoder",
     "conv1d", "gnn", "moe", "fft_filter", "cumulative", "int8_matmul", "cnn_train", "linalg",
     "random", "argmax"])}
DTYPES = {"f32": jnp.float32, "bf16": jnp.bfloat16, "f16": jnp.float16}


def build(kind, size, dtype, abstract=False):
    """Returns (flat_fn, flat_inputs, arg_names): flat_fn(*flat_inputs) -> tuple of arrays.
    With abstract=True the inputs are jax.ShapeDtypeStructs and nothing is computed (bench/run's
    XLA:CPU peer wants only the function: it loads the inputs from the .npy files)."""
    key = jax.random.PRNGKey(SEEDS[kind] * 10 + SIZES.index(size))
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
    rtol, atol = tolerance(kind, dtype)
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
