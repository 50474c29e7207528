"""Programs beyond the zoo (issue 11): single JAX operations and small blocks that real models
use and the zoo does not time on their own, on Kiln's cpu device against XLA:CPU.

Started by bench/beyond.sh (bench/run --beyond), which sets up the pinned Python
environment and builds Kiln first:
    bench/beyond.sh [--kiln PATH] [--only NAME,...] [--rounds N]

Each program (programs() below: float32 inputs from a seeded generator; then programs_x64(),
run with jax_enable_x64: f64, i64 and complex128 as scientific code uses them) is lowered by jax.jit
to StableHLO text, its inputs saved as .npy, into bench/models/beyond/. Per round:
  Kiln      `kiln bench PROGRAM --input ...` (its default settings; the compile cache off),
            its median.
  XLA:CPU   the jitted function in this process, its inputs put on the device once (as
            `kiln bench` has them), called until a second has passed (at least 20 calls)
            after one warm-up call; the median. (Before 2026-12-07's twelfth session the
            calls took NumPy arrays and so also timed copying the inputs in.)
The table gives the medians of --rounds rounds (default 3), Kiln / XLA:CPU, how many ops
Kiln interpreted, and Kiln's results (`kiln run`) against XLA:CPU's: floats within 1e-3 of
the largest magnitude with NaNs in the same places, integers exactly. XLA:CPU's own time
swings between rounds on these machines (its segment_sum read 0.48 and 1.3 ms in one
session), hence the rounds. Exit status 1 when a program failed or a result differed.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import peers  # noqa: E402
import tiers  # noqa: E402  (load_avg)

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

OUT = os.path.join(HERE, "beyond")


def adam(params, grads, m, v):
    b1, b2, lr = 0.9, 0.999, 1e-3
    m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
    return jax.tree_util.tree_map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + 1e-8), params, m, v)

def per_example_grads(w, x, y):
    loss = lambda w, x, y: jnp.sum((jnp.tanh(x @ w) - y) ** 2)
    return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, x, y)

def newton_sqrt(x):
    def cond(c): return jnp.max(jnp.abs(c[0] * c[0] - x)) > 1e-3
    def body(c): return ((c[0] + x / c[0]) * 0.5, c[1] + 1)
    return lax.while_loop(cond, body, (x, 0))

def top_p(logits, key):
    p = jax.nn.softmax(logits, -1)
    s = jnp.sort(p, -1)[:, ::-1]
    c = jnp.cumsum(s, -1)
    thr = jnp.take_along_axis(s, jnp.argmax(c > 0.9, -1)[:, None], -1)
    masked = jnp.where(p >= thr, logits, -jnp.inf)
    return jax.random.categorical(jax.random.wrap_key_data(key), masked)

def gru_scan(h0, xs, wz, uz, wr, ur, wh, uh):
    def step(h, x):
        z = jax.nn.sigmoid(x @ wz + h @ uz); r = jax.nn.sigmoid(x @ wr + h @ ur)
        hh = jnp.tanh(x @ wh + (r * h) @ uh); h = (1 - z) * h + z * hh
        return h, h
    return lax.scan(step, h0, xs)[1]

def resblock_grad(w1, w2, x):
    def f(w1, w2, x):
        y = lax.conv_general_dilated(x, w1, (1,1), "SAME", dimension_numbers=("NHWC","HWIO","NHWC"))
        m = y.mean((0,1,2)); v = y.var((0,1,2)); y = jax.nn.relu((y - m) * lax.rsqrt(v + 1e-5))
        y = lax.conv_general_dilated(y, w2, (1,1), "SAME", dimension_numbers=("NHWC","HWIO","NHWC"))
        return jnp.sum((y + x) ** 2)
    return jax.grad(f, argnums=(0, 1))(w1, w2, x)

def kv_decode(cache_k, cache_v, q, k, v, pos):
    ck = lax.dynamic_update_slice(cache_k, k, (0, pos, 0)); cv = lax.dynamic_update_slice(cache_v, v, (0, pos, 0))
    s = jnp.einsum("bd,btd->bt", q, ck) / 8.0
    s = jnp.where(jnp.arange(ck.shape[1])[None] <= pos, s, -1e9)
    return jnp.einsum("bt,btd->bd", jax.nn.softmax(s, -1), cv), ck, cv

def bf16_attn(q, k, v):
    q, k, v = (a.astype(jnp.bfloat16) for a in (q, k, v))
    s = jnp.einsum("bqd,bkd->bqk", q, k, preferred_element_type=jnp.float32) / 8
    p = jax.nn.softmax(s, -1).astype(jnp.bfloat16)
    return jnp.einsum("bqk,bkd->bqd", p, v, preferred_element_type=jnp.float32)

def xent_smooth_grad(h, w, y):
    def f(w):
        logits = h @ w; lp = jax.nn.log_softmax(logits)
        t = jax.nn.one_hot(y, w.shape[1]) * 0.9 + 0.1 / w.shape[1]
        return -jnp.mean(jnp.sum(t * lp, -1))
    return jax.grad(f)(w)

def beam_step(logp, scores):
    tot = (scores[:, :, None] + logp).reshape(scores.shape[0], -1)
    v, i = lax.top_k(tot, 8)
    return v, i // logp.shape[-1], i % logp.shape[-1]

def groupnorm(x, g):
    n, h, w, c = x.shape; xr = x.reshape(n, h, w, 8, c // 8)
    m = xr.mean((1, 2, 4), keepdims=True); v = xr.var((1, 2, 4), keepdims=True)
    return ((xr - m) * lax.rsqrt(v + 1e-5)).reshape(n, h, w, c) * g

def table_loop(tab, x):
    def body(i, acc): return acc + lax.dynamic_slice(tab, (i * 7 % 1000, 0), (1, 64))[0] * x
    return lax.fori_loop(0, 200, body, jnp.zeros(64))

def cnn_nchw(x, w1, g, b, w2, wd):
    y = lax.conv_general_dilated(x, w1, (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW"))
    y = (y - y.mean((0, 2, 3), keepdims=True)) * g[None, :, None, None] + b[None, :, None, None]
    y = jax.nn.relu(y)
    y = lax.reduce_window(y, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
    y = lax.conv_general_dilated(y, w2, (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW"))
    return jax.nn.relu(y).mean((2, 3)) @ wd

def rope_attn(q, k, v):
    t = q.shape[1]; d = q.shape[-1] // 2
    f = 1.0 / (10000 ** (jnp.arange(d) / d)); a = jnp.arange(t)[:, None] * f[None]
    c, s = jnp.cos(a)[None], jnp.sin(a)[None]
    rot = lambda x: jnp.concatenate([x[..., :d] * c - x[..., d:] * s, x[..., :d] * s + x[..., d:] * c], -1)
    q, k = rot(q), rot(k)
    return jax.nn.softmax(q @ jnp.swapaxes(k, 1, 2) / 8, -1) @ v

def unet_block(x, skip, w, g):
    y = jax.image.resize(x, (x.shape[0], x.shape[1] * 2, x.shape[2] * 2, x.shape[3]), "nearest")
    y = jnp.concatenate([y, skip], -1)
    y = lax.conv_general_dilated(y, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    n, h, wd, c = y.shape; yr = y.reshape(n, h, wd, 8, c // 8)
    yr = (yr - yr.mean((1, 2, 4), keepdims=True)) * lax.rsqrt(yr.var((1, 2, 4), keepdims=True) + 1e-5)
    return jax.nn.silu(yr.reshape(n, h, wd, c) * g)

def vae_loss_grad(w, x, key):
    def f(w):
        h = jnp.tanh(x @ w); mu, logv = h[:, :32], h[:, 32:]
        z = mu + jnp.exp(0.5 * logv) * jax.random.normal(jax.random.wrap_key_data(key), mu.shape)
        return jnp.mean(z ** 2) - 0.5 * jnp.mean(1 + logv - mu ** 2 - jnp.exp(logv))
    return jax.grad(f)(w)

def graph_attn(h, src, dst, a):
    e = jax.nn.leaky_relu((h[src] * a).sum(-1) + (h[dst] * a).sum(-1))
    m = jax.ops.segment_max(e, dst, 2048)
    p = jnp.exp(e - m[dst]); z = jax.ops.segment_sum(p, dst, 2048)
    return jax.ops.segment_sum((p / z[dst])[:, None] * h[src], dst, 2048)

def clip_loss(a, b):
    a = a / jnp.linalg.norm(a, axis=-1, keepdims=True); b = b / jnp.linalg.norm(b, axis=-1, keepdims=True)
    l = a @ b.T * 14.3; i = jnp.arange(l.shape[0])
    return (jax.nn.logsumexp(l, 1) - l[i, i]).mean() + (jax.nn.logsumexp(l, 0) - l[i, i]).mean()

def viterbi(em, tr):
    def step(s, e):
        x = s[:, None] + tr
        return x.max(0) + e, x.argmax(0)
    s, bp = lax.scan(step, em[0], em[1:])
    return s.max(), bp

def greedy_decode(w, e, h0):
    def cond(c): return c[2] < 32
    def body(c):
        h, toks, i = c
        logits = h @ w; t = jnp.argmax(logits, -1)
        h = jnp.tanh(e[t] + h)
        return h, toks.at[:, i].set(t), i + 1
    return lax.while_loop(cond, body, (h0, jnp.zeros((h0.shape[0], 32), jnp.int32), 0))[1]

def w8_matmul(x, wq, s):
    return x.astype(jnp.bfloat16) @ (wq.astype(jnp.bfloat16) * s.astype(jnp.bfloat16))

def matpow(a):
    return jnp.linalg.matrix_power(a, 13)

def scan_cond(x):
    def step(c, xi):
        c = lax.cond(xi > 0, lambda c: c * 0.9 + xi, lambda c: c - xi * 0.5, c)
        return c, c
    return lax.scan(step, jnp.zeros(()), x)[1]

def rbf(x, y):
    d = (x * x).sum(-1)[:, None] + (y * y).sum(-1)[None, :] - 2 * x @ y.T
    return jnp.exp(-0.5 * d)

def lorenz_rk4(s):
    def f(s):
        x, y, z = s[:, 0], s[:, 1], s[:, 2]
        return jnp.stack([10 * (y - x), x * (28 - z) - y, x * y - 8 / 3 * z], -1)
    def step(i, s):
        h = 0.002; k1 = f(s); k2 = f(s + h / 2 * k1); k3 = f(s + h / 2 * k2); k4 = f(s + h * k3)
        return s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return lax.fori_loop(0, 200, step, s)

def power_iter(a, v):
    def body(i, v):
        w = a @ v
        return w / jnp.linalg.norm(w)
    v = lax.fori_loop(0, 50, body, v)
    return v @ a @ v

def scan_layers(ws, x):
    return lax.scan(lambda h, w: (jnp.tanh(h @ w), None), x, ws)[0]

def logreg_grad(w, x, y):
    return jax.grad(lambda w: jnp.mean(jax.nn.softplus(-y * (x @ w))) + 1e-3 * jnp.sum(w * w))(w)

def clip_global_norm(g1, g2, g3):
    n = jnp.sqrt(sum(jnp.sum(g * g) for g in (g1, g2, g3)))
    s = jnp.minimum(1.0, 1.0 / (n + 1e-6))
    return g1 * s, g2 * s, g3 * s

def collatz_steps(x):
    def cond(c): return jnp.any(c[0] > 1)
    def body(c):
        v, n = c
        live = v > 1
        return jnp.where(live, jnp.where(v % 2 == 0, v // 2, 3 * v + 1), v), n + live
    return lax.while_loop(cond, body, (x, jnp.zeros_like(x)))[1]

def depthwise_grad_w(w, x):
    return jax.grad(lambda w: jnp.sum(lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=x.shape[-1]) ** 2))(w)

def returns_scan(r):
    return lax.scan(lambda c, x: (x + 0.99 * c, x + 0.99 * c), jnp.zeros(r.shape[1]), r, reverse=True)[1]

def linear_recurrence(a, b):
    return lax.associative_scan(lambda p, q: (p[0] * q[0], q[0] * p[1] + q[1]), (a, b), axis=1)[1]

def blocked_attention(q, k, v):
    def body(i, c):
        m, l, o = c
        kb, vb = lax.dynamic_slice_in_dim(k, i * 128, 128), lax.dynamic_slice_in_dim(v, i * 128, 128)
        s = q @ kb.T / 8
        mn = jnp.maximum(m, s.max(-1))
        p = jnp.exp(s - mn[:, None])
        sc = jnp.exp(m - mn)
        return mn, l * sc + p.sum(-1), o * sc[:, None] + p @ vb
    n = q.shape[0]
    m, l, o = lax.fori_loop(0, k.shape[0] // 128, body, (jnp.full(n, -jnp.inf), jnp.zeros(n), jnp.zeros_like(q)))
    return o / l[:, None]

def bisect_sqrt(y):
    def cond(c): return jnp.any(c[1] - c[0] > 1e-5)
    def body(c):
        lo, hi = c
        mid = (lo + hi) / 2
        big = mid * mid > y
        return jnp.where(big, lo, mid), jnp.where(big, mid, hi)
    lo, hi = lax.while_loop(cond, body, (jnp.zeros_like(y), jnp.maximum(y, 1.0)))
    return (lo + hi) / 2

def switch_layers(i, x, w):
    return lax.switch(i, [lambda x: jnp.tanh(x @ w), lambda x: jax.nn.relu(x @ w.T), lambda x: x * 2], x)

def remat_mlp_grad(w1, w2, x):
    f = jax.checkpoint(lambda w1, w2, x: jnp.tanh(jnp.tanh(x @ w1) @ w2))
    return jax.grad(lambda w1, w2: jnp.sum(f(w1, w2, x) ** 2), argnums=(0, 1))(w1, w2)

def fft_conv(x, k):
    n = x.shape[-1] + k.shape[-1] - 1
    return jnp.fft.irfft(jnp.fft.rfft(x, n) * jnp.fft.rfft(k, n), n)

def patchify_linear(x, w):
    b, h, wd, c = x.shape
    p = 8
    t = x.reshape(b, h // p, p, wd // p, p, c).transpose(0, 1, 3, 2, 4, 5).reshape(b, (h // p) * (wd // p), p * p * c)
    return t @ w

def pixel_shuffle(x):
    b, h, w, c = x.shape
    r = 2
    return x.reshape(b, h, w, r, r, c // 4).transpose(0, 1, 3, 2, 4, 5).reshape(b, h * r, w * r, c // 4)

def ce_grad_vocab(h, w, y):
    def loss(w):
        logits = h @ w
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], 1))
    return jax.grad(loss)(w)

def euler_adaptive(y0):
    def cond(c): return c[1] < 1.0
    def body(c):
        y, t, dt = c
        f = -y + jnp.sin(t)
        y1 = y + dt * f
        y2 = y + dt / 2 * f
        y2 = y2 + dt / 2 * (-y2 + jnp.sin(t + dt / 2))
        err = jnp.max(jnp.abs(y1 - y2))
        ok = err < 1e-4
        return jnp.where(ok, y2, y), jnp.where(ok, t + dt, t), jnp.clip(dt * jnp.where(ok, 1.5, 0.5), 1e-4, 0.1)
    return lax.while_loop(cond, body, (y0, 0.0, 0.01))[0]

def newton_vmap(a):
    def solve(a):
        def cond(c): return jnp.abs(c[0] ** 3 - a) > 1e-5
        def body(c): return (c[0] - (c[0] ** 3 - a) / (3 * c[0] ** 2), c[1] + 1)
        return lax.while_loop(cond, body, (a + 1.0, 0))[0]
    return jax.vmap(solve)(a)

def maxpool_grad_s1(x):
    return jax.grad(lambda x: jnp.sum(lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 1, 1, 1), "SAME") ** 2))(x)


def lstm_scan(xs, w, u):
    """An LSTM over 200 steps at batch 8: x @ w for every step at once, h @ u each step."""
    def step(c, x):
        h, cc = c
        i, f, g, o = jnp.split(x @ w + h @ u, 4, -1)
        cc = jax.nn.sigmoid(f) * cc + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(cc)
        return (h, cc), h
    return lax.scan(step, (jnp.zeros((8, 64)), jnp.zeros((8, 64))), xs)[1]

def conv_bn_relu_grad(w, x):
    def loss(w):
        y = lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jnp.sum(jax.nn.relu((y - y.mean((0, 1, 2))) * lax.rsqrt(y.var((0, 1, 2)) + 1e-5)))
    return jax.grad(loss)(w)

def pendulum_euler(y):
    def step(i, y):
        return y + 0.001 * jnp.stack([y[:, 1], -jnp.sin(y[:, 0]) - 0.1 * y[:, 1]], -1)
    return lax.fori_loop(0, 100, step, y)

def mlp_grad(w1, w2, x, y):
    return jax.grad(lambda w1, w2: jnp.mean((jnp.tanh(x @ w1) @ w2 - y) ** 2), argnums=(0, 1))(w1, w2)


def rk4_small(y0):
    """1,000 RK4 steps of a 3-vector state stacked from its components (an ODE as users write it)."""
    def f(y):
        return jnp.stack([y[1], -y[0] - 0.1 * y[1] + 0.5 * jnp.sin(y[2]), 0.3 * jnp.ones(())])
    def step(i, y):
        h = 0.01
        k1 = f(y)
        k2 = f(y + h / 2 * k1)
        k3 = f(y + h / 2 * k2)
        k4 = f(y + h * k3)
        return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return lax.fori_loop(0, 1000, step, y0)

def mandelbrot(cr, ci):
    c = cr + 1j * ci
    def step(i, s):
        z, n = s
        z = z * z + c
        return z, n + (jnp.abs(z) < 2).astype(jnp.int32)
    return lax.fori_loop(0, 40, step, (jnp.zeros_like(c), jnp.zeros(c.shape, jnp.int32)))[1]

def game_of_life(x):
    def step(i, g):
        n = sum(jnp.roll(jnp.roll(g, a, 0), b, 1) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0))
        return ((n == 3) | ((g == 1) & (n == 2))).astype(jnp.float32)
    return lax.fori_loop(0, 20, step, (x > 0.5).astype(jnp.float32))

def heat_stencil(u):
    def step(i, u):
        lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
        return u.at[1:-1, 1:-1].add(0.1 * lap)
    return lax.fori_loop(0, 100, step, u)

def nbody(p, v):
    def step(i, s):
        p, v = s
        d = p[None, :, :] - p[:, None, :]
        r2 = (d * d).sum(-1) + 0.01
        v = v + 0.001 * (d / r2[..., None] ** 1.5).sum(1)
        return p + 0.001 * v, v
    return lax.fori_loop(0, 10, step, (p, v))

def kmeans(x, c):
    def step(i, c):
        d = (x * x).sum(1)[:, None] - 2 * x @ c.T + (c * c).sum(1)[None]
        a = jnp.argmin(d, 1)
        n = jax.ops.segment_sum(jnp.ones(x.shape[0], x.dtype), a, 64)
        return jax.ops.segment_sum(x, a, 64) / jnp.maximum(n, 1)[:, None]
    return lax.fori_loop(0, 5, step, c)


def programs_x64():
    """name -> (function, inputs) of programs that run with jax_enable_x64 (f64, i64,
    complex128: scientific JAX code), run after every other program (main)."""
    rng = np.random.default_rng(1)

    def f64(*shape, scale=1.0):
        return rng.standard_normal(shape) * scale

    return {
        "f64_matmul": (lambda a, b: a @ b, [f64(512, 512), f64(512, 512)]),
        "f64_inv": (jnp.linalg.inv, [f64(256, 256) + 16 * np.eye(256)]),
        "f64_solve": (jnp.linalg.solve, [f64(256, 256) + 16 * np.eye(256), f64(256, 8)]),
        "f64_cholesky": (lambda a: jnp.linalg.cholesky(a @ a.T + 64 * jnp.eye(256)), [f64(256, 256)]),
        "f64_qr": (lambda a: jnp.linalg.qr(a)[1], [f64(256, 256)]),
        "f64_eigh": (lambda a: jnp.linalg.eigh(a + a.T)[0], [f64(128, 128)]),
        "f64_conv": (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
                     [f64(8, 64, 64, 16), f64(3, 3, 16, 32)]),
        "f64_softmax": (lambda x: jax.nn.softmax(x, -1), [f64(1024, 1024)]),
        "f64_cumsum": (lambda x: jnp.cumsum(x, axis=-1), [f64(1024, 1024)]),
        "f64_sort": (lambda x: jnp.sort(x, -1), [f64(256, 4096)]),
        "f64_fft": (lambda x: jnp.fft.fft(x), [f64(256, 1024)]),
        "f64_pendulum": (pendulum_euler, [f64(4096, 2)]),
        "f64_mlp_grad": (mlp_grad, [f64(256, 512, scale=0.05), f64(512, 10, scale=0.05), f64(512, 256), f64(512, 10)]),
        "f64_scan_rnn": (lambda xs, w: lax.scan(lambda h, x: (jnp.tanh(h @ w + x), h), jnp.zeros((16, 64)), xs)[0],
                         [f64(100, 16, 64), f64(64, 64, scale=0.1)]),
        "i64_arith": (lambda a, b: (a * 3 + b // 7) % 1000 + (a ^ b),
                      [rng.integers(-1000000, 1000000, (1024, 1024)), rng.integers(1, 1000000, (1024, 1024))]),
        "c128_mul_exp": (lambda a, b: jnp.exp(1j * a) * (a + 1j * b), [f64(1024, 1024), f64(1024, 1024)]),
        "c128_matmul": (lambda a, b: a @ b, [f64(256, 256) + 1j * f64(256, 256), f64(256, 256) + 1j * f64(256, 256)]),
        "f64_heat": (heat_stencil, [f64(512, 512)]),
        "f64_lu": (lambda a: jax.scipy.linalg.lu(a), [f64(256, 256)]),
        "f64_newton_scalar": (lambda x: lax.while_loop(lambda c: jnp.abs(c * c - x) > 1e-12, lambda c: 0.5 * (c + x / c), x),
                              [np.float64(2.0)]),
        "f64_kmeans": (kmeans, [f64(8192, 16), f64(64, 16)]),
        # complex64's Mandelbrot set is left out: its escape counts differ from XLA:CPU's at 2
        # boundary points of 262,144 (the roundings of a chaotic iteration), which the exact
        # integer check refuses; in f64 they agree
        "f64_mandelbrot": (mandelbrot, [np.linspace(-2, 1, 512 * 512).reshape(512, 512),
                                        np.linspace(-1.5, 1.5, 512 * 512).reshape(512, 512).T.copy()]),
    }


def programs():
    """name -> (function, inputs)."""
    rng = np.random.default_rng(0)

    def f32(*shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    def ints(hi, *shape):
        return rng.integers(0, hi, shape).astype(np.int32)

    return {
        "layernorm": (lambda x: (x - x.mean(-1, keepdims=True)) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5),
                      [f32(512, 1024)]),
        "softmax_xent": (lambda x, y: -jnp.sum(jax.nn.log_softmax(x) * jax.nn.one_hot(y, 1000), -1).mean(),
                         [f32(256, 1000), ints(1000, 256)]),
        "causal_attention": (lambda q, k, v: jax.nn.softmax(
            jnp.where(jnp.tril(jnp.ones((256, 256), bool)), q @ k.T / 8, -1e9)) @ v,
            [f32(256, 64), f32(256, 64), f32(256, 64)]),
        "gelu_exact": (lambda x: jax.nn.gelu(x, approximate=False), [f32(256, 4096, scale=2)]),
        "gelu_tanh_mlp": (lambda x, w: jax.nn.gelu(x @ w), [f32(256, 1024), f32(1024, 1024, scale=0.03)]),
        "erf": (lax.erf, [f32(256, 4096, scale=2)]),
        "sinh": (jnp.sinh, [f32(256, 4096, scale=2)]),
        "logsumexp": (lambda x: jax.nn.logsumexp(x, axis=-1), [f32(1024, 1024)]),
        "rmsnorm_rotate": (lambda x, c, s: (x * lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6)) * c
                           + jnp.roll(x, 32, -1) * s, [f32(512, 64), f32(512, 64), f32(512, 64)]),
        "cumsum": (lambda x: jnp.cumsum(x, axis=1), [f32(256, 4096)]),
        "top_k": (lambda x: lax.top_k(x, 16), [f32(512, 2048)]),
        "sort": (lambda x: jnp.sort(x, axis=-1), [f32(256, 4096)]),
        "argsort": (lambda x: jnp.argsort(x, axis=-1), [f32(256, 1024)]),
        "segment_sum": (lambda x, i: jax.ops.segment_sum(x, i, 512), [f32(65536, 32), ints(512, 65536)]),
        "scatter_add": (lambda x, i, u: x.at[i].add(u), [f32(4096, 64), ints(4096, 8192), f32(8192, 64)]),
        "gather_rows": (lambda e, i: e[i], [f32(50000, 128), ints(50000, 4096)]),
        "avg_pool": (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") / 9,
                     [f32(16, 64, 64, 32)]),
        "max_pool_grad": (lambda x: jax.grad(lambda y: lax.reduce_window(
            y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID").sum())(x), [f32(16, 64, 64, 32)]),
        "conv_transpose": (lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME",
                                                           dimension_numbers=("NHWC", "HWIO", "NHWC")),
                           [f32(8, 32, 32, 64), f32(3, 3, 64, 32, scale=0.1)]),
        "batched_matmul": (lambda a, b: jnp.einsum("bij,bjk->bik", a, b), [f32(64, 128, 64), f32(64, 64, 128)]),
        "transpose": (lambda x: x.T + 1, [f32(4096, 4096)]),
        "sum_all": (lambda x: x.sum(), [f32(4096, 4096)]),
        "column_softmax": (lambda x: jax.nn.softmax(x, axis=0), [f32(2048, 1024)]),
        "fori_small": (lambda x: lax.fori_loop(0, 100, lambda i, c: jnp.tanh(c * 0.99 + 0.01), x), [f32(1024)]),
        "resize": (lambda x: jax.image.resize(x, (8, 128, 128, 16), "bilinear"), [f32(8, 64, 64, 16)]),
        "batchnorm_train": (lambda x, g: (x - x.mean(0)) * lax.rsqrt(x.var(0) + 1e-5) * g, [f32(4096, 512), f32(512)]),
        "conv_nchw": (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW")),
                      [f32(8, 64, 32, 32), f32(64, 64, 3, 3, scale=0.1)]),
        "complex_matmul": (lambda a, b: (a + 1j * b) @ (b - 1j * a), [f32(256, 256), f32(256, 256)]),
        "int_matmul": (lambda a, b: a @ b, [ints(100, 256 * 512).reshape(256, 512), ints(100, 512 * 256).reshape(512, 256)]),
        "take_along_axis": (lambda x, i: jnp.take_along_axis(x, i, axis=1), [f32(1024, 512), ints(512, 1024 * 64).reshape(1024, 64)]),
        "searchsorted": (lambda s, q: jnp.searchsorted(s, q), [np.sort(f32(4096)), f32(1 << 20)]),
        "tiny_batched_matmul": (lambda a, b: jnp.einsum("bij,bjk->bik", a, b), [f32(100000, 3, 3), f32(100000, 3, 3)]),
        "int_divmod": (lambda a, b: (a // b) + (a % b), [ints(1 << 20, 1 << 20) - (1 << 19), ints(97, 1 << 20) + 1]),
        "mask_any": (lambda x: (x > 3.5).any(axis=1), [f32(4096, 1024)]),
        "attention_heads": (lambda q, k: jax.nn.softmax(jnp.einsum("bhqd,bhkd->bhqk", q, k) / 8, axis=-1),
                            [f32(4, 8, 128, 64), f32(4, 8, 128, 64)]),
        "dropout": (lambda k, x: jnp.where(jax.random.bernoulli(jax.random.wrap_key_data(k), 0.9, x.shape),
                                           x / 0.9, 0),
                    [np.asarray(jax.random.key_data(jax.random.PRNGKey(0))), f32(512, 1024)]),
        # 2026-12-05: blocks of real models and library functions, each result checked
        "depthwise_conv": (lambda x, w: lax.conv_general_dilated(x, w, (1,1), "SAME", dimension_numbers=("NHWC","HWIO","NHWC"), feature_group_count=64), [f32(8,56,56,64), f32(3,3,1,64)]),
        "atrous_conv": (lambda x, w: lax.conv_general_dilated(x, w, (1,1), "SAME", rhs_dilation=(2,2), dimension_numbers=("NHWC","HWIO","NHWC")), [f32(4,64,64,32), f32(3,3,32,32, scale=0.1)]),
        "strided_conv_nchw": (lambda x, w: lax.conv_general_dilated(x, w, (2,2), ((1,0),(1,0)), dimension_numbers=("NCHW","OIHW","NCHW")), [f32(8,32,64,64), f32(64,32,3,3, scale=0.1)]),
        "per_example_grads": (per_example_grads, [f32(128,64, scale=0.1), f32(256,128), f32(256,64)]),
        "linalg_inv": (jnp.linalg.inv, [f32(64,64) + 8*np.eye(64, dtype=np.float32)]),
        "slogdet": (lambda a: jnp.linalg.slogdet(a)[1], [f32(16,32,32) + 6*np.eye(32, dtype=np.float32)]),
        "solve_batched": (jnp.linalg.solve, [f32(32,16,16) + 5*np.eye(16, dtype=np.float32), f32(32,16,4)]),
        "one_hot_embed": (lambda i, e: jax.nn.one_hot(i, 1000) @ e, [ints(1000, 512), f32(1000, 128)]),
        "xent_grad": (jax.grad(lambda x, y: -jnp.sum(jax.nn.log_softmax(x) * jax.nn.one_hot(y, 1000))), [f32(256,1000), ints(1000,256)]),
        "assoc_scan": (lambda x: lax.associative_scan(jnp.add, x, axis=1), [f32(64, 4096)]),
        "pad_reflect_flip": (lambda x: jnp.flip(jnp.pad(x, ((0,0),(3,3),(3,3),(0,0)), mode="reflect"), 1), [f32(8,64,64,16)]),
        "bincount": (lambda i: jnp.bincount(i, length=1024), [ints(1024, 1 << 18)]),
        "fft2_conv": (lambda a, b: jnp.fft.irfft2(jnp.fft.rfft2(a) * jnp.fft.rfft2(b), s=a.shape[-2:]), [f32(8,128,128), f32(8,128,128)]),
        "einsum_chain": (lambda a, b, c: jnp.einsum("ij,jk,kl->il", a, b, c), [f32(256,512), f32(512,128), f32(128,512)]),
        "adam_step": (adam, [[f32(512,512), f32(512), f32(1024,256)], [f32(512,512), f32(512), f32(1024,256)], [f32(512,512), f32(512), f32(1024,256)], [np.abs(f32(512,512)), np.abs(f32(512)), np.abs(f32(1024,256))]]),
        "gumbel_argmax": (lambda k, l: jnp.argmax(l + jax.random.gumbel(jax.random.wrap_key_data(k), l.shape), -1), [np.asarray(jax.random.key_data(jax.random.PRNGKey(3))), f32(256, 1000)]),
        "median": (lambda x: jnp.median(x, axis=-1), [f32(512, 1001)]),
        "percentile": (lambda x: jnp.percentile(x, jnp.array([5., 50., 95.]), axis=0), [f32(2000, 64)]),
        "newton_sqrt": (newton_sqrt, [np.abs(f32(4096)) + 0.5]),
        "interp": (lambda xq, xp, fp: jnp.interp(xq, xp, fp), [f32(100000), np.sort(f32(512)), f32(512)]),
        "quantize": (lambda x, s: (jnp.clip(jnp.round(x / s), -128, 127).astype(jnp.int8).astype(jnp.float32) * s), [f32(1024, 1024), np.float32(0.02)]),
        "bf16_mlp_pref": (lambda x, w: lax.dot_general(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), (((1,),(0,)),((),())), preferred_element_type=jnp.float32), [f32(256, 1024), f32(1024, 1024)]),
        "cov": (lambda x: jnp.cov(x), [f32(64, 4096)]),
        "nan_stats": (lambda x: (jnp.sum(jnp.isnan(x)), jnp.nan_to_num(x, nan=0.0, posinf=1.0).sum(-1)), [np.where(f32(512,512) > 2, np.nan, f32(512,512)).astype(np.float32)]),
        "top_p": (top_p, [f32(16, 32000), np.asarray(jax.random.key_data(jax.random.PRNGKey(5)))]),
        "unique_sized": (lambda x: jnp.unique(x, size=256, fill_value=-1), [ints(300, 10000)]),
        "dot_attention": (lambda q, k, v: jax.nn.dot_product_attention(q, k, v, is_causal=True), [f32(2,256,8,64), f32(2,256,8,64), f32(2,256,8,64)]),
        "layernorm_grad": (jax.grad(lambda x, g: jnp.sum(((x - x.mean(-1, keepdims=True)) * lax.rsqrt(x.var(-1, keepdims=True) + 1e-5) * g) ** 2)), [f32(512, 768), f32(768)]),
        "conv_grad_w": (jax.grad(lambda w, x: jnp.sum(lax.conv_general_dilated(x, w, (1,1), "SAME", dimension_numbers=("NHWC","HWIO","NHWC")) ** 2)), [f32(3,3,32,64, scale=0.1), f32(8,32,32,32)]),
        "max_pool_same": (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1,3,3,1), (1,2,2,1), "SAME"), [f32(16,64,64,32)]),
        "cumprod_rev": (lambda x: jnp.flip(jnp.cumprod(jnp.flip(x, 1), 1), 1), [1 + 0.01 * f32(256, 1024)]),
        "sort_kv": (lambda k, v: lax.sort((k, v), num_keys=1), [f32(64, 2048), ints(100, 64, 2048)]),
        "int_bitops": (lambda a, b: ((a ^ b) >> 3) | (a << 2) & lax.population_count(b), [ints(1 << 30, 1 << 20), ints(1 << 30, 1 << 20)]),
        "softplus_logsig": (lambda x: jax.nn.softplus(x) + jax.nn.log_sigmoid(x) + jax.nn.silu(x), [f32(1024, 1024, scale=3)]),
        "rem_f": (lambda x, y: jnp.remainder(x, y) + jnp.fmod(x, y), [f32(1024, 1024, scale=10), f32(1024, 1024) + 3]),
        "expm1_log1p": (lambda x: jnp.expm1(x) * jnp.log1p(jnp.abs(x)), [f32(1024, 1024)]),
        "atan2_hypot": (lambda x, y: jnp.arctan2(y, x) + jnp.hypot(x, y), [f32(1024, 1024), f32(1024, 1024)]),
        "gru_scan": (gru_scan, [f32(32, 256, scale=0.1), f32(100, 32, 128)] + [f32(128, 256, scale=0.05), f32(256, 256, scale=0.05)] * 3),
        "resblock_grad": (resblock_grad, [f32(3,3,32,32, scale=0.1), f32(3,3,32,32, scale=0.1), f32(8,32,32,32)]),
        "gemv_decode": (lambda x, w1, w2: jax.nn.gelu(x @ w1) @ w2, [f32(1, 4096), f32(4096, 4096, scale=0.02), f32(4096, 4096, scale=0.02)]),
        "col_sum_large": (lambda x: (jnp.sum(x, axis=0), jnp.max(x, axis=0)), [f32(8192, 2048)]),
        "kv_decode": (kv_decode, [f32(8,1024,64), f32(8,1024,64), f32(8,64), f32(8,1,64), f32(8,1,64), np.int32(500)]),
        "bf16_attn": (bf16_attn, [f32(8,256,64), f32(8,256,64), f32(8,256,64)]),
        "blur_nchw": (lambda x, w: lax.conv_general_dilated(x, w, (1,1), "SAME", dimension_numbers=("NCHW","OIHW","NCHW"), feature_group_count=3), [f32(8,3,256,256), f32(3,1,5,5, scale=0.2)]),
        "eigh": (lambda a: jnp.linalg.eigh(a + a.T)[0], [f32(64, 64)]),
        "svd": (lambda a: jnp.linalg.svd(a, compute_uv=False), [f32(128, 64)]),
        "qr": (lambda a: jnp.linalg.qr(a)[1], [f32(256, 128)]),
        "lse_axis0": (lambda x: jax.nn.logsumexp(x, axis=0), [f32(8192, 512)]),
        "huber_grad": (jax.grad(lambda p, t: jnp.mean(jnp.where(jnp.abs(p - t) < 1, 0.5 * (p - t) ** 2, jnp.abs(p - t) - 0.5))), [f32(1024, 1024), f32(1024, 1024)]),
        "correlate_full": (lambda a, b: jnp.correlate(a, b, mode="full"), [f32(65536), f32(255)]),
        "img_normalize": (lambda x: (x - x.mean((0,1,2))) / (x.std((0,1,2)) + 1e-6), [f32(32, 64, 64, 3)]),
        "embedding_bag": (lambda e, i, s: jax.ops.segment_sum(e[i], s, 1024), [f32(20000, 64), ints(20000, 16384), np.sort(ints(1024, 16384))]),
        "pairwise_dist": (lambda x, y: jnp.sum((x[:, None, :] - y[None, :, :]) ** 2, -1), [f32(512, 64), f32(512, 64)]),
        "xent_smooth_grad": (xent_smooth_grad, [f32(256, 512), f32(512, 8192, scale=0.05), ints(8192, 256)]),
        "beam_step": (beam_step, [f32(8, 8, 4096), f32(8, 8)]),
        "cummax": (lambda x: lax.cummax(x, axis=1), [f32(256, 4096)]),
        "window_sum_1d": (lambda x: lax.reduce_window(x, 0.0, lax.add, (64,), (1,), "VALID"), [f32(1 << 20)]),
        "conv3d": (lambda x, w: lax.conv_general_dilated(x, w, (1,1,1), "SAME", dimension_numbers=("NDHWC","DHWIO","NDHWC")), [f32(2,16,32,32,16), f32(3,3,3,16,32, scale=0.1)]),
        "inv3x3_batched": (jnp.linalg.inv, [f32(1000, 3, 3) + 3 * np.eye(3, dtype=np.float32)]),
        "sort_i32": (jnp.sort, [ints(1 << 30, 1 << 20)]),
        "argsort_ties": (lambda x: jnp.argsort(x, stable=True), [ints(16, 1 << 18)]),
        "round2": (lambda x: jnp.round(x, 2), [f32(1024, 1024)]),
        "polyval": (lambda x: jnp.polyval(jnp.arange(11.0), x), [f32(1 << 20)]),
        "gelu_bf16": (lambda x: jax.nn.gelu(x.astype(jnp.bfloat16)), [f32(1024, 1024)]),
        "masked_mean": (lambda x, m: jnp.where(m, x, 0).sum(-1) / m.sum(-1), [f32(4096, 512), (f32(4096, 512) > 0)]),
        "wavenet_conv": (lambda x, w: lax.conv_general_dilated(x, w, (1,), ((16, 0),), rhs_dilation=(8,), dimension_numbers=("NWC","WIO","NWC")), [f32(8, 4096, 64), f32(3, 64, 64, scale=0.1)]),
        "groupnorm": (groupnorm, [f32(8, 32, 32, 64), f32(64)]),
        "table_loop": (table_loop, [f32(1000, 64), f32(64)]),
        "cnn_nchw": (cnn_nchw, [f32(16, 3, 64, 64), f32(32, 3, 3, 3, scale=0.2), f32(32), f32(32), f32(64, 32, 3, 3, scale=0.1), f32(64, 10)]),
        "rope_attn": (rope_attn, [f32(8, 256, 64), f32(8, 256, 64), f32(8, 256, 64)]),
        "unet_block": (unet_block, [f32(4, 16, 16, 32), f32(4, 32, 32, 32), f32(3, 3, 64, 32, scale=0.1), f32(32)]),
        "vae_loss_grad": (vae_loss_grad, [f32(512, 64, scale=0.05), f32(256, 512), np.asarray(jax.random.key_data(jax.random.PRNGKey(7)))]),
        "graph_attn": (graph_attn, [f32(2048, 64), ints(2048, 16384), ints(2048, 16384), f32(64)]),
        "clip_loss": (clip_loss, [f32(512, 256), f32(512, 256)]),
        "viterbi": (viterbi, [f32(200, 64), f32(64, 64)]),
        "greedy_decode": (greedy_decode, [f32(128, 1000, scale=0.1), f32(1000, 128), f32(16, 128)]),
        "w8_matmul": (w8_matmul, [f32(256, 1024), rng.integers(-127, 127, (1024, 1024)).astype(np.int8), f32(1024, scale=0.01)]),
        "fft2_complex": (lambda x: jnp.fft.ifft2(jnp.fft.fft2(x) * 0.5), [(f32(16, 128, 128) + 1j * f32(16, 128, 128)).astype(np.complex64)]),
        "avg_pool_valid_count": (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME") / lax.reduce_window(jnp.ones_like(x), 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME"), [f32(8, 64, 64, 32)]),
        "cum_logsumexp": (lambda x: lax.associative_scan(jnp.logaddexp, x, axis=1), [f32(64, 1024)]),
        "maxpool1d_nwc": (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 4, 1), (1, 2, 1), "VALID"), [f32(16, 8192, 64)]),
        "random_normal_1m": (lambda k: jax.random.normal(jax.random.wrap_key_data(k), (1024, 1024)), [np.asarray(jax.random.key_data(jax.random.PRNGKey(11)))]),
        "truncated_normal": (lambda k: jax.random.truncated_normal(jax.random.wrap_key_data(k), -2.0, 2.0, (512, 512)), [np.asarray(jax.random.key_data(jax.random.PRNGKey(12)))]),
        "erfinv_f32": (lambda x: jax.scipy.special.erfinv(x), [np.clip(f32(1024, 1024) * 0.4, -0.999, 0.999)]),
        "lstsq": (lambda a, b: jnp.linalg.lstsq(a, b)[0], [f32(64, 16), f32(64, 4)]),
        "masked_softmax": (lambda x, m: jax.nn.softmax(jnp.where(m, x, -jnp.inf), -1), [f32(512, 512), (f32(512, 512) > -1.0)]),
        "histogram": (lambda x: jnp.histogram(x, bins=64, range=(-3, 3))[0], [f32(1 << 18)]),
        "matrix_power": (matpow, [f32(128, 128, scale=0.05)]),
        "scan_cond": (scan_cond, [f32(2000)]),
        "einsum_batched_chain": (lambda a, b, c: jnp.einsum("bij,bjk,bkl->bil", a, b, c), [f32(32, 64, 64), f32(32, 64, 64), f32(32, 64, 64)]),
        "kron": (lambda a, b: jnp.kron(a, b), [f32(32, 32), f32(32, 32)]),
        "tril_gather": (lambda x: x[jnp.tril_indices(256)], [f32(256, 256)]),
        "fftshift_roll": (lambda x: jnp.fft.fftshift(jnp.roll(x, (3, -5), (0, 1))), [f32(1024, 1024)]),
        "convolve_same_k5": (lambda x, k: jnp.convolve(x, k, mode="same"), [f32(1 << 20), f32(5)]),
        "conv_gray_3x3": (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")), [f32(16, 256, 256, 1), f32(3, 3, 1, 1)]),
        "cumsum_axis0": (lambda x: jnp.cumsum(x, axis=0), [f32(4096, 256)]),
        "dilated_window": (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 1, 1, 1), "SAME", window_dilation=(1, 2, 2, 1)), [f32(8, 64, 64, 32)]),
        "argmin_axis0": (lambda x: jnp.argmin(x, axis=0), [f32(4096, 1024)]),
        "gelu_grad": (jax.grad(lambda x: jax.nn.gelu(x).sum()), [f32(1024, 1024)]),
        "take_wrap": (lambda x, i: jnp.take(x, i, axis=0, mode="wrap"), [f32(1000, 64), ints(5000, 20000) - 2500]),
        "sliding_loop": (lambda x: lax.fori_loop(0, 64, lambda i, acc: acc + lax.dynamic_slice(x, (i, 0), (1024, 128)), jnp.zeros((1024, 128))), [f32(1088, 128)]),
        "rbf_kernel": (rbf, [f32(2048, 32), f32(2048, 32)]),
        "vmap_interp": (jax.vmap(lambda xq, xp, fp: jnp.interp(xq, xp, fp)), [f32(64, 4096), np.sort(f32(64, 256), -1), f32(64, 256)]),
        "solve_4x4_batched": (jnp.linalg.solve, [f32(4096, 4, 4) + 4 * np.eye(4, dtype=np.float32), f32(4096, 4, 1)]),
        # 2026-12-06: scientific loops, more linear algebra, batching-dim gathers and scatters
        "lorenz_rk4": (lorenz_rk4, [f32(1024, 3)]),
        "power_iter": (power_iter, [f32(512, 512) / 16, f32(512)]),
        "scan_layers": (scan_layers, [f32(8, 256, 256, scale=0.06), f32(64, 256)]),
        "expm": (jax.scipy.linalg.expm, [f32(64, 64, scale=0.1)]),
        "cho_solve": (lambda a, b: jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(a @ a.T + 256 * jnp.eye(256)), b), [f32(256, 256), f32(256, 32)]),
        "lu_solve": (lambda a, b: jax.scipy.linalg.lu_solve(jax.scipy.linalg.lu_factor(a), b), [f32(256, 256) + 16 * np.eye(256, dtype=np.float32), f32(256, 32)]),
        "solve_triangular": (lambda a, b: jax.scipy.linalg.solve_triangular(a, b, lower=True), [np.tril(f32(512, 512)) + 32 * np.eye(512, dtype=np.float32), f32(512, 64)]),
        "det_batched": (jnp.linalg.det, [f32(256, 8, 8) + 3 * np.eye(8, dtype=np.float32)]),
        "pinv": (jnp.linalg.pinv, [f32(128, 64)]),
        "eigvals_abs": (lambda a: jnp.sort(jnp.abs(jnp.linalg.eigvals(a))), [f32(48, 48)]),
        "gammaln_digamma": (lambda x: jax.scipy.special.gammaln(x) + jax.scipy.special.digamma(x), [np.abs(f32(1024, 1024)) * 5 + 0.1]),
        "logreg_grad": (logreg_grad, [f32(128), f32(4096, 128), np.sign(f32(4096))]),
        "clip_global_norm": (clip_global_norm, [f32(1024, 1024), f32(1024), f32(512, 256)]),
        "collatz": (collatz_steps, [ints(10000, 4096) + 1]),
        "random_permutation": (lambda k: jax.random.permutation(jax.random.wrap_key_data(k), 100000), [np.asarray(jax.random.key_data(jax.random.PRNGKey(13)))]),
        "random_choice_p": (lambda k, p: jax.random.choice(jax.random.wrap_key_data(k), 1000, (4096,), p=p), [np.asarray(jax.random.key_data(jax.random.PRNGKey(14))), (np.abs(f32(1000)) / np.abs(f32(1000)).sum()).astype(np.float32)]),
        "depthwise_grad_w": (depthwise_grad_w, [f32(3, 3, 1, 64, scale=0.1), f32(8, 32, 32, 64)]),
        "grouped_conv_s2": (lambda x, w: lax.conv_general_dilated(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=4), [f32(8, 64, 64, 64), f32(3, 3, 16, 64, scale=0.1)]),
        "vmap_dynamic_slice": (jax.vmap(lambda x, i: lax.dynamic_slice(x, (i,), (16,))), [f32(4096, 256), ints(240, 4096)]),
        "vmap_dus": (jax.vmap(lambda x, u, i: lax.dynamic_update_slice(x, u, (i,))), [f32(4096, 256), f32(4096, 16), ints(240, 4096)]),
        "cumsum_i32": (lambda x: jnp.cumsum(x, axis=1), [ints(100, 512, 4096)]),
        "rfft_1000": (lambda x: jnp.fft.rfft(x, axis=-1), [f32(256, 1000)]),
        "segment_max": (lambda x, i: jax.ops.segment_max(x, i, 1024), [f32(65536, 16), ints(1024, 65536)]),
        "softmax_f16": (lambda x: jax.nn.softmax(x.astype(jnp.float16), -1), [f32(1024, 1024)]),
        "convolve2d": (lambda x, k: jax.scipy.signal.convolve2d(x, k, mode="same"), [f32(256, 256), f32(7, 7)]),
        "map_coordinates": (lambda x, c: jax.scipy.ndimage.map_coordinates(x, [c[0], c[1]], order=1, mode="nearest"), [f32(512, 512), (np.abs(f32(2, 100000)) * 100).astype(np.float32)]),
        "sort_axis0": (lambda x: jnp.sort(x, axis=0), [f32(1024, 256)]),
        "reduce_precision": (lambda x: lax.reduce_precision(x, 5, 10) * 2, [f32(1024, 1024)]),
        "clz_shift": (lambda a: lax.clz(a) + lax.shift_right_logical(a, 7), [ints(1 << 30, 1 << 20)]),
        "where_chain": (lambda x, y: jnp.where(x > 0, jnp.where(y > 0, x * y, x - y), jnp.where(y > 1, y, -x)), [f32(1024, 1024), f32(1024, 1024)]),
        # 2026-12-06, later: samplers with loops inside, special functions, ragged products
        "random_gamma": (lambda k, a: jax.random.gamma(jax.random.wrap_key_data(k), a), [np.asarray(jax.random.key_data(jax.random.PRNGKey(21))), np.abs(f32(4096)) + 0.5]),
        "random_poisson": (lambda k: jax.random.poisson(jax.random.wrap_key_data(k), 3.5, (4096,)), [np.asarray(jax.random.key_data(jax.random.PRNGKey(22)))]),
        "random_beta": (lambda k: jax.random.beta(jax.random.wrap_key_data(k), 2.0, 5.0, (4096,)), [np.asarray(jax.random.key_data(jax.random.PRNGKey(23)))]),
        "i0e_i1e": (lambda x: jax.scipy.special.i0e(x) + jax.scipy.special.i1e(x), [f32(1024, 1024, scale=4)]),
        "ragged_dot": (lambda x, w, g: lax.ragged_dot(x, w, g), [f32(1024, 128), f32(8, 128, 256, scale=0.1), np.full(8, 128, np.int32)]),
        "segment_min_prod": (lambda x, i: (jax.ops.segment_min(x, i, 256), jax.ops.segment_prod(1 + 0.01 * x, i, 256)), [f32(65536, 8), ints(256, 65536)]),
        "sort_two_keys": (lambda a, b, v: lax.sort((a, b, v), num_keys=2), [ints(16, 1 << 16), f32(1 << 16), f32(1 << 16)]),
        "top_k_100": (lambda x: lax.top_k(x, 100), [f32(64, 8192)]),
        "f16_matmul": (lambda a, b: a.astype(jnp.float16) @ b.astype(jnp.float16), [f32(512, 512), f32(512, 512)]),
        "resize_cubic": (lambda x: jax.image.resize(x, (4, 96, 96, 8), "cubic"), [f32(4, 64, 64, 8)]),
        "stft": (lambda x: jax.scipy.signal.stft(x, nperseg=256)[2], [f32(4, 16384)]),
        "matrix_norm2": (lambda a: jnp.linalg.norm(a, ord=2), [f32(128, 128)]),
        "polyfit": (lambda x, y: jnp.polyfit(x, y, 5), [np.linspace(-1, 1, 2000).astype(np.float32), f32(2000)]),
        "selu_elu_glu": (lambda x: jax.nn.selu(x) + jax.nn.elu(x) + jax.nn.glu(jnp.concatenate([x, x], -1)), [f32(1024, 1024)]),
        "cumlogsumexp": (lambda x: lax.cumlogsumexp(x, axis=1), [f32(256, 2048)]),
        "unique_counts": (lambda x: jnp.unique_counts(x, size=512, fill_value=-1), [ints(400, 20000)]),
        # 2026-12-06 (sixth session): reverse scans and gradients of cumulative ops, recurrences,
        # blocked attention, data-dependent loops, 3-D and transposed 1-D convolutions, statistics
        "cumsum_grad": (jax.grad(lambda x: (jnp.cumsum(x, axis=1) ** 2).sum()), [f32(256, 2048)]),
        "cumlogsumexp_rev": (lambda x: lax.cumlogsumexp(x, axis=1, reverse=True), [f32(256, 2048)]),
        "cummax_rev_i32": (lambda x: lax.cummax(x, axis=0, reverse=True), [ints(1000, 2048, 256)]),
        "returns_scan": (returns_scan, [f32(1000, 64)]),
        "linear_recurrence": (linear_recurrence, [np.abs(f32(16, 1024, 32)) * 0.1 + 0.85, f32(16, 1024, 32)]),
        "blocked_attention": (blocked_attention, [f32(1024, 64), f32(1024, 64), f32(1024, 64)]),
        "bisect_sqrt": (bisect_sqrt, [np.abs(f32(65536)) * 10]),
        "switch_layers": (switch_layers, [np.int32(1), f32(256, 512), f32(512, 512, scale=0.05)]),
        "remat_mlp_grad": (remat_mlp_grad, [f32(512, 512, scale=0.05), f32(512, 512, scale=0.05), f32(256, 512)]),
        "conv3d": (lambda x, w: lax.conv_general_dilated(x, w, (1, 1, 1), "SAME", dimension_numbers=("NDHWC", "DHWIO", "NDHWC")), [f32(2, 16, 32, 32, 8), f32(3, 3, 3, 8, 16, scale=0.1)]),
        "conv1d_transpose": (lambda x, w: lax.conv_transpose(x, w, (2,), "SAME", dimension_numbers=("NWC", "WIO", "NWC")), [f32(8, 1024, 32), f32(4, 32, 16, scale=0.1)]),
        "avg_pool_same": (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") / lax.reduce_window(jnp.ones_like(x), 0.0, lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"), [f32(8, 64, 64, 32)]),
        "histogram": (lambda x: jnp.histogram(x, bins=64, range=(-3.0, 3.0))[0], [f32(1 << 20)]),
        "searchsorted": (lambda a, v: jnp.searchsorted(a, v), [np.sort(f32(4096)), f32(100000)]),
        "bincount": (lambda x: jnp.bincount(x, length=1000), [ints(1000, 1 << 20)]),
        "median_rows": (lambda x: jnp.median(x, axis=1), [f32(512, 1001)]),
        "nanstd": (lambda x: jnp.nanstd(jnp.where(x > 2, jnp.nan, x), axis=1), [f32(1024, 1024)]),
        "slogdet": (lambda a: jnp.linalg.slogdet(a)[1], [f32(64, 32, 32) + 4 * np.eye(32, dtype=np.float32)]),
        "inv_batched": (jnp.linalg.inv, [f32(256, 16, 16) + 4 * np.eye(16, dtype=np.float32)]),
        "lstsq": (lambda a, b: jnp.linalg.lstsq(a, b)[0], [f32(1000, 20), f32(1000)]),
        "bilinear_einsum": (lambda x, w, y: jnp.einsum("bi,oij,bj->bo", x, w, y), [f32(256, 64), f32(32, 64, 64), f32(256, 64)]),
        "kron": (jnp.kron, [f32(48, 48), f32(48, 48)]),
        "dropout": (lambda k, x: jnp.where(jax.random.bernoulli(jax.random.wrap_key_data(k), 0.9, x.shape), x / 0.9, 0), [np.asarray(jax.random.key_data(jax.random.PRNGKey(31))), f32(1024, 1024)]),
        "fft_conv": (fft_conv, [f32(64, 4000), f32(64, 97)]),
        "fft2_c64": (lambda x: jnp.fft.fft2(x.astype(jnp.complex64)), [f32(16, 128, 128)]),
        "erfinv_ndtri": (lambda u: jax.scipy.special.erfinv(u) + jax.scipy.special.ndtri((u + 1) / 2), [np.clip(f32(1024, 1024) / 3, -0.999, 0.999)]),
        "polygamma_zeta": (lambda x: jax.scipy.special.polygamma(1, x) + jax.scipy.special.zeta(x + 1.5, 2.0), [np.abs(f32(256, 256)) + 0.5]),
        "betainc": (lambda a, b, x: jax.scipy.special.betainc(a, b, x), [np.abs(f32(4096)) + 0.5, np.abs(f32(4096)) + 0.5, np.clip(np.abs(f32(4096)) / 3, 0.01, 0.99)]),
        "gammainc": (lambda a, x: jax.scipy.special.gammainc(a, x), [np.abs(f32(65536)) + 0.5, np.abs(f32(65536)) * 2]),
        # 2026-12-06 (sixth session, second batch): layouts, LM heads, indexing, integer and
        # complex arithmetic, FFTs, small batched linear algebra, adaptive and vmapped loops
        "patchify_linear": (patchify_linear, [f32(8, 64, 64, 3), f32(192, 256, scale=0.05)]),
        "pixel_shuffle": (pixel_shuffle, [f32(8, 64, 64, 64)]),
        "conv_patches": (lambda x: lax.conv_general_dilated_patches(x, (3, 3), (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")), [f32(4, 64, 64, 16)]),
        "layernorm_grad": (jax.grad(lambda x, g: jnp.sum(((x - x.mean(-1, keepdims=True)) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5) * g) ** 2)), [f32(512, 1024), f32(1024)]),
        "ce_grad_vocab": (ce_grad_vocab, [f32(64, 256), f32(256, 32000, scale=0.05), ints(32000, 64)]),
        "embedding_bag_mean": (lambda e, i, s: jax.ops.segment_sum(e[i], s, 1024) / jnp.maximum(jax.ops.segment_sum(jnp.ones_like(s, jnp.float32), s, 1024), 1)[:, None], [f32(10000, 64), ints(10000, 65536), np.sort(ints(1024, 65536))]),
        "topk_mask": (lambda x: jnp.where(x >= lax.top_k(x, 10)[0][:, -1:], x, -jnp.inf), [f32(256, 4096)]),
        "gather_2d_index": (lambda x, i, j: x[i, j], [f32(1024, 1024), ints(1024, 100000), ints(1024, 100000)]),
        "scatter_max_2d": (lambda x, i, j, v: x.at[i, j].max(v), [f32(512, 512), ints(512, 100000), ints(512, 100000), f32(100000)]),
        "argsort_desc_stable": (lambda x: jnp.argsort(-x, axis=-1, stable=True), [f32(256, 2048)]),
        "cumprod_rows": (lambda x: jnp.cumprod(x, axis=1), [1 + 0.001 * f32(256, 4096)]),
        "matmul_i32": (lambda a, b: a @ b, [ints(100, 256, 256), ints(100, 256, 256)]),
        "any_all": (lambda x: (jnp.any(x > 3, axis=1), jnp.all(x > -3, axis=0)), [f32(2048, 2048)]),
        "fake_quant": (lambda x, s: jnp.round(jnp.clip(x / s, -128, 127)) * s, [f32(1024, 1024), np.float32(0.02)]),
        "complex_abs_angle": (lambda a, b: (lambda z: jnp.abs(z * z + 1) + jnp.angle(z))(a + 1j * b), [f32(1024, 1024), f32(1024, 1024)]),
        "rfft2": (lambda x: jnp.fft.rfft2(x), [f32(8, 256, 256)]),
        "irfft": (lambda a, b: jnp.fft.irfft(a + 1j * b, n=2048, axis=-1), [f32(256, 1025), f32(256, 1025)]),
        "vmap_matvec_3x3": (jax.vmap(lambda m, v: m @ v), [f32(65536, 3, 3), f32(65536, 3)]),
        "qr_tall": (lambda a: jnp.linalg.qr(a)[0], [f32(1024, 64)]),
        "eigh_batched_8": (lambda a: jnp.linalg.eigh(a + jnp.swapaxes(a, -1, -2))[0], [f32(128, 8, 8)]),
        "svd_256": (lambda a: jnp.linalg.svd(a)[1], [f32(256, 256)]),
        "euler_adaptive": (euler_adaptive, [f32(4096)]),
        "newton_vmap": (newton_vmap, [np.abs(f32(4096)) + 0.5]),
        "percentile_axis0": (lambda x: jnp.percentile(x, 95, axis=0), [f32(4096, 256)]),
        "logsumexp_axis0": (lambda x: jax.nn.logsumexp(x, axis=0), [f32(4096, 1024)]),
        "maxpool_grad_s1": (maxpool_grad_s1, [f32(8, 32, 32, 32)]),
        # 2026-12-07: gradients into zeros, few-row products in a scan, and more
        "embed_grad": (jax.grad(lambda e, i: jnp.sum(jnp.tanh(e[i]))), [f32(50000, 128), ints(50000, 64, 128)]),
        "lstm_scan": (lstm_scan, [f32(200, 8, 32), f32(32, 256, scale=0.1), f32(64, 256, scale=0.1)]),
        "conv_bn_relu_grad": (conv_bn_relu_grad, [f32(3, 3, 32, 32, scale=0.1), f32(8, 32, 32, 32)]),
        "swiglu": (lambda x, w1, w2: jax.nn.silu(x @ w1) * (x @ w2), [f32(512, 512), f32(512, 1376, scale=0.05), f32(512, 1376, scale=0.05)]),
        "depthwise_1d_k7": (lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME", dimension_numbers=("NWC", "WIO", "NWC"), feature_group_count=256),
                            [f32(8, 2048, 256), f32(7, 1, 256)]),
        "conv1d_k31": (lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME", dimension_numbers=("NWC", "WIO", "NWC")), [f32(16, 4096, 32), f32(31, 32, 32)]),
        "rowwise_dot": (lambda a, b: jnp.einsum("ij,ij->i", a, b), [f32(8192, 512), f32(8192, 512)]),
        "cummin_axis0": (lambda x: lax.cummin(x, axis=0), [f32(2048, 512)]),
        "avgpool_3x3_s2": (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") / 9, [f32(16, 112, 112, 64)]),
        "nonzero_sized": (lambda x: jnp.nonzero(x > 1.0, size=4096, fill_value=0)[0], [f32(1 << 16)]),
        "while_batched": (jax.vmap(lambda x: lax.while_loop(lambda c: c[0] < 1000.0, lambda c: (c[0] * 1.5 + 1, c[1] + 1), (x, 0))[1]),
                          [np.abs(f32(4096)) * 100]),
        "logsumexp_where": (lambda x: jax.nn.logsumexp(x, axis=-1, where=x > -0.5), [f32(2048, 1024)]),
        "ce_int_labels": (lambda z, y: -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(z, -1), y[:, None], 1)), [f32(4096, 1000), ints(1000, 4096)]),
        "topk_bf16": (lambda x: lax.top_k(x.astype(jnp.bfloat16), 8)[0].astype(jnp.float32), [f32(4096, 1000)]),
        "i1e_wide": (jax.scipy.special.i1e, [f32(1024, 1024, scale=5)]),
        "gcd_lcm": (lambda a, b: (jnp.gcd(a, b), jnp.lcm(a % 1000, b % 1000)), [ints(1 << 20, 1 << 18) + 1, ints(1 << 20, 1 << 18) + 1]),
        "scalar_fori_10k": (lambda x: lax.fori_loop(0, 10000, lambda i, x: x * 0.999 + 0.001, x), [np.float32(0.5)]),
        "rk4_small_state": (rk4_small, [f32(3)]),
        "fftn_3d": (lambda x: jnp.abs(jnp.fft.fftn(x)), [f32(64, 64, 64)]),
        "argpartition": (lambda x: jnp.argpartition(x, 10, axis=-1)[:, :10], [f32(1024, 1024)]),
        "scale_translate": (lambda x: jax.image.scale_and_translate(x, (8, 96, 96, 16), (1, 2), jnp.array([1.5, 1.5]),
                                                                    jnp.array([2.0, -1.0]), "linear"), [f32(8, 64, 64, 16)]),
        "norm_stats_xlogy": (lambda x, y: (jax.scipy.stats.norm.logpdf(x), jax.scipy.stats.norm.cdf(x),
                                           jax.scipy.special.xlogy(jnp.abs(x), jnp.abs(y)), jax.scipy.special.log_ndtr(x)),
                             [f32(1024, 1024), f32(1024, 1024)]),
        "matrix_rank_cond": (lambda a: (jnp.linalg.matrix_rank(a), jnp.linalg.cond(a)), [f32(16, 64, 64)]),
        "segment_sum_many": (lambda x, i: jax.ops.segment_sum(x, i, 100000, indices_are_sorted=True),
                             [f32(1 << 20, 16), np.sort(ints(100000, 1 << 20))]),
        "dot_product_attention": (lambda q, k, v: jax.nn.dot_product_attention(q, k, v, is_causal=True),
                                  [f32(8, 256, 8, 64), f32(8, 256, 8, 64), f32(8, 256, 8, 64)]),
        "game_of_life": (game_of_life, [np.abs(f32(256, 256)) / 2]),
        "heat_stencil": (heat_stencil, [f32(512, 512)]),
        "nbody_pairwise": (nbody, [f32(512, 3), f32(512, 3)]),
        "kmeans_steps": (kmeans, [f32(8192, 16), f32(64, 16)]),
        "coo_matvec": (lambda vals, rows, cols, x: jax.ops.segment_sum(vals * x[cols], rows, 65536, indices_are_sorted=True),
                       [f32(1 << 20), np.sort(ints(65536, 1 << 20)), ints(65536, 1 << 20), f32(65536)]),
        "ema_scan": (lambda x: lax.scan(lambda m, xi: (0.99 * m + 0.01 * xi, m), jnp.zeros(x.shape[1]), x)[1], [f32(4096, 128)]),
        "fp8_matmul": (lambda a, b: a.astype(jnp.float8_e4m3fn).astype(jnp.float32) @ b.astype(jnp.float8_e4m3fn).astype(jnp.float32),
                       [f32(512, 512), f32(512, 512)]),
        "masked_scatter_drop": (lambda x, i, v: x.at[i].set(v, mode="drop"),
                                [f32(100000), ints(120000, 50000) - 1000, f32(50000)]),
        "eigh3_batched": (jax.vmap(lambda m: jnp.linalg.eigh(m + m.T)[0]), [f32(4096, 3, 3)]),
        "lax_map_rows": (lambda x, w: lax.map(lambda r: jnp.tanh(r @ w).sum(), x), [f32(256, 512), f32(512, 64)]),
        "kv_cache_dus": (lambda k, c: lax.fori_loop(0, 64, lambda i, c: lax.dynamic_update_slice(c, k[i][None], (i, 0, 0)), c),
                         [f32(64, 8, 128), np.zeros((256, 8, 128), np.float32)]),
        "cond_big": (lambda p, x: lax.cond(p > 0, lambda x: jnp.sin(x) @ x.T, lambda x: jnp.cos(x) @ x.T, x),
                     [np.float32(1.0), f32(512, 512)]),
        "scan_unroll4": (lambda x: lax.scan(lambda c, xi: (jnp.tanh(c * 0.9 + xi), c), jnp.zeros(x.shape[1]), x, unroll=4)[1],
                         [f32(2048, 128)]),
        "einsum4": (lambda a, b, c, d: jnp.einsum("ij,jk,kl,lm->im", a, b, c, d), [f32(256, 256), f32(256, 256), f32(256, 256), f32(256, 256)]),
        "topk_gather": (lambda x, y: jnp.take_along_axis(y, lax.top_k(x, 32)[1], -1), [f32(2048, 1024), f32(2048, 1024)]),
    }


def export(name, fn, inputs):
    """Writes the program and its inputs; returns (jitted function, kiln bench arguments)."""
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    f = jax.jit(fn)
    with open(os.path.join(d, "model.mlir"), "w") as out:
        out.write(f.lower(*inputs).as_text())
    args = [os.path.join(d, "model.mlir")]
    for i, a in enumerate(jax.tree_util.tree_leaves(inputs)):  # a pytree's leaves: the lowered parameters
        path = os.path.join(d, f"input_{i}.npy")
        np.save(path, a)
        args += ["--input", path]
    return f, args


def check_kiln(kiln, args, ref):
    """Kiln's results (`kiln run`) against XLA:CPU's: floats within 1e-3 of the largest
    magnitude (NaNs where XLA's are), integers exactly; "ok" or what differs."""
    out = os.path.join(os.path.dirname(args[0]), "results")
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, KILN_CACHE_MAX_BYTES="0")
    r = subprocess.run([kiln, "run"] + args + ["--output-dir", out], capture_output=True, text=True, env=env, timeout=600)
    if r.returncode:
        return "run failed: " + (r.stderr.strip() or r.stdout.strip())[:120]
    for k, want in enumerate(jax.tree_util.tree_leaves(ref)):
        want = np.asarray(want)
        got = np.load(os.path.join(out, f"result_{k}.npy"))
        if got.shape != want.shape:
            return f"result {k}: shape {got.shape}, XLA {want.shape}"
        if want.dtype.kind in "fc" or want.dtype.name == "bfloat16":
            wide = np.complex128 if want.dtype.kind == "c" else np.float64
            w, g = want.astype(wide), got.astype(wide)
            scale = float(np.nanmax(np.abs(w))) if w.size and not np.all(np.isnan(w)) else 1.0
            if not np.array_equal(np.isnan(w), np.isnan(g)) or (w.size and np.nanmax(np.abs(g - w)) > 1e-3 * scale + 1e-5):
                return f"result {k}: off by {float(np.nanmax(np.abs(g - w))):.3g} (scale {scale:.3g})"
        elif not np.array_equal(got, want):
            return f"result {k}: {int(np.sum(got != want))} of {want.size} differ"
    return "ok"


def time_xla(f, inputs):
    """Median us of f's calls on inputs already on the device (as `kiln bench` has them: a
    call on NumPy arrays would also copy them in)."""
    inputs = jax.device_put(inputs)
    jax.block_until_ready(f(*inputs))
    times, end = [], time.perf_counter() + 1.0
    while time.perf_counter() < end or len(times) < 20:
        t = time.perf_counter()
        jax.block_until_ready(f(*inputs))
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def time_kiln(kiln, args):
    """(median us, interpreted ops) of one `kiln bench` process, or (None, its error)."""
    env = dict(os.environ, KILN_CACHE_MAX_BYTES="0")
    r = subprocess.run([kiln, "bench"] + args, capture_output=True, text=True, env=env, timeout=600)
    m = re.search(r"median ([0-9.]+) us", r.stdout)
    if r.returncode != 0 or not m:
        return None, (r.stderr.strip() or r.stdout.strip())[:200]
    interp = re.search(r"interpreted ops: (\d+)", r.stdout)
    return float(m.group(1)), interp.group(1) if interp else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kiln", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    jax.config.update("jax_platforms", "cpu")
    progs, wide = programs(), set(programs_x64())
    names = [n for n in a.only.split(",") if n] or list(progs) + sorted(wide)
    unknown = [n for n in names if n not in progs and n not in wide]
    if unknown:
        sys.exit(f"beyond.py: no program {', '.join(unknown)} (have: {', '.join(list(progs) + sorted(wide))})")
    names = [n for n in names if n not in wide] + [n for n in names if n in wide]  # x64 ones last
    print(f"Host: {peers.host_line(a.kiln)}; {peers.kiln_version(a.kiln)}; jax {jax.__version__}; "
          f"{a.rounds} rounds, medians; load {tiers.load_avg()}", flush=True)
    print("| program | Kiln (us) | XLA:CPU (us) | Kiln / XLA:CPU | ops Kiln interpreted | result |")
    print("|---|---:|---:|---:|---:|---|")
    failed = 0
    for name in names:
        if name in wide and not jax.config.jax_enable_x64:
            jax.config.update("jax_enable_x64", True)  # from here on: 64-bit types as written
            progs = programs_x64()
        fn, inputs = progs[name]
        f, args = export(name, fn, inputs)
        result = check_kiln(a.kiln, args, f(*inputs))
        failed += result != "ok"
        kiln_t, xla_t, note = [], [], ""
        for _ in range(a.rounds):
            k, note = time_kiln(a.kiln, args)
            kiln_t.append(k)
            xla_t.append(time_xla(f, inputs))
        if None in kiln_t:
            failed += 1
            print(f"| {name} | failed: {note} | {statistics.median(xla_t):.1f} | - | - | {result} |", flush=True)
            continue
        k, x = statistics.median(kiln_t), statistics.median(xla_t)
        print(f"| {name} | {k:.1f} | {x:.1f} | {k / x:.2f} | {note} | {result} |", flush=True)
    print(f"load at the end {tiers.load_avg()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
