#!/usr/bin/env python3
"""Writes window_cases.mlir: self-checking reduce_window and select_and_scatter programs in
the forms the cpu backend runs natively (window.c): cumulative scans (forward, reverse,
windows longer than the axis), padded and dilated pooling, several operands, and the
gradient of pooling; and reduce_windows whose regions it folds as written (running folds
of prefix windows, windows folded per output point). Expected values come from a direct NumPy reading of the spec that
folds in the interpreter's order (init, then the window's elements in row-major order,
padding as init; select over the window in index order, scatter in source order) in the
element type, so the checks are exact. Run once by hand (needs ml_dtypes for bf16):
    tests/python/.venv/bin/python make_window_cases.py > window_cases.mlir"""
import itertools

import ml_dtypes
import numpy as np

rng = np.random.default_rng(11)
BF16 = ml_dtypes.bfloat16
NAMES = {np.bool_: "i1", np.float32: "f32", np.float64: "f64", BF16: "bf16", np.int32: "i32", np.int64: "i64", np.uint8: "ui8"}


def name(dt):
    return NAMES[dt]


def ttype(shape, dt):
    return "tensor<" + "".join(f"{d}x" for d in shape) + name(dt) + ">"


def lit(v, dt):
    if dt is np.bool_:
        return "true" if v else "false"
    if dt in (np.int32, np.int64, np.uint8):
        return str(int(v))
    f = float(v)
    if np.isnan(f):
        return "0x7FC00000" if dt == np.float32 else "0x7FF8000000000000" if dt == np.float64 else "0x7FC0"
    if np.isinf(f):
        return {np.float32: ("0x7F800000", "0xFF800000"), np.float64: ("0x7FF0000000000000", "0xFFF0000000000000"),
                BF16: ("0x7F80", "0xFF80")}[dt][f < 0]
    return repr(f)


def dense(a, dt):
    a = np.asarray(a)
    if a.ndim == 0:
        return f"dense<{lit(a[()], dt)}>"

    def nest(x):
        return "[" + ", ".join(nest(y) for y in x) + "]" if x.ndim else lit(x[()], dt)
    return f"dense<{nest(a)}>"


def combine(op, a, b, dt):
    if dt is np.bool_:  # the interpreter's i1: add is or, multiply is and
        x, y = bool(a), bool(b)
        return np.bool_({"add": x or y, "multiply": x and y, "maximum": x or y, "minimum": x and y, "and": x and y,
                         "or": x or y, "xor": x != y}[op])
    if dt in (np.int32, np.int64, np.uint8):
        bits = np.dtype(dt).itemsize * 8
        x, y = int(a), int(b)
        r = {"add": x + y, "multiply": x * y, "maximum": max(x, y), "minimum": min(x, y), "and": x & y, "or": x | y,
             "xor": x ^ y}[op]
        r &= (1 << bits) - 1
        if np.issubdtype(dt, np.signedinteger) and r >= 1 << (bits - 1):
            r -= 1 << bits
        return dt(r)
    a, b = dt(a), dt(b)
    if op in ("maximum", "minimum"):
        if np.isnan(float(a)) or np.isnan(float(b)):
            return a if np.isnan(float(a)) else b
        if float(a) == float(b):
            return a if (np.signbit(float(a)) == (op == "minimum")) else b
        return a if (float(a) > float(b)) == (op == "maximum") else b
    return dt(a + b) if op == "add" else dt(a * b)


def reduce_window(xs, inits, step, dts, size, stride, base, wdil, pad):
    """step(accumulators, elements) -> accumulators: the region, in the element types dts."""
    r = xs[0].ndim
    padded = [(n - 1) * bd + 1 + lo + hi for n, bd, (lo, hi) in zip(xs[0].shape, base, pad)]
    out_shape = [(p - ((s - 1) * wd + 1)) // st + 1 for p, s, wd, st in zip(padded, size, wdil, stride)]
    outs = [np.zeros(out_shape, dtype=dt) for dt in dts]
    for o in itertools.product(*[range(n) for n in out_shape]):
        acc = [dt(i) for i, dt in zip(inits, dts)]
        for w in itertools.product(*[range(s) for s in size]):
            idx = []
            for d in range(r):
                p = o[d] * stride[d] + w[d] * wdil[d] - pad[d][0]
                if p < 0 or p % base[d] or p // base[d] >= xs[0].shape[d]:
                    idx = None
                    break
                idx.append(p // base[d])
            acc = step(acc, [inits[k] if idx is None else xs[k][tuple(idx)] for k in range(len(xs))])
        for k in range(len(xs)):
            outs[k][o] = acc[k]
    return outs


def select_and_scatter(x, src, init, direction, op, dt, size, stride, pad):
    out = np.full(x.shape, init, dtype=dt)
    cmp = {"GE": lambda a, b: a >= b, "GT": lambda a, b: a > b, "LE": lambda a, b: a <= b, "LT": lambda a, b: a < b}
    for s in itertools.product(*[range(n) for n in src.shape]):
        chosen = None
        for w in itertools.product(*[range(k) for k in size]):
            idx = tuple(s[d] * stride[d] + w[d] - pad[d][0] for d in range(x.ndim))
            if any(i < 0 or i >= n for i, n in zip(idx, x.shape)):
                continue
            if chosen is None or not cmp[direction](float(x[chosen]), float(x[idx])):
                chosen = idx
        if chosen is not None:
            out[chosen] = combine(op, out[chosen], src[s], dt)
    return out


def suffix_fold(xs, inits, step, dts, pad):
    """A window over the axis padded after it, as Kiln folds it when the region maps its
    inits to themselves: out[i] = body(x[i], out[i + 1]) from the end, out[n] the inits
    (a schedule the spec allows: x[i], ..., x[n-1], init in order)."""
    axis = next(d for d, p in enumerate(pad) if tuple(p) != (0, 0))
    shape = xs[0].shape
    outs = [np.zeros(shape, dtype=dt) for dt in dts]
    for idx in itertools.product(*[range(s) if d != axis else [0] for d, s in enumerate(shape)]):
        acc = [dt(i) for i, dt in zip(inits, dts)]
        for i in reversed(range(shape[axis])):
            at = idx[:axis] + (i,) + idx[axis + 1:]
            acc = step([x[at] for x in xs], acc)
            for k in range(len(xs)):
                outs[k][at] = acc[k]
    return outs


def attrs(size, stride, base=None, wdil=None, pad=None):
    r = len(size)
    parts = []
    if base:
        parts.append(f"base_dilations = array<i64: {', '.join(map(str, base))}>")
    if pad:
        parts.append(f"padding = dense<{[list(p) for p in pad]}> : tensor<{r}x2xi64>")
    if wdil:
        parts.append(f"window_dilations = array<i64: {', '.join(map(str, wdil))}>")
    parts.append(f"window_dimensions = array<i64: {', '.join(map(str, size))}>")
    parts.append(f"window_strides = array<i64: {', '.join(map(str, stride))}>")
    return "{" + ", ".join(parts) + "}"


def check(v, a, dt, exact=True):
    kind = "expect_eq_const" if exact else "expect_almost_eq_const"
    return f"  check.{kind} %{v}, {dense(a, dt)} : {ttype(a.shape, dt)}"


cases = []


def rw_case(fname, comment, xs, inits, ops, dt, size, stride=None, base=None, wdil=None, pad=None, scan=False,
            suffix=False, iota=False, computed_init=False):
    """scan: a forward scan with an identity init, computed in the interpreter's order;
    suffix: a reverse one, folded from the end (suffix_fold);
    iota: xs[0] is an iota along the last dim (made in the program, not a constant);
    computed_init: the inits are computed (init + 0), not constants."""
    r = xs[0].ndim
    stride = stride or [1] * r
    n = len(xs)

    def step(acc, elems):
        return [combine(ops[k], acc[k], elems[k], dt) for k in range(n)]
    if suffix:
        outs = suffix_fold(xs, inits, step, [dt] * n, pad)
    else:
        outs = reduce_window(xs, inits, step, [dt] * n, size, stride, base or [1] * r, wdil or [1] * r,
                             pad or [(0, 0)] * r)
    st = ttype((), dt)
    lines = [f"// {comment}", f"func.func @{fname}() {{"]
    for k in range(n):
        if iota:
            lines.append(f"  %x{k} = stablehlo.iota dim = {r - 1} : {ttype(xs[k].shape, dt)}")
        else:
            lines.append(f"  %x{k} = stablehlo.constant {dense(xs[k], dt)} : {ttype(xs[k].shape, dt)}")
        init = f"%c_i{k}" if computed_init else f"%i{k}"
        lines.append(f"  {init} = stablehlo.constant {dense(np.asarray(inits[k], dtype=dt), dt)} : {st}")
        if computed_init:
            lines.append(f"  %z{k} = stablehlo.constant {dense(np.asarray(0, dtype=dt), dt)} : {st}")
            lines.append(f"  %i{k} = stablehlo.add %c_i{k}, %z{k} : {st}")
    res = ", ".join(f"%r{k}" for k in range(n)) if n > 1 else "%r0"
    lhs = f"%r:{n}" if n > 1 else "%r0"
    args = ", ".join([f"%x{k}" for k in range(n)] + [f"%i{k}" for k in range(n)])
    bb = ", ".join([f"%a{k}: {st}" for k in range(n)] + [f"%b{k}: {st}" for k in range(n)])
    lines.append(f'  {lhs} = "stablehlo.reduce_window"({args}) ({{')
    lines.append(f"  ^bb0({bb}):")
    for k in range(n):
        lines.append(f"    %c{k} = stablehlo.{ops[k]} %a{k}, %b{k} : {st}")
    lines.append(f"    stablehlo.return {', '.join(f'%c{k}' for k in range(n))} : {', '.join([st] * n)}")
    types_in = ", ".join([ttype(x.shape, dt) for x in xs] + [st] * n)
    types_out = ", ".join(ttype(o.shape, dt) for o in outs)
    lines.append(f"  }}) {attrs(size, stride, base, wdil, pad)} : ({types_in}) -> " +
                 (f"({types_out})" if n > 1 else types_out))
    for k in range(n):
        v = f"r#{k}" if n > 1 else "r0"
        # generated loops may fold float sums and products in another order (vectors)
        exact = scan or suffix or dt not in (np.float32, np.float64, BF16) or ops[k] in ("maximum", "minimum")
        lines.append(check(v, outs[k], dt, exact))
    lines += ["  func.return", "}"]
    cases.append("\n".join(lines))
    del res


def fold_case(fname, comment, xs, inits, dts, region, step, size, stride=None, base=None, wdil=None, pad=None,
              scan=False, suffix=False):
    """A reduce_window whose region is more than one op per operand (window.c's kernels do
    not take it; the cpu backend folds it as written): region is its body's lines over
    %a<k> (accumulators) and %b<k> (elements) ending in a return, step the same in NumPy,
    op by op in the element types, so the checks are exact."""
    r = xs[0].ndim
    stride = stride or [1] * r
    n = len(xs)
    if suffix:
        outs = suffix_fold(xs, inits, step, dts, pad)
    else:
        outs = reduce_window(xs, inits, step, dts, size, stride, base or [1] * r, wdil or [1] * r, pad or [(0, 0)] * r)
    sts = [ttype((), dt) for dt in dts]
    lines = [f"// {comment}", f"func.func @{fname}() {{"]
    for k in range(n):
        lines.append(f"  %x{k} = stablehlo.constant {dense(xs[k], dts[k])} : {ttype(xs[k].shape, dts[k])}")
        lines.append(f"  %i{k} = stablehlo.constant {dense(np.asarray(inits[k], dtype=dts[k]), dts[k])} : {sts[k]}")
    lhs = f"%r:{n}" if n > 1 else "%r0"
    args = ", ".join([f"%x{k}" for k in range(n)] + [f"%i{k}" for k in range(n)])
    bb = ", ".join([f"%a{k}: {sts[k]}" for k in range(n)] + [f"%b{k}: {sts[k]}" for k in range(n)])
    lines.append(f'  {lhs} = "stablehlo.reduce_window"({args}) ({{')
    lines.append(f"  ^bb0({bb}):")
    lines += ["    " + line for line in region]
    types_in = ", ".join([ttype(x.shape, dt) for x, dt in zip(xs, dts)] + sts)
    types_out = ", ".join(ttype(o.shape, dt) for o, dt in zip(outs, dts))
    lines.append(f"  }}) {attrs(size, stride, base, wdil, pad)} : ({types_in}) -> " +
                 (f"({types_out})" if n > 1 else types_out))
    for k in range(n):
        lines.append(check(f"r#{k}" if n > 1 else "r0", outs[k], dts[k]))
    lines += ["  func.return", "}"]
    cases.append("\n".join(lines))


def sas_case(fname, comment, x, src, init, direction, op, dt, size, stride, pad, swap=False):
    out = select_and_scatter(x, src, init, direction, op, dt, size, stride, pad)
    st = ttype((), dt)
    flipped = {"GE": "LE", "GT": "LT", "LE": "GE", "LT": "GT"}
    ctype = "FLOAT" if dt in (np.float32, np.float64, BF16) else "UNSIGNED" if dt in (np.bool_, np.uint8) else "SIGNED"
    cmp = (f"stablehlo.compare {flipped[direction]}, %b, %a, {ctype}" if swap
           else f"stablehlo.compare {direction}, %a, %b, {ctype}")
    lines = [f"// {comment}", f"func.func @{fname}() {{",
             f"  %x = stablehlo.constant {dense(x, dt)} : {ttype(x.shape, dt)}",
             f"  %s = stablehlo.constant {dense(src, dt)} : {ttype(src.shape, dt)}",
             f"  %i = stablehlo.constant {dense(np.asarray(init, dtype=dt), dt)} : {st}",
             '  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({',
             f"  ^bb0(%a: {st}, %b: {st}):",
             f"    %c = {cmp} : ({st}, {st}) -> tensor<i1>",
             "    stablehlo.return %c : tensor<i1>",
             "  }, {",
             f"  ^bb0(%a: {st}, %b: {st}):",
             f"    %c = stablehlo.{op} %a, %b : {st}",
             f"    stablehlo.return %c : {st}",
             f"  }}) {attrs(size, stride, pad=pad)} : ({ttype(x.shape, dt)}, {ttype(src.shape, dt)}, {st}) -> "
             f"{ttype(x.shape, dt)}",
             check("r", out, dt), "  func.return", "}"]
    cases.append("\n".join(lines))


def normal(shape, dt, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32).astype(dt)


def ints(shape, dt, lo, hi):
    return rng.integers(lo, hi, size=shape).astype(dt)


def scan_attrs(shape, axis, reverse=False, extra=0):
    """The window and padding of a cumulative op along axis."""
    n = shape[axis]
    size = [1] * len(shape)
    pad = [(0, 0)] * len(shape)
    size[axis] = n + extra
    pad[axis] = (0, n + extra - 1) if reverse else (n + extra - 1, 0)
    return dict(size=size, pad=pad, scan=not reverse, suffix=reverse)


F32, F64, I32, I64, UI8 = np.float32, np.float64, np.int32, np.int64, np.uint8
NINF = float("-inf")

# Scans: jnp.cumsum / cumprod / cummax lower to these (window = the axis, padded before).
x = normal((3, 50), F32)
rw_case("cumsum_f32_last_axis", "cumsum along the contiguous axis: a prefix scan",
        [x], [0.0], ["add"], F32, **scan_attrs(x.shape, 1))
x = normal((40, 19), F32)
rw_case("cumsum_f32_first_axis", "cumsum along axis 0: rows of 19 lanes at once",
        [x], [0.0], ["add"], F32, **scan_attrs(x.shape, 0))
x = normal((2, 30, 5), F64)
rw_case("cumsum_f64_middle_axis", "cumsum in f64 along a middle axis", [x], [0.0], ["add"], F64,
        **scan_attrs(x.shape, 1))
x = rng.uniform(0.9, 1.1, (4, 25)).astype(F32)
rw_case("cumprod_f32", "cumprod", [x], [1.0], ["multiply"], F32, **scan_attrs(x.shape, 1))
x = normal((3, 33), F32)
x[1, 7] = np.nan
rw_case("cummax_f32_nan", "cummax: a NaN propagates to the end of its row", [x], [NINF], ["maximum"], F32,
        **scan_attrs(x.shape, 1))
x = ints((2, 40), I32, 2**29, 2**30)
rw_case("cumsum_i32_wraps", "cumsum in i32 past 2^31 wraps", [x], [0], ["add"], I32, **scan_attrs(x.shape, 1))
x = normal((2, 40), BF16, 4.0)
rw_case("cumsum_bf16", "cumsum in bf16: every partial sum rounded to bf16", [x], [0.0], ["add"], BF16,
        **scan_attrs(x.shape, 1))
x = ints((3, 21), I32, -1000, 1000)
rw_case("cummin_i32_reverse", "reverse cummin (padding after the axis): a suffix scan, exact for integers",
        [x], [2**31 - 1], ["minimum"], I32, **scan_attrs(x.shape, 1, reverse=True))
x = normal((2, 23), F32)
rw_case("cumsum_f32_reverse", "reverse cumsum in f32 (the gradient of a cumsum): a suffix scan, x[i] + out[i + 1]",
        [x], [0.0], ["add"], F32, **scan_attrs(x.shape, 1, reverse=True))
x = normal((2, 17), F32)
rw_case("cumsum_f32_init_not_identity", "an init that add(init, init) changes: every window folds it again",
        [x], [2.5], ["add"], F32, **{**scan_attrs(x.shape, 1), "scan": False})
x = np.broadcast_to(np.arange(30, dtype=F32), (3, 30)).copy()
rw_case("cumsum_iota_computed_init", "cumsum of an iota with an init computed at run time (no scan: padded loop)",
        [x], [0.0], ["add"], F32, **{**scan_attrs(x.shape, 1), "scan": False}, iota=True, computed_init=True)
x = ints((2, 3, 18), I64, -2**62, 2**62)
rw_case("cumxor_i64_window_past_axis", "a window longer than the axis (padded by window - 1): still a scan",
        [x], [0], ["xor"], I64, **scan_attrs(x.shape, 2, extra=5))
x = ints((4, 26), UI8, 0, 256)
rw_case("cummax_ui8", "cummax of unsigned bytes", [x], [0], ["maximum"], UI8, **scan_attrs(x.shape, 1))
x = rng.integers(0, 2, (3, 20)).astype(np.bool_)
rw_case("cumsum_i1", "cumulative or of booleans (i1 add)", [x], [False], ["add"], np.bool_, **scan_attrs(x.shape, 1))
rw_case("windowed_and_i1_padded", "padded windows of i1 multiply (and), init true", [x], [True], ["multiply"], np.bool_,
        size=[1, 4], stride=[1, 3], pad=[(0, 0), (2, 1)])

# Pooling: SAME padding, strides, dilations, negative padding.
x = normal((2, 9, 9, 5), F32)
rw_case("maxpool_same_3x3_s2_nhwc", "max pooling 3x3 stride 2, SAME, NHWC", [x], [NINF], ["maximum"], F32,
        size=[1, 3, 3, 1], stride=[1, 2, 2, 1], pad=[(0, 0), (1, 1), (1, 1), (0, 0)])
x = normal((1, 7, 7, 3), F32)
rw_case("sumpool_same_2x2_s2", "sum pooling 2x2 stride 2, SAME on odd sizes (average pooling's sum)",
        [x], [0.0], ["add"], F32, size=[1, 2, 2, 1], stride=[1, 2, 2, 1], pad=[(0, 0), (0, 1), (0, 1), (0, 0)])
x = normal((2, 3, 8, 8), F32)
rw_case("maxpool_same_nchw", "max pooling over the last two dims (NCHW), SAME", [x], [NINF], ["maximum"], F32,
        size=[1, 1, 3, 3], stride=[1, 1, 2, 2], pad=[(0, 0), (0, 0), (0, 1), (0, 1)])
x = normal((2, 9, 9, 4), BF16)
rw_case("maxpool_same_bf16", "max pooling in bf16, SAME", [x], [NINF], ["maximum"], BF16,
        size=[1, 3, 3, 1], stride=[1, 2, 2, 1], pad=[(0, 0), (1, 1), (1, 1), (0, 0)])
x = normal((5, 6), F32)
rw_case("dilated_padded_sum", "base and window dilations with padding", [x], [0.0], ["add"], F32,
        size=[2, 3], stride=[2, 1], base=[2, 1], wdil=[1, 2], pad=[(1, 2), (2, 0)])
x = ints((6, 7), I32, -50, 50)
rw_case("negative_padding_sum", "negative padding crops the operand", [x], [0], ["add"], I32,
        size=[2, 2], stride=[1, 2], pad=[(-1, 1), (0, -2)])
x = ints((4, 5), I64, -9, 9)
rw_case("multiply_init_not_identity", "a product whose init is not 1, padded and base-dilated", [x], [3],
        ["multiply"], I64, size=[2, 3], stride=[1, 1], base=[1, 2], pad=[(1, 0), (1, 1)])

# Several operands, each with its own op.
xa, xb = normal((3, 8, 4), F32), normal((3, 8, 4), F32)
rw_case("two_operands_padded", "two operands (sum and max) padded", [xa, xb], [0.0, NINF], ["add", "maximum"], F32,
        size=[1, 3, 2], stride=[1, 2, 1], pad=[(0, 0), (1, 1), (0, 1)])
xa, xb = ints((4, 6), I32, -99, 99), ints((4, 6), I32, -99, 99)
rw_case("two_operands_unpadded", "two operands (min and add) without padding", [xa, xb], [2**31 - 1, 0],
        ["minimum", "add"], I32, size=[2, 2], stride=[2, 1])
xa, xb = normal((2, 12), F32), normal((2, 12), F32)
rw_case("two_operands_scan", "two cumulative scans (cummax, cumsum) in one op", [xa, xb], [NINF, 0.0],
        ["maximum", "add"], F32, **scan_attrs(xa.shape, 1))

# select_and_scatter: the gradient of max pooling.
x = normal((2, 9, 9, 5), F32)
s = normal((2, 5, 5, 5), F32)
sas_case("maxpool_grad_nhwc_same", "GE/add, 3x3 stride 2 SAME NHWC: overlapping windows add in source order",
         x, s, 0.0, "GE", "add", F32, [1, 3, 3, 1], [1, 2, 2, 1], [(0, 0), (1, 1), (1, 1), (0, 0)])
x = normal((2, 3, 8, 8), F32)
s = normal((2, 3, 4, 4), F32)
sas_case("maxpool_grad_nchw", "GE/add over the last two dims", x, s, 0.0, "GE", "add", F32, [1, 1, 3, 3],
         [1, 1, 2, 2], [(0, 0), (0, 0), (0, 1), (0, 1)])
x = rng.integers(0, 3, (6, 6)).astype(F32)
s = normal((3, 3), F32)
sas_case("select_gt_ties", "GT picks the last of equal maxima, GE the first (many ties)", x, s, 0.0, "GT", "add",
         F32, [2, 2], [2, 2], [(0, 0), (0, 0)])
x = ints((7, 5, 3), I32, -20, 20)
s = ints((3, 5, 3), I32, -20, 20)
sas_case("select_le_swapped_max", "LE written as compare GE of swapped args, scatter max, i32, window over dim 0",
         x, s, -100, "LE", "maximum", I32, [3, 1, 1], [2, 1, 1], [(0, 0), (0, 0), (0, 0)], swap=True)
x = normal((1, 7, 7, 2), BF16)
s = normal((1, 4, 4, 2), BF16)
sas_case("maxpool_grad_bf16", "bf16: the scattered sums rounded to bf16 after each add", x, s, 0.0, "GE", "add",
         BF16, [1, 3, 3, 1], [1, 2, 2, 1], [(0, 0), (1, 1), (1, 1), (0, 0)])


def pad_case(fname, comment, x, value, lo, hi, interior, dt):
    shape = [(n - 1) * (i + 1) + 1 + a + b for n, a, b, i in zip(x.shape, lo, hi, interior)]
    out = np.full(shape, value, dtype=dt)
    for idx in itertools.product(*[range(n) for n in x.shape]):
        p = tuple(lo[d] + idx[d] * (interior[d] + 1) for d in range(x.ndim))
        if all(0 <= q < n for q, n in zip(p, shape)):
            out[p] = x[idx]
    st = ttype((), dt)
    cases.append("\n".join([
        f"// {comment}", f"func.func @{fname}() {{",
        f"  %x = stablehlo.constant {dense(x, dt)} : {ttype(x.shape, dt)}",
        f"  %v = stablehlo.constant {dense(np.asarray(value, dtype=dt), dt)} : {st}",
        f"  %r = stablehlo.pad %x, %v, low = {list(lo)}, high = {list(hi)}, interior = {list(interior)} : "
        f"({ttype(x.shape, dt)}, {st}) -> {ttype(out.shape, dt)}",
        check("r", out, dt), "  func.return", "}"]))


# stablehlo.pad runs on the same kernel (JAX pads the operand of a SAME pooling's gradient).
pad_case("pad_f32_interior_negative", "pad with interior padding and a negative low edge",
         normal((3, 4, 5), F32), 9.5, [1, -1, 0], [2, 1, -2], [1, 0, 2], F32)
pad_case("pad_ui8_last_dim", "pad of bytes along the last dim only", ints((2, 6), UI8, 0, 256), 7,
         [0, 3], [0, 4], [0, 0], UI8)
pad_case("pad_bf16_crop", "pad that crops more than it pads", normal((4, 4), BF16), -1.0, [-2, 1], [1, -3],
         [0, 1], BF16)
x = rng.integers(0, 2, (2, 7, 4)).astype(np.bool_)
s = rng.integers(0, 2, (2, 4, 4)).astype(np.bool_)
sas_case("select_scatter_i1", "i1: compare UNSIGNED, scatter add (or)", x, s, False, "GE", "add", np.bool_, [1, 3, 1],
         [1, 2, 1], [(0, 0), (1, 1), (0, 0)])

# Regions of more than one op per operand: folds of the generated loops, as written. A
# prefix window whose region maps its init to itself is a running fold (jax.lax's
# cumlogsumexp and cumulative argmax); any other window is folded per output point.
EMA = ["%h = stablehlo.constant dense<0.5> : tensor<{t}>", "%m = stablehlo.multiply %a0, %h : tensor<{t}>",
       "%c = stablehlo.add %m, %b0 : tensor<{t}>", "stablehlo.return %c : tensor<{t}>"]


def ema(t):
    return [line.format(t=t) for line in EMA]


def ema_step(dt):
    if dt is BF16:  # each op computed in f32 and rounded to bf16, as the interpreter does
        return lambda acc, e: [BF16(np.float32(BF16(np.float32(acc[0]) * np.float32(0.5))) + np.float32(e[0]))]
    return lambda acc, e: [dt(dt(acc[0] * dt(0.5)) + e[0])]


MAX_ABS = ["%m = stablehlo.abs %b0 : tensor<f32>", "%c = stablehlo.maximum %a0, %m : tensor<f32>",
           "stablehlo.return %c : tensor<f32>"]
ARGMAX = ["%g = stablehlo.compare GT, %a0, %b0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>",
          "%n = stablehlo.compare NE, %a0, %a0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>",
          "%o = stablehlo.or %g, %n : tensor<i1>",
          "%e = stablehlo.compare EQ, %a0, %b0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>",
          "%l = stablehlo.compare LT, %a1, %b1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>",
          "%q = stablehlo.and %e, %l : tensor<i1>", "%p = stablehlo.or %o, %q : tensor<i1>",
          "%s = stablehlo.select %o, %a0, %b0 : tensor<i1>, tensor<f32>",
          "%t = stablehlo.select %p, %a1, %b1 : tensor<i1>, tensor<i32>",
          "stablehlo.return %s, %t : tensor<f32>, tensor<i32>"]


def argmax_step(acc, e):
    (x, i), (y, j) = acc, e
    o = float(x) > float(y) or np.isnan(float(x))
    p = o or (float(x) == float(y) and int(i) < int(j))
    return [x if o else y, i if p else j]


x = normal((19, 50), F32)
x[2, 9] = np.nan
fold_case("scan_max_abs_rows", "running max of |x| along the last axis: lanes a row apart, stored one by one",
          [x], [0.0], [F32], MAX_ABS, lambda acc, e: [combine("maximum", acc[0], abs(e[0]), F32)],
          **scan_attrs(x.shape, 1))
x = normal((40, 19), F32)
fold_case("scan_ema_first_axis", "an exponential moving sum down axis 0: 19 lanes side by side (a vector and a tail)",
          [x], [0.0], [F32], ema("f32"), ema_step(F32), **scan_attrs(x.shape, 0))
x = normal((2, 30, 5), F64)
fold_case("scan_ema_f64_middle_axis", "a moving sum in f64 along a middle axis", [x], [0.0], [F64], ema("f64"),
          ema_step(F64), **scan_attrs(x.shape, 1))
x = normal((2, 3, 10, 4, 5), F32)
fold_case("scan_max_abs_rank5", "a running fold along axis 2 of five: the dims before it merge, and those after",
          [x], [0.0], [F32], MAX_ABS, lambda acc, e: [combine("maximum", acc[0], abs(e[0]), F32)],
          **scan_attrs(x.shape, 2))
x = normal((37,), F32)
fold_case("scan_ema_rank1", "a moving sum of a vector", [x], [0.0], [F32], ema("f32"), ema_step(F32),
          **scan_attrs(x.shape, 0))
x = normal((3, 29), BF16, 4.0)
fold_case("scan_ema_bf16", "a moving sum in bf16: every op rounded to bf16", [x], [0.0], [BF16], ema("bf16"),
          ema_step(BF16), **scan_attrs(x.shape, 1))
xv = rng.integers(-3, 4, (19, 27)).astype(F32)
xv[1, 5] = np.nan
xi = np.broadcast_to(np.arange(27, dtype=I32), (19, 27)).copy()
fold_case("scan_argmax_pairs", "cumulative argmax over (value, index) pairs: ties keep the first, NaN wins",
          [xv, xi], [NINF, 0], [F32, I32], ARGMAX, argmax_step,
          **scan_attrs(xv.shape, 1))
x = ints((3, 14), I32, -100, 100)
fold_case("prefix_init_not_fixed", "a prefix window whose region changes its init (a + b + 1): folded per window",
          [x], [0], [I32], ["%s = stablehlo.add %a0, %b0 : tensor<i32>", "%u = stablehlo.constant dense<1> : tensor<i32>",
                            "%c = stablehlo.add %s, %u : tensor<i32>", "stablehlo.return %c : tensor<i32>"],
          lambda acc, e: [combine("add", combine("add", acc[0], e[0], I32), 1, I32)],
          **scan_attrs(x.shape, 1))
x = normal((2, 21), F32)
fold_case("suffix_ema", "a moving sum with the padding after the axis: folded from the end, body(x[i], out[i + 1])",
          [x], [0.0], [F32], ema("f32"), ema_step(F32),
          **scan_attrs(x.shape, 1, reverse=True))
xv = rng.integers(-4, 5, (2, 9, 9)).astype(F32)
xi = np.arange(2 * 9 * 9, dtype=I32).reshape(2, 9, 9)
fold_case("argmax_pool_same", "argmax pooling 3x3 stride 2, SAME: the padding folds the inits (-inf, -1)",
          [xv, xi], [NINF, -1], [F32, I32], ARGMAX, argmax_step, size=[1, 3, 3], stride=[1, 2, 2],
          pad=[(0, 0), (1, 1), (1, 1)])
x = normal((5, 6), BF16)
fold_case("dilated_max_twice_bf16", "max(a, 2b) in bf16 with base and window dilations and padding", [x], [NINF],
          [BF16], ["%w = stablehlo.constant dense<2.0> : tensor<bf16>", "%t = stablehlo.multiply %b0, %w : tensor<bf16>",
                   "%c = stablehlo.maximum %a0, %t : tensor<bf16>", "stablehlo.return %c : tensor<bf16>"],
          lambda acc, e: [combine("maximum", acc[0], BF16(np.float32(e[0]) * np.float32(2.0)), BF16)],
          size=[2, 3], stride=[2, 1], base=[2, 1], wdil=[1, 2], pad=[(1, 2), (2, 0)])
x = normal((4, 7), F32)
fold_case("unpadded_ema_windows", "moving sums over 2x3 windows, strided, no padding", [x], [0.0], [F32], ema("f32"),
          ema_step(F32), size=[2, 3], stride=[1, 2])

print("// Generated by make_window_cases.py: reduce_window and select_and_scatter forms the cpu")
print("// backend runs natively (window.c) or folds as their regions say, checked exactly against a")
print("// spec reading that folds in the interpreter's order.")
print()
print("\n\n// -----\n\n".join(cases))
