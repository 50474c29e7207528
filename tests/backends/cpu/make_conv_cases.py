#!/usr/bin/env python3
"""Writes conv_cases.mlir: self-checking convolutions with lhs dilation (transposed
convolutions) and window reversal, each compared on the same device with the spec's own
reading of it: the lhs padded and dilated by stablehlo.pad (zeros in the padding and the
holes) and the kernel reversed by stablehlo.reverse, then a convolution with neither, which
the cpu backend runs another way (oneDNN's forward convolution, or its loops) than the
deconvolution or flipped weights it gives the case itself. Inputs come from sine(iota), so
the file stays small; sizes put most cases on oneDNN (4096 elements and more). Cases: the
zoo decoder's layer with a constant bias (fused into the oneDNN step), layouts, paddings
(negative, and past the window), rhs dilation, window strides, feature and batch groups,
a plain padded convolution with its bias fused, a dilated causal 1-D one (WaveNet's,
which oneDNN runs over a padded copy on AVX2 hosts), reversal, 1 to 3 spatial dims, bf16 and f16, and inf / NaN weights, whose products with
the spec's zeros are NaN. Run once by hand: python3 make_conv_cases.py > conv_cases.mlir"""

DN2 = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"


def ttype(shape, et):
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def prod(xs):
    r = 1
    for x in xs:
        r *= x
    return r


def parse_dn(dn):
    lhs, rest = dn.split("]x[")
    rhs, out = rest.split("]->[")
    f = lambda s: [t.strip() for t in s.strip("[]").split(",")]
    return f(lhs), f(rhs), f(out)


def gen(name, dn, lhs, rhs, et, stride=None, pad=None, ldil=None, rdil=None, rev=None, fgc=1, bgc=1,
        bias=None, nonfinite=False, tol=None):
    L, R, O = parse_dn(dn)
    ns = len(L) - 2
    stride = stride or [1] * ns
    pad = pad or [[0, 0]] * ns
    ldil = ldil or [1] * ns
    rdil = rdil or [1] * ns
    rev = rev or [False] * ns
    sp = lambda names: [names.index(str(i)) for i in range(ns)]
    ls, ks, os = sp(L), sp(R), sp(O)
    out = [0] * len(O)
    out[O.index("b")] = lhs[L.index("b")] // bgc
    out[O.index("f")] = rhs[R.index("o")]
    for i in range(ns):
        n = (lhs[ls[i]] - 1) * ldil[i] + 1 + pad[i][0] + pad[i][1]
        w = (rhs[ks[i]] - 1) * rdil[i] + 1
        out[os[i]] = (n - w) // stride[i] + 1
    lines = [f"func.func @{name}() {{"]
    v = [0]

    def fresh():
        v[0] += 1
        return f"%v{v[0]}"

    def source(shape, scale):
        n = prod(shape)
        i, c, m, s, r = fresh(), fresh(), fresh(), fresh(), fresh()
        lines.append(f"  {i} = stablehlo.iota dim = 0 : tensor<{n}xf32>")
        lines.append(f"  {c} = stablehlo.constant dense<{scale}> : tensor<{n}xf32>")
        lines.append(f"  {m} = stablehlo.multiply {i}, {c} : tensor<{n}xf32>")
        lines.append(f"  {s} = stablehlo.sine {m} : tensor<{n}xf32>")
        if nonfinite and scale == 0.61:  # the weights: an inf and a NaN among them
            for k, val in ((n // 3, "0x7F800000"), (2 * n // 3, "0x7FC00000")):
                kk, eq, bad, sel = fresh(), fresh(), fresh(), fresh()
                lines.append(f"  {kk} = stablehlo.constant dense<{k}.0> : tensor<{n}xf32>")
                lines.append(f"  {eq} = stablehlo.compare EQ, {i}, {kk} : (tensor<{n}xf32>, tensor<{n}xf32>) -> tensor<{n}xi1>")
                lines.append(f"  {bad} = stablehlo.constant dense<{val}> : tensor<{n}xf32>")
                lines.append(f"  {sel} = stablehlo.select {eq}, {bad}, {s} : tensor<{n}xi1>, tensor<{n}xf32>")
                s = sel
        if et != "f32":
            cv = fresh()
            lines.append(f"  {cv} = stablehlo.convert {s} : (tensor<{n}xf32>) -> tensor<{n}x{et}>")
            s = cv
        lines.append(f"  {r} = stablehlo.reshape {s} : (tensor<{n}x{et}>) -> {ttype(shape, et)}")
        return r

    x, w = source(lhs, 0.37), source(rhs, 0.61)
    groups = f"{{batch_group_count = {bgc} : i64, feature_group_count = {fgc} : i64}}"
    win = [f"stride = {stride}", f"pad = {pad}", f"lhs_dilate = {ldil}", f"rhs_dilate = {rdil}"]
    if any(rev):
        win.append("reverse = [" + ", ".join("true" if r else "false" for r in rev) + "]")
    ot = ttype(out, et)
    got = fresh()
    lines.append(f"  {got} = stablehlo.convolution({x}, {w}) dim_numbers = {dn}, window = {{{', '.join(win)}}} {groups}"
                 f" : ({ttype(lhs, et)}, {ttype(rhs, et)}) -> {ot}")
    # the spec's reading: pad(lhs, 0, lo, hi, ldil - 1), reverse(rhs), then a plain convolution
    z, p, low, high, inner = fresh(), fresh(), [0] * len(L), [0] * len(L), [0] * len(L)
    padded = list(lhs)
    for i in range(ns):
        low[ls[i]], high[ls[i]], inner[ls[i]] = pad[i][0], pad[i][1], ldil[i] - 1
        padded[ls[i]] = (lhs[ls[i]] - 1) * ldil[i] + 1 + pad[i][0] + pad[i][1]
    lines.append(f"  {z} = stablehlo.constant dense<0.0> : tensor<{et}>")
    lines.append(f"  {p} = stablehlo.pad {x}, {z}, low = {low}, high = {high}, interior = {inner}"
                 f" : ({ttype(lhs, et)}, tensor<{et}>) -> {ttype(padded, et)}")
    wr = w
    if any(rev):
        wr = fresh()
        dims = [ks[i] for i in range(ns) if rev[i]]
        lines.append(f"  {wr} = stablehlo.reverse {w}, dims = {dims} : {ttype(rhs, et)}")
    want = fresh()
    plain = [f"stride = {stride}", f"rhs_dilate = {rdil}"]
    lines.append(f"  {want} = stablehlo.convolution({p}, {wr}) dim_numbers = {dn}, window = {{{', '.join(plain)}}} {groups}"
                 f" : ({ttype(padded, et)}, {ttype(rhs, et)}) -> {ot}")
    if bias:
        fdim = O.index("f")
        b, bb, g2, w2 = fresh(), fresh(), fresh(), fresh()
        vals = ", ".join(f"{(k % 7) * 0.25 - 0.75}" for k in range(out[fdim]))
        lines.append(f"  {b} = stablehlo.constant dense<[{vals}]> : tensor<{out[fdim]}x{et}>")
        lines.append(f"  {bb} = stablehlo.broadcast_in_dim {b}, dims = [{fdim}] : (tensor<{out[fdim]}x{et}>) -> {ot}")
        lines.append(f"  {g2} = stablehlo.add {got}, {bb} : {ot}")
        lines.append(f"  {w2} = stablehlo.add {bb}, {want} : {ot}")
        got, want = g2, w2
    t = f", tolerance = {tol}" if tol else ""
    lines.append(f"  check.expect_almost_eq {got}, {want}{t} : {ot}")
    lines.append("  func.return")
    lines.append("}")
    return "\n".join(lines)


NCHW = "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]"
CASES = [
    ("zoo_decoder_layer_bias", dict(dn=DN2, lhs=[4, 8, 8, 64], rhs=[4, 4, 64, 32], et="f32", pad=[[2, 2], [2, 2]], ldil=[2, 2], bias=True)),
    ("zoo_decoder_rgb_bias", dict(dn=DN2, lhs=[2, 16, 16, 16], rhs=[4, 4, 16, 3], et="f32", pad=[[2, 2], [2, 2]], ldil=[2, 2], bias=True)),
    ("padded_conv_bias", dict(dn=DN2, lhs=[2, 12, 12, 8], rhs=[3, 3, 8, 16], et="f32", pad=[[1, 1], [1, 1]], bias=True)),
    ("nchw_uneven", dict(dn=NCHW, lhs=[2, 8, 9, 7], rhs=[6, 8, 3, 3], et="f32", pad=[[1, 2], [0, 1]], ldil=[2, 3])),
    ("negative_padding", dict(dn=DN2, lhs=[2, 9, 9, 8], rhs=[3, 3, 8, 8], et="f32", pad=[[-1, 1], [2, -3]], ldil=[2, 2])),
    ("padding_past_window", dict(dn=DN2, lhs=[2, 9, 9, 8], rhs=[3, 3, 8, 8], et="f32", pad=[[3, 4], [2, 2]], ldil=[2, 2])),
    ("rhs_dilation", dict(dn=DN2, lhs=[2, 8, 8, 8], rhs=[3, 3, 8, 8], et="f32", pad=[[1, 1], [3, 3]], ldil=[2, 2], rdil=[2, 2])),
    ("window_strides", dict(dn=DN2, lhs=[2, 9, 9, 8], rhs=[3, 3, 8, 8], et="f32", pad=[[2, 2], [2, 2]], ldil=[2, 2], stride=[2, 1])),
    ("feature_groups", dict(dn=DN2, lhs=[2, 8, 8, 8], rhs=[3, 3, 4, 12], et="f32", pad=[[2, 2], [2, 2]], ldil=[2, 2], fgc=2)),
    ("batch_groups", dict(dn=DN2, lhs=[4, 8, 8, 6], rhs=[3, 3, 6, 8], et="f32", pad=[[1, 1], [1, 1]], ldil=[2, 2], bgc=2)),
    ("reversal", dict(dn=DN2, lhs=[2, 8, 8, 8], rhs=[3, 3, 8, 8], et="f32", pad=[[2, 1], [1, 1]], ldil=[2, 2], rev=[True, False])),
    ("reversal_without_dilation", dict(dn=DN2, lhs=[2, 12, 12, 8], rhs=[3, 3, 8, 8], et="f32", pad=[[1, 1], [1, 1]], rev=[False, True])),
    ("one_spatial_dim", dict(dn="[b, 0, f]x[0, i, o]->[b, 0, f]", lhs=[4, 40, 16], rhs=[5, 16, 8], et="f32", pad=[[2, 3]], ldil=[3])),
    ("dilated_causal_1d", dict(dn="[b, 0, f]x[0, i, o]->[b, 0, f]", lhs=[2, 64, 16], rhs=[3, 16, 16], et="f32", pad=[[8, 0]], rdil=[4])),
    ("three_spatial_dims", dict(dn="[b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f]", lhs=[2, 4, 4, 4, 8], rhs=[2, 2, 2, 8, 8], et="f32",
                                pad=[[1, 1], [1, 1], [1, 1]], ldil=[2, 2, 2])),
    ("small_loop", dict(dn=DN2, lhs=[1, 3, 3, 2], rhs=[2, 2, 2, 2], et="f32", pad=[[1, 1], [1, 1]], ldil=[2, 2], rev=[True, True])),
    ("bf16", dict(dn=DN2, lhs=[4, 8, 8, 16], rhs=[4, 4, 16, 8], et="bf16", pad=[[2, 2], [2, 2]], ldil=[2, 2], tol=0.1)),
    ("f16_groups", dict(dn=DN2, lhs=[2, 8, 8, 8], rhs=[3, 3, 4, 8], et="f16", pad=[[2, 2], [2, 2]], ldil=[2, 2], fgc=2, tol=0.02)),
    ("nonfinite_weights_deconv", dict(dn=DN2, lhs=[2, 8, 8, 8], rhs=[4, 4, 8, 8], et="f32", pad=[[2, 2], [2, 2]], ldil=[2, 2], nonfinite=True)),
    ("nonfinite_weights_padded", dict(dn=DN2, lhs=[2, 12, 12, 8], rhs=[3, 3, 8, 8], et="f32", pad=[[1, 1], [2, 0]], nonfinite=True)),
    ("nonfinite_weights_small", dict(dn=DN2, lhs=[1, 3, 3, 2], rhs=[2, 2, 2, 2], et="f32", pad=[[1, 1], [1, 1]], ldil=[2, 2], nonfinite=True)),
]

print("// Generated by make_conv_cases.py: convolutions with lhs dilation and window reversal against")
print("// the spec's padded, dilated lhs and reversed kernel, on the device that runs the file.")
print("\n\n// -----\n\n".join(gen(n, **kw) for n, kw in CASES))
