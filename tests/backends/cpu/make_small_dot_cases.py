#!/usr/bin/env python3
"""Writes small_dot_cases.mlir: small contractions on the cpu device (few lhs rows as
generated loops, contractions over one point fused, long column folds in bands), with
NumPy's values. Inputs are small
integers made in the program (iota, remainder), so every expected value is exact.
usage: python3 make_small_dot_cases.py (writes next to itself)"""
import os

import numpy as np
out = []
def fmt(a):
    a = np.asarray(a)
    if a.ndim == 0: return repr(float(a)) if a.dtype.kind == 'f' else str(int(a))
    return '[' + ', '.join(fmt(x) for x in a) + ']'
def dense(a, kind):
    a = np.asarray(a)
    if kind == 'f':
        return 'dense<' + fmt(a.astype(np.float64)) + '>'
    return 'dense<' + fmt(a.astype(np.int64)) + '>'
def ty(shape, e): return 'tensor<' + 'x'.join(str(s) for s in shape) + ('x' if shape else '') + e + '>'
def pattern(shape, mod, off):
    # the values of ((iota over the flat index) % mod) - off, made in the program
    n = int(np.prod(shape))
    return ((np.arange(n) % mod) - off).reshape(shape)
def gen_input(name, shape, mod, off, e):
    n = int(np.prod(shape))
    lines = [f'  %{name}_i = stablehlo.iota dim = 0 : tensor<{n}xi32>',
             f'  %{name}_m = stablehlo.constant dense<{mod}> : tensor<{n}xi32>',
             f'  %{name}_o = stablehlo.constant dense<{off}> : tensor<{n}xi32>',
             f'  %{name}_r = stablehlo.remainder %{name}_i, %{name}_m : tensor<{n}xi32>',
             f'  %{name}_s = stablehlo.subtract %{name}_r, %{name}_o : tensor<{n}xi32>',
             f'  %{name}_c = stablehlo.convert %{name}_s : (tensor<{n}xi32>) -> tensor<{n}x{e}>',
             f'  %{name} = stablehlo.reshape %{name}_c : (tensor<{n}x{e}>) -> {ty(shape, e)}']
    return lines, pattern(shape, mod, off)

def case(title, fname, body, comment):
    out.append('\n'.join(['// ' + c for c in comment.split('\n')]) + f'\nfunc.func @{fname}() {{\n' + '\n'.join(body) + '\n  func.return\n}')

# vector-matrix and few-row products: the column form (vectors across results)
# (the last four: blocks of whole rows share each weight load, loopnest.c's
# emit_column_block: 4 rows a block on AVX-512, 2 on AVX2; 6 rows leave a part block; 20
# rows of f32 by small weights are a loop only with AVX-512, compile.c)
for (m, k, n, e) in [(1, 64, 128, 'f32'), (1, 48, 100, 'f32'), (3, 40, 70, 'f32'), (2, 33, 300, 'bf16'),
                     (8, 64, 256, 'f32'), (6, 40, 128, 'f32'), (5, 32, 64, 'bf16'), (20, 48, 128, 'f32')]:
    la, a = gen_input('a', (m, k), 7, 3, e)
    lb, b = gen_input('b', (k, n), 5, 2, e)
    r = a.astype(np.float64) @ b.astype(np.float64)
    rt = 'f32'
    body = la + lb + [f'  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({ty((m,k),e)}, {ty((k,n),e)}) -> {ty((m,n),rt)}',
                      f'  check.expect_eq_const %r, {dense(r, "f")} : {ty((m,n),rt)}']
    case(f'{m}x{k} by {k}x{n}', f'rows{m}_{k}x{n}_{e}', body,
         f'{m} row(s) of {e} by a {k}x{n} matrix: a generated loop (few rows), vectors across the results\n(groups of four vectors, one vector, then single lanes).')
    out.append('// -----')
# batched few-row products: a block of rows may span two batches, whose weights differ
la, a = gen_input('a', (2, 5, 48), 7, 3, 'f32')
lb, b = gen_input('b', (2, 48, 64), 5, 2, 'f32')
r = np.einsum('bik,bkj->bij', a, b)
body = la + lb + ['  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x5x48xf32>, tensor<2x48x64xf32>) -> tensor<2x5x64xf32>',
                  f'  check.expect_eq_const %r, {dense(r, "f")} : tensor<2x5x64xf32>']
case('bb', 'rows5_batched_blocks', body, 'Two batches of 5 rows by their own 48x64 weights: blocks of rows cross from one batch to the next.')
out.append('// -----')
# transposed weights: the row form
la, a = gen_input('a', (2, 64), 7, 3, 'f32')
lb, b = gen_input('b', (96, 64), 5, 2, 'f32')
r = a @ b.T
body = la + lb + [f'  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<2x64xf32>, tensor<96x64xf32>) -> tensor<2x96xf32>',
                  f'  check.expect_eq_const %r, {dense(r, "f")} : tensor<2x96xf32>']
case('t', 'rows2_transposed_weights', body, 'Two rows by transposed weights (contracting the rhs\'s last dim): a loop along the contraction.')
out.append('// -----')
# unit contraction: outer product fused into an update, with a signed zero
la, a = gen_input('a', (1, 5), 7, 3, 'f32')
lb, b = gen_input('b', (1, 7), 5, 2, 'f32')
lw, w = gen_input('w', (7, 5), 9, 4, 'f32')
p = (a.T @ b)  # 5x7
r = w - 0.5 * p.T
body = la + lb + lw + [
  '  %p = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<1x5xf32>, tensor<1x7xf32>) -> tensor<5x7xf32>',
  '  %t = stablehlo.transpose %p, dims = [1, 0] : (tensor<5x7xf32>) -> tensor<7x5xf32>',
  '  %h = stablehlo.constant dense<0.5> : tensor<7x5xf32>',
  '  %g = stablehlo.multiply %h, %t : tensor<7x5xf32>',
  '  %r = stablehlo.subtract %w, %g : tensor<7x5xf32>',
  f'  check.expect_eq_const %p, {dense(p, "f")} : tensor<5x7xf32>',
  f'  check.expect_eq_const %r, {dense(r, "f")} : tensor<7x5xf32>']
case('o', 'unit_contraction_update', body, 'A contraction over one point (an outer product: a weight gradient at batch 1) is elementwise,\nfused with the transpose and the update that read it.')
out.append('// -----')
body = ['  %a = stablehlo.constant dense<[[0.0, -0.0, 2.0]]> : tensor<1x3xf32>',
        '  %b = stablehlo.constant dense<[[-3.0, 4.0]]> : tensor<1x2xf32>',
        '  %p = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<1x3xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>',
        '  %z = stablehlo.bitcast_convert %p : (tensor<3x2xf32>) -> tensor<3x2xi32>',
        '  check.expect_eq_const %z, dense<[[0, 0], [0, 0], [-1061158912, 1090519040]]> : tensor<3x2xi32>']
case('z', 'unit_contraction_signed_zero', body, 'Its products are sums of one term, 0 + a * b as the interpreter has it: -0 comes out +0.')
out.append('// -----')
# batched, mixed types (bf16 x f32 -> f32) and integers
la, a = gen_input('a', (2, 3, 1), 7, 3, 'bf16')
lb, b = gen_input('b', (2, 1, 4), 5, 2, 'f32')
r = np.einsum('bik,bkj->bij', a.astype(np.float64), b.astype(np.float64))
body = la + lb + ['  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x1xbf16>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>',
                  f'  check.expect_eq_const %r, {dense(r, "f")} : tensor<2x3x4xf32>']
case('b', 'unit_contraction_batched_mixed', body, 'Batched, bf16 by f32: each operand converted to the accumulator first.')
out.append('// -----')
la, a = gen_input('a', (4,), 7, 3, 'i32')
lb, b = gen_input('b', (3,), 5, 2, 'i32')
r = np.outer(a, b)
body = la + lb + ['  %r = stablehlo.dot_general %a, %b, contracting_dims = [] x [] : (tensor<4xi32>, tensor<3xi32>) -> tensor<4x3xi32>',
                  f'  check.expect_eq_const %r, {dense(r, "i")} : tensor<4x3xi32>']
case('i', 'no_contraction_integers', body, 'No contracting dims at all, integers.')
out.append('// -----')
# batches of tiny products: loops rather than oneDNN's batched matmul (TINY_DOT_MACS), each
# result folded in one lane (a fold shorter than a vector)
# (the last: enough work to be shared out, in chunks that begin inside a row of 3 results:
# loopnest.c's emit_reduce finds a row's offsets once, from its first point on)
for (bt, m, k, n, e, rt) in [(160, 3, 3, 3, 'f32', 'f32'), (100, 4, 5, 2, 'bf16', 'f32'), (90, 2, 7, 4, 'i32', 'i32'),
                             (1601, 2, 7, 3, 'f32', 'f32')]:
    la, a = gen_input('a', (bt, m, k), 7, 3, e)
    lb, b = gen_input('b', (bt, k, n), 5, 2, e)
    r = np.einsum('bik,bkj->bij', a.astype(np.float64), b.astype(np.float64))
    body = la + lb + [f'  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ({ty((bt,m,k),e)}, {ty((bt,k,n),e)}) -> {ty((bt,m,n),rt)}',
                      f'  check.expect_eq_const %r, {dense(r, "f" if rt[0] == "f" else "i")} : {ty((bt,m,n),rt)}']
    case('t', f'tiny_batched_{m}x{k}x{n}_{e}', body, f'{bt} products of {m}x{k} by {k}x{n} ({e}): a generated loop folding each result in one lane.')
    out.append('// -----')
# long folds in bands (loopnest.c, band_points): a fold of more than 128 points runs in
# bands of 64, its partial sums kept in the output between them; a last band short, results
# in groups of four vectors, one vector and single lanes, chunks of the columns on two
# threads (the 300x1000 product), a fold over two dims, an init that is not the identity,
# a minimum, integers and booleans
for (m, k, n, e) in [(1, 300, 1000, 'f32'), (1, 129, 200, 'f32'), (2, 257, 75, 'f32')]:
    la, a = gen_input('a', (m, k), 7, 3, e)
    lb, b = gen_input('b', (k, n), 5, 2, e)
    r = a.astype(np.float64) @ b.astype(np.float64)
    body = la + lb + [f'  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({ty((m,k),e)}, {ty((k,n),e)}) -> {ty((m,n),e)}',
                      f'  check.expect_eq_const %r, {dense(r, "f")} : {ty((m,n),e)}']
    case('band', f'band_rows{m}_{k}x{n}', body, f'{m} row(s) by a {k}x{n} matrix: the fold of {k} points in bands.')
    out.append('// -----')
# (the minimum's values rise row by row, so its results are in the first band; the and's
# one false is in the first band of column 50; the 4096x300 sum, 4.9 MB, in chunks of
# whole lines of each row: column_grain)
folds = {'add': np.add.reduce, 'minimum': np.minimum.reduce, 'and': np.logical_and.reduce}
for (shape, dims, comb, init, e, mod, off) in [((300, 70), [0], 'add', '10.0', 'f32', 11, 9), ((20, 15, 83), [0, 1], 'add', '-4.0', 'f32', 11, 9),
                                                ((200, 130), [0], 'minimum', '100.0', 'f32', 100003, 9), ((260, 70), [0], 'add', '7', 'i32', 11, 9),
                                                ((300, 100), [0], 'and', 'true', 'i1', 100003, 150), ((4096, 300), [0], 'add', '1.0', 'f32', 11, 9)]:
    la, a = gen_input('a', shape, mod, off, e)
    a = a != 0 if e == 'i1' else a
    rs = tuple(shape[len(dims):])
    start = np.full((1,) + rs, init == 'true' if e == 'i1' else float(init))
    r = folds[comb](np.concatenate([start, a.reshape((-1,) + rs)]), axis=0)
    want = 'dense<[' + ', '.join('true' if v else 'false' for v in r) + ']>' if e == 'i1' else dense(r, e[0])
    body = la + [f'  %c = stablehlo.constant dense<{init}> : tensor<{e}>',
                 f'  %r = stablehlo.reduce(%a init: %c) applies stablehlo.{comb} across dimensions = {dims} : ({ty(shape, e)}, tensor<{e}>) -> {ty(rs, e)}',
                 f'  check.expect_eq_const %r, {want} : {ty(rs, e)}']
    case('bandr', f'band_reduce_{comb}_{"x".join(map(str, shape))}_{e}', body,
         f'A {comb} of {"x".join(map(str, shape))} {e} over dims {dims} from {init}: the fold in bands.')
    out.append('// -----')
out.pop()
hdr = '''// Small contractions on the cpu device (compile.c, loopnest.c), against NumPy's values
// (exact: small integers), on the cpu device and the interpreter: products with few lhs rows
// run as generated loops rather than oneDNN, contractions over one point are
// elementwise, fused with their neighbours, and long folds of columns (these products and
// reductions over leading dims) run in bands.
'''
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'small_dot_cases.mlir'), 'w').write(hdr + '\n' + '\n\n'.join(out) + '\n')
