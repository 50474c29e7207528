#!/usr/bin/env python3
"""Writes fusion_cases.mlir: self-checking programs whose shapes exercise the cpu backend's
fusion, row-block runs (softmax, layernorm), column and middle-dim reductions, views and
small dots. Expected values come from NumPy (float64, rounded to f32). Run once by hand:
    python3 make_fusion_cases.py > fusion_cases.mlir"""
import numpy as np

rng = np.random.default_rng(7)


def dense(a):
    flat = ", ".join(f"{v:.9e}" for v in a.astype(np.float32).ravel())
    return f"dense<[{flat}]>" if a.ndim == 1 else f"dense<{np.array2string(a.astype(np.float32), separator=', ', threshold=10**9, max_line_width=10**9, floatmode='unique')}>"


def t(shape):
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


def const(name, a):
    return f"  %{name} = stablehlo.constant {dense(a)} : {t(a.shape)}"


def check(name, want):
    return f"  check.expect_almost_eq_const %{name}, {dense(want)} : {t(want.shape)}"


cases = []

# Row-block runs (tiling.c): rows large enough for several blocks. Inputs are made in the
# program from iotas (f32, as NumPy does them below); the checks read per-row summaries.
R, C = 64, 256
i = np.arange(R, dtype=np.float32)[:, None]
j = np.arange(C, dtype=np.float32)[None, :]
x = (np.sin(i * np.float32(0.731) + j * np.float32(0.117)) * np.float32(3)).astype(np.float64)
e = np.exp(x - x.max(axis=1, keepdims=True))
y = e / e.sum(axis=1, keepdims=True)
S = f"tensor<{R}x{C}xf32>"
cases.append("\n".join([
    "func.func @softmax_rows() {",
    f"  %i = stablehlo.iota dim = 0 : {S}",
    f"  %j = stablehlo.iota dim = 1 : {S}",
    f"  %ka = stablehlo.constant dense<0.731> : {S}",
    f"  %kb = stablehlo.constant dense<0.117> : {S}",
    f"  %k3 = stablehlo.constant dense<3.0> : {S}",
    f"  %ia = stablehlo.multiply %i, %ka : {S}",
    f"  %jb = stablehlo.multiply %j, %kb : {S}",
    f"  %arg = stablehlo.add %ia, %jb : {S}",
    f"  %sn = stablehlo.sine %arg : {S}",
    f"  %x = stablehlo.multiply %sn, %k3 : {S}",
    "  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>",
    "  %zero = stablehlo.constant dense<0.0> : tensor<f32>",
    f"  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : ({S}, tensor<f32>) -> tensor<{R}xf32>",
    f"  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<{R}xf32>) -> {S}",
    f"  %d = stablehlo.subtract %x, %mb : {S}",
    f"  %e = stablehlo.exponential %d : {S}",
    f"  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : ({S}, tensor<f32>) -> tensor<{R}xf32>",
    f"  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<{R}xf32>) -> {S}",
    f"  %y = stablehlo.divide %e, %sb : {S}",
    f"  %yj = stablehlo.multiply %y, %j : {S}",
    f"  %mean_j = stablehlo.reduce(%yj init: %zero) applies stablehlo.add across dimensions = [1] : ({S}, tensor<f32>) -> tensor<{R}xf32>",
    f"  %total = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [1] : ({S}, tensor<f32>) -> tensor<{R}xf32>",
    f"  %first = stablehlo.slice %y [0:{R}, 0:1] : ({S}) -> tensor<{R}x1xf32>",
    check("mean_j", (y * np.arange(C)).sum(axis=1)),
    check("total", np.ones(R)),
    check("first", y[:, :1]),
    "  func.return", "}"]))

R, C = 40, 200
i = np.arange(R, dtype=np.float32)[:, None]
j = np.arange(C, dtype=np.float32)[None, :]
x = (np.cos(i * np.float32(0.3) + j * np.float32(0.05)) * np.float32(2) + i * np.float32(0.01)).astype(np.float64)
g = np.cos(np.arange(C, dtype=np.float32) * np.float32(0.02)).astype(np.float64)
mu = x.mean(axis=1, keepdims=True)
var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
y = (x - mu) / np.sqrt(var + 1e-5) * g + 0.5
S = f"tensor<{R}x{C}xf32>"
V = f"tensor<{R}xf32>"
cases.append("\n".join([
    "func.func @layernorm_rows() {",
    f"  %i = stablehlo.iota dim = 0 : {S}",
    f"  %j = stablehlo.iota dim = 1 : {S}",
    f"  %k1 = stablehlo.constant dense<0.3> : {S}",
    f"  %k2 = stablehlo.constant dense<0.05> : {S}",
    f"  %k3 = stablehlo.constant dense<2.0> : {S}",
    f"  %k4 = stablehlo.constant dense<0.01> : {S}",
    f"  %a1 = stablehlo.multiply %i, %k1 : {S}",
    f"  %a2 = stablehlo.multiply %j, %k2 : {S}",
    f"  %a3 = stablehlo.add %a1, %a2 : {S}",
    f"  %a4 = stablehlo.cosine %a3 : {S}",
    f"  %a5 = stablehlo.multiply %a4, %k3 : {S}",
    f"  %a6 = stablehlo.multiply %i, %k4 : {S}",
    f"  %x = stablehlo.add %a5, %a6 : {S}",
    f"  %gi = stablehlo.iota dim = 0 : tensor<{C}xf32>",
    f"  %gk = stablehlo.constant dense<0.02> : tensor<{C}xf32>",
    f"  %g0 = stablehlo.multiply %gi, %gk : tensor<{C}xf32>",
    f"  %g = stablehlo.cosine %g0 : tensor<{C}xf32>",
    "  %zero = stablehlo.constant dense<0.0> : tensor<f32>",
    f"  %n = stablehlo.constant dense<{C}.0> : {V}",
    f"  %eps = stablehlo.constant dense<1.0e-5> : {V}",
    f"  %half = stablehlo.constant dense<0.5> : {S}",
    f"  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : ({S}, tensor<f32>) -> {V}",
    f"  %mu = stablehlo.divide %s, %n : {V}",
    f"  %mub = stablehlo.broadcast_in_dim %mu, dims = [0] : ({V}) -> {S}",
    f"  %c = stablehlo.subtract %x, %mub : {S}",
    f"  %c2 = stablehlo.multiply %c, %c : {S}",
    f"  %v = stablehlo.reduce(%c2 init: %zero) applies stablehlo.add across dimensions = [1] : ({S}, tensor<f32>) -> {V}",
    f"  %vn = stablehlo.divide %v, %n : {V}",
    f"  %ve = stablehlo.add %vn, %eps : {V}",
    f"  %r = stablehlo.rsqrt %ve : {V}",
    f"  %rb = stablehlo.broadcast_in_dim %r, dims = [0] : ({V}) -> {S}",
    f"  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<{C}xf32>) -> {S}",
    f"  %y0 = stablehlo.multiply %c, %rb : {S}",
    f"  %y1 = stablehlo.multiply %y0, %gb : {S}",
    f"  %y = stablehlo.add %y1, %half : {S}",
    f"  %jc = stablehlo.constant dense<{1.0 / C}> : {S}",
    f"  %jw = stablehlo.multiply %j, %jc : {S}",
    f"  %yj = stablehlo.multiply %y, %jw : {S}",
    f"  %wsum = stablehlo.reduce(%yj init: %zero) applies stablehlo.add across dimensions = [1] : ({S}, tensor<f32>) -> {V}",
    f"  %last = stablehlo.slice %y [0:{R}, {C - 1}:{C}] : ({S}) -> tensor<{R}x1xf32>",
    check("wsum", (y * (np.arange(C, dtype=np.float32) * np.float32(1.0 / C))).sum(axis=1)),
    check("last", y[:, C - 1:]),
    "  func.return", "}"]))

x = rng.standard_normal((6, 7, 8))
cases.append("\n".join([
    "func.func @reduce_columns_and_middle() {",
    const("x", x),
    "  %zero = stablehlo.constant dense<0.0> : tensor<f32>",
    f"  %a = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : ({t(x.shape)}, tensor<f32>) -> tensor<7x8xf32>",
    f"  %b = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : ({t(x.shape)}, tensor<f32>) -> tensor<6x8xf32>",
    f"  %c = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0, 2] : ({t(x.shape)}, tensor<f32>) -> tensor<7xf32>",
    check("a", x.sum(axis=0)), check("b", x.sum(axis=1)), check("c", x.sum(axis=(0, 2))),
    "  func.return", "}"]))

x = rng.standard_normal((9, 20))
y = x.T[2:18:3, ::-1]
cases.append("\n".join([
    "func.func @views_and_index_maps() {",
    const("x", x),
    f"  %t = stablehlo.transpose %x, dims = [1, 0] : ({t(x.shape)}) -> tensor<20x9xf32>",
    "  %s = stablehlo.slice %t [2:18:3, 0:9] : (tensor<20x9xf32>) -> tensor<6x9xf32>",
    "  %r = stablehlo.reverse %s, dims = [1] : tensor<6x9xf32>",
    "  %two = stablehlo.constant dense<2.0> : tensor<6x9xf32>",
    "  %m = stablehlo.multiply %r, %two : tensor<6x9xf32>",
    "  %f = stablehlo.reshape %m : (tensor<6x9xf32>) -> tensor<3x18xf32>",
    "  %i = stablehlo.iota dim = 1 : tensor<3x18xf32>",
    "  %z = stablehlo.add %f, %i : tensor<3x18xf32>",
    check("z", (y * 2).reshape(3, 18) + np.arange(18)[None, :]),
    "  func.return", "}"]))

a = rng.standard_normal((2, 5, 7))
w = rng.standard_normal((2, 7, 3))
cases.append("\n".join([
    "func.func @small_batched_dot() {",
    const("a", a), const("w", w),
    f"  %d = stablehlo.dot_general %a, %w, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({t(a.shape)}, {t(w.shape)}) -> tensor<2x5x3xf32>",
    check("d", np.einsum("bmk,bkn->bmn", a, w)),
    "  func.return", "}"]))

# transpose(dot_general) as JAX's gradients have it: canonicalised into the swapped product.
a = rng.standard_normal((6, 4))
w = rng.standard_normal((6, 5))
cases.append("\n".join([
    "func.func @transposed_product() {",
    const("a", a), const("w", w),
    f"  %d = stablehlo.dot_general %a, %w, contracting_dims = [0] x [0] : ({t(a.shape)}, {t(w.shape)}) -> tensor<4x5xf32>",
    "  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<4x5xf32>) -> tensor<5x4xf32>",
    check("t", (a.T @ w).T),
    "  func.return", "}"]))

# Whole-tensor reductions big enough to be split into partial sums (compile.c,
# split_reduction): values are small integers, so every sum is exact in f32 and i32.
R, C = 512, 1024
v = (np.arange(R * C).reshape(R, C) & 7) - 3
S = f"tensor<{R}x{C}xi32>"
F = f"tensor<{R}x{C}xf32>"
cases.append("\n".join([
    "func.func @split_reductions() {",
    f"  %i = stablehlo.iota dim = 1 : {S}",
    f"  %j = stablehlo.iota dim = 0 : {S}",
    f"  %c = stablehlo.constant dense<{C}> : {S}",
    f"  %jc = stablehlo.multiply %j, %c : {S}",
    f"  %n = stablehlo.add %jc, %i : {S}",
    f"  %seven = stablehlo.constant dense<7> : {S}",
    f"  %three = stablehlo.constant dense<3> : {S}",
    f"  %m = stablehlo.and %n, %seven : {S}",
    f"  %v = stablehlo.subtract %m, %three : {S}",
    f"  %f = stablehlo.convert %v : ({S}) -> {F}",
    "  %zi = stablehlo.constant dense<5> : tensor<i32>",
    "  %zf = stablehlo.constant dense<0.5> : tensor<f32>",
    "  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>",
    f"  %si = stablehlo.reduce(%v init: %zi) applies stablehlo.add across dimensions = [0, 1] : ({S}, tensor<i32>) -> tensor<i32>",
    f"  %sf = stablehlo.reduce(%f init: %zf) applies stablehlo.add across dimensions = [0, 1] : ({F}, tensor<f32>) -> tensor<f32>",
    f"  %mx = stablehlo.reduce(%f init: %ninf) applies stablehlo.maximum across dimensions = [1, 0] : ({F}, tensor<f32>) -> tensor<f32>",
    f"  %cols = stablehlo.reduce(%f init: %zf) applies stablehlo.add across dimensions = [0] : ({F}, tensor<f32>) -> tensor<{C}xf32>",
    f"  %c0 = stablehlo.slice %cols [0:4] : (tensor<{C}xf32>) -> tensor<4xf32>",
    f"  check.expect_eq_const %si, dense<{int(v.sum()) + 5}> : tensor<i32>",
    f"  check.expect_almost_eq_const %sf, dense<{float(v.sum()) + 0.5}> : tensor<f32>",
    "  check.expect_almost_eq_const %mx, dense<4.0> : tensor<f32>",
    check("c0", v.sum(axis=0)[:4] + 0.5),
    "  func.return", "}"]))

# Scalar math broadcast over a tensor (loopnest.c hoists it: computed once per call, not
# per element): a sine and an exponential of a scalar the program cannot fold (it passes an
# optimization_barrier), in an elementwise loop whose rows end in a vector tail, in a row
# reduction and in a column one.
R, C = 37, 45
sv = np.float32(0.8)
x = rng.standard_normal((R, C)).astype(np.float32)
a, b = np.sin(np.float64(sv)), np.exp(np.float64(sv) / 2)
y = x * a + b
S = f"tensor<{R}x{C}xf32>"
cases.append("\n".join([
    "func.func @scalar_math_broadcast() {",
    const("x", x),
    "  %sc = stablehlo.constant dense<0.8> : tensor<f32>",
    "  %s = stablehlo.optimization_barrier %sc : tensor<f32>",
    "  %two = stablehlo.constant dense<2.0> : tensor<f32>",
    "  %sin = stablehlo.sine %s : tensor<f32>",
    "  %half = stablehlo.divide %s, %two : tensor<f32>",
    "  %exp = stablehlo.exponential %half : tensor<f32>",
    f"  %sinb = stablehlo.broadcast_in_dim %sin, dims = [] : (tensor<f32>) -> {S}",
    f"  %expb = stablehlo.broadcast_in_dim %exp, dims = [] : (tensor<f32>) -> {S}",
    f"  %m = stablehlo.multiply %x, %sinb : {S}",
    f"  %y = stablehlo.add %m, %expb : {S}",
    "  %zero = stablehlo.constant dense<0.0> : tensor<f32>",
    f"  %rows = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [1] : ({S}, tensor<f32>) -> tensor<{R}xf32>",
    f"  %cols = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [0] : ({S}, tensor<f32>) -> tensor<{C}xf32>",
    check("y", y), check("rows", y.sum(axis=1)), check("cols", y.sum(axis=0)),
    "  func.return", "}"]))

# Short rows (loopnest.c: a last dim of fewer points than a vector after a dim of at least
# a vector's, vectorised along the rows, columns interleaved on store): last dims of 2 to
# 15 (AVX-512 f32 vectors have 16 lanes, AVX2's 8), row counts that leave a tail, planes
# (a rank-3 space), reads laid out as the output (x: one load per block), along the
# columns (m), along the rows (v), transposed (tt) and an iota; stored as f32 and
# converted to i32; one large enough to be split over threads, whose chunks end inside
# planes.
for P, R, D in ((1, 16, 2), (3, 37, 3), (2, 21, 5), (1, 40, 7), (2, 33, 15), (2, 401, 3)):
    S = f"tensor<{P}x{R}x{D}xf32>"
    x = np.arange(P * R * D, dtype=np.float64).reshape(P, R, D)
    m = np.arange(D) * 0.5 + 0.5
    v = (np.arange(R) % 9) * 0.25
    tt = (np.arange(D * R) % 11 - 5.0).reshape(D, R)
    y = x * m + v[:, None] - tt.T * np.arange(D)
    z = np.sin(y * 0.01)
    cases.append("\n".join([
        f"func.func @short_rows_{P}x{R}x{D}() {{",
        f"  %flat = stablehlo.iota dim = 0 : tensor<{P * R * D}xf32>",
        f"  %x = stablehlo.reshape %flat : (tensor<{P * R * D}xf32>) -> {S}",
        const("m", m), const("v", v), const("tt", tt),
        f"  %t = stablehlo.transpose %tt, dims = [1, 0] : ({t(tt.shape)}) -> {t((R, D))}",
        f"  %mb = stablehlo.broadcast_in_dim %m, dims = [2] : ({t(m.shape)}) -> {S}",
        f"  %vb = stablehlo.broadcast_in_dim %v, dims = [1] : ({t(v.shape)}) -> {S}",
        f"  %tb = stablehlo.broadcast_in_dim %t, dims = [1, 2] : ({t((R, D))}) -> {S}",
        f"  %k = stablehlo.iota dim = 2 : {S}",
        f"  %xm = stablehlo.multiply %x, %mb : {S}",
        f"  %xv = stablehlo.add %xm, %vb : {S}",
        f"  %tk = stablehlo.multiply %tb, %k : {S}",
        f"  %y = stablehlo.subtract %xv, %tk : {S}",
        f"  %c = stablehlo.constant dense<0.01> : {S}",
        f"  %yc = stablehlo.multiply %y, %c : {S}",
        f"  %z = stablehlo.sine %yc : {S}",
        f"  %yi = stablehlo.convert %y : ({S}) -> tensor<{P}x{R}x{D}xi32>",
        check("y", y), check("z", z),
        f"  check.expect_eq_const %yi, dense<{np.array2string(np.trunc(y).astype(np.int32), separator=', ', threshold=10**9, max_line_width=10**9)}> : tensor<{P}x{R}x{D}xi32>",
        "  func.return", "}"]))

print("// Generated by make_fusion_cases.py (expected values from NumPy); run by kiln check")
print("// on every device (tests/backends/cpu/CMakeLists.txt).")
print("\n\n// -----\n\n".join(cases))
