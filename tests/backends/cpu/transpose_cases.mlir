// Transposes that move the innermost dim, of values held in memory, large enough for the
// cpu backend's blocked copy (native_transpose.c; from 16 KiB): each element of the
// operand is a function of its indices, and the result is compared exactly with the same
// function of the result's indices, computed apart. Widths 4 (f32, i32), 8 (f64,
// complex<f32>), 2 (bf16) and 1 (i8); tails of the register blocks, a batch, NCHW to
// NHWC with dims that merge, dims of size 1; one transpose of a value computed in the
// same loop and one that keeps the innermost dim (both stay generated loops).

func.func @matrix_f32() {
  %i = stablehlo.iota dim = 0 : tensor<64x300xf32>
  %j = stablehlo.iota dim = 1 : tensor<64x300xf32>
  %k = stablehlo.constant dense<1000.0> : tensor<64x300xf32>
  %ik = stablehlo.multiply %i, %k : tensor<64x300xf32>
  %x0 = stablehlo.add %ik, %j : tensor<64x300xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<64x300xf32>
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<64x300xf32>) -> tensor<300x64xf32>
  %ti = stablehlo.iota dim = 1 : tensor<300x64xf32>
  %tj = stablehlo.iota dim = 0 : tensor<300x64xf32>
  %tk = stablehlo.constant dense<1000.0> : tensor<300x64xf32>
  %tik = stablehlo.multiply %ti, %tk : tensor<300x64xf32>
  %want = stablehlo.add %tik, %tj : tensor<300x64xf32>
  check.expect_eq %t, %want : tensor<300x64xf32>
  func.return
}

// -----

func.func @batch_i32() {
  %b = stablehlo.iota dim = 0 : tensor<3x50x70xi32>
  %i = stablehlo.iota dim = 1 : tensor<3x50x70xi32>
  %j = stablehlo.iota dim = 2 : tensor<3x50x70xi32>
  %c = stablehlo.constant dense<100> : tensor<3x50x70xi32>
  %bc = stablehlo.multiply %b, %c : tensor<3x50x70xi32>
  %bi = stablehlo.add %bc, %i : tensor<3x50x70xi32>
  %bic = stablehlo.multiply %bi, %c : tensor<3x50x70xi32>
  %x0 = stablehlo.add %bic, %j : tensor<3x50x70xi32>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x50x70xi32>
  %t = stablehlo.transpose %x, dims = [0, 2, 1] : (tensor<3x50x70xi32>) -> tensor<3x70x50xi32>
  %tb = stablehlo.iota dim = 0 : tensor<3x70x50xi32>
  %ti = stablehlo.iota dim = 2 : tensor<3x70x50xi32>
  %tj = stablehlo.iota dim = 1 : tensor<3x70x50xi32>
  %tc = stablehlo.constant dense<100> : tensor<3x70x50xi32>
  %tbc = stablehlo.multiply %tb, %tc : tensor<3x70x50xi32>
  %tbi = stablehlo.add %tbc, %ti : tensor<3x70x50xi32>
  %tbic = stablehlo.multiply %tbi, %tc : tensor<3x70x50xi32>
  %want = stablehlo.add %tbic, %tj : tensor<3x70x50xi32>
  check.expect_eq %t, %want : tensor<3x70x50xi32>
  func.return
}

// -----

// NCHW to NHWC: H and W move together (one dim of 9 x 13 for the copy).
func.func @nchw_to_nhwc_f64() {
  %n = stablehlo.iota dim = 0 : tensor<2x24x9x13xf64>
  %c = stablehlo.iota dim = 1 : tensor<2x24x9x13xf64>
  %h = stablehlo.iota dim = 2 : tensor<2x24x9x13xf64>
  %w = stablehlo.iota dim = 3 : tensor<2x24x9x13xf64>
  %s = stablehlo.constant dense<100.0> : tensor<2x24x9x13xf64>
  %a1 = stablehlo.multiply %n, %s : tensor<2x24x9x13xf64>
  %a2 = stablehlo.add %a1, %c : tensor<2x24x9x13xf64>
  %a3 = stablehlo.multiply %a2, %s : tensor<2x24x9x13xf64>
  %a4 = stablehlo.add %a3, %h : tensor<2x24x9x13xf64>
  %a5 = stablehlo.multiply %a4, %s : tensor<2x24x9x13xf64>
  %x0 = stablehlo.add %a5, %w : tensor<2x24x9x13xf64>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x24x9x13xf64>
  %t = stablehlo.transpose %x, dims = [0, 2, 3, 1] : (tensor<2x24x9x13xf64>) -> tensor<2x9x13x24xf64>
  %tn = stablehlo.iota dim = 0 : tensor<2x9x13x24xf64>
  %tc = stablehlo.iota dim = 3 : tensor<2x9x13x24xf64>
  %th = stablehlo.iota dim = 1 : tensor<2x9x13x24xf64>
  %tw = stablehlo.iota dim = 2 : tensor<2x9x13x24xf64>
  %ts = stablehlo.constant dense<100.0> : tensor<2x9x13x24xf64>
  %b1 = stablehlo.multiply %tn, %ts : tensor<2x9x13x24xf64>
  %b2 = stablehlo.add %b1, %tc : tensor<2x9x13x24xf64>
  %b3 = stablehlo.multiply %b2, %ts : tensor<2x9x13x24xf64>
  %b4 = stablehlo.add %b3, %th : tensor<2x9x13x24xf64>
  %b5 = stablehlo.multiply %b4, %ts : tensor<2x9x13x24xf64>
  %want = stablehlo.add %b5, %tw : tensor<2x9x13x24xf64>
  check.expect_eq %t, %want : tensor<2x9x13x24xf64>
  func.return
}

// -----

// complex<f32> (8 bytes), with dims of size 1 around the two that swap.
func.func @unit_dims_complex() {
  %i = stablehlo.iota dim = 1 : tensor<1x130x1x33xf32>
  %j = stablehlo.iota dim = 3 : tensor<1x130x1x33xf32>
  %x0 = stablehlo.complex %i, %j : tensor<1x130x1x33xcomplex<f32>>
  %x = stablehlo.optimization_barrier %x0 : tensor<1x130x1x33xcomplex<f32>>
  %t = stablehlo.transpose %x, dims = [3, 1, 2, 0] : (tensor<1x130x1x33xcomplex<f32>>) -> tensor<33x130x1x1xcomplex<f32>>
  %ti = stablehlo.iota dim = 1 : tensor<33x130x1x1xf32>
  %tj = stablehlo.iota dim = 0 : tensor<33x130x1x1xf32>
  %want = stablehlo.complex %ti, %tj : tensor<33x130x1x1xcomplex<f32>>
  check.expect_eq %t, %want : tensor<33x130x1x1xcomplex<f32>>
  func.return
}

// -----

// bf16 (2 bytes; integers below 256 exact) and i8 (1 byte, wrapping alike on both sides).
func.func @narrow_elements() {
  %i = stablehlo.iota dim = 0 : tensor<130x129xi32>
  %j = stablehlo.iota dim = 1 : tensor<130x129xi32>
  %s = stablehlo.add %i, %j : tensor<130x129xi32>
  %m = stablehlo.constant dense<251> : tensor<130x129xi32>
  %r = stablehlo.remainder %s, %m : tensor<130x129xi32>
  %f = stablehlo.convert %r : (tensor<130x129xi32>) -> tensor<130x129xbf16>
  %b = stablehlo.convert %s : (tensor<130x129xi32>) -> tensor<130x129xi8>
  %fx, %bx = stablehlo.optimization_barrier %f, %b : tensor<130x129xbf16>, tensor<130x129xi8>
  %ft = stablehlo.transpose %fx, dims = [1, 0] : (tensor<130x129xbf16>) -> tensor<129x130xbf16>
  %bt = stablehlo.transpose %bx, dims = [1, 0] : (tensor<130x129xi8>) -> tensor<129x130xi8>
  %ti = stablehlo.iota dim = 1 : tensor<129x130xi32>
  %tj = stablehlo.iota dim = 0 : tensor<129x130xi32>
  %ts = stablehlo.add %ti, %tj : tensor<129x130xi32>
  %tm = stablehlo.constant dense<251> : tensor<129x130xi32>
  %tr = stablehlo.remainder %ts, %tm : tensor<129x130xi32>
  %fwant = stablehlo.convert %tr : (tensor<129x130xi32>) -> tensor<129x130xbf16>
  %bwant = stablehlo.convert %ts : (tensor<129x130xi32>) -> tensor<129x130xi8>
  check.expect_eq %ft, %fwant : tensor<129x130xbf16>
  check.expect_eq %bt, %bwant : tensor<129x130xi8>
  func.return
}

// -----

// Not the copy: a transpose of a value computed in its loop (read transposed there), and
// one that keeps the innermost dim (whole rows).
func.func @generated_loops() {
  %i = stablehlo.iota dim = 0 : tensor<64x300xf32>
  %j = stablehlo.iota dim = 1 : tensor<64x300xf32>
  %k = stablehlo.constant dense<1000.0> : tensor<64x300xf32>
  %ik = stablehlo.multiply %i, %k : tensor<64x300xf32>
  %x = stablehlo.add %ik, %j : tensor<64x300xf32>
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<64x300xf32>) -> tensor<300x64xf32>
  %ti = stablehlo.iota dim = 1 : tensor<300x64xf32>
  %tj = stablehlo.iota dim = 0 : tensor<300x64xf32>
  %tk = stablehlo.constant dense<1000.0> : tensor<300x64xf32>
  %tik = stablehlo.multiply %ti, %tk : tensor<300x64xf32>
  %want = stablehlo.add %tik, %tj : tensor<300x64xf32>
  check.expect_eq %t, %want : tensor<300x64xf32>
  %y0 = stablehlo.reshape %x : (tensor<64x300xf32>) -> tensor<8x8x300xf32>
  %y = stablehlo.optimization_barrier %y0 : tensor<8x8x300xf32>
  %u = stablehlo.transpose %y, dims = [1, 0, 2] : (tensor<8x8x300xf32>) -> tensor<8x8x300xf32>
  %ua = stablehlo.iota dim = 1 : tensor<8x8x300xf32>
  %ub = stablehlo.iota dim = 0 : tensor<8x8x300xf32>
  %uc = stablehlo.iota dim = 2 : tensor<8x8x300xf32>
  %e = stablehlo.constant dense<8.0> : tensor<8x8x300xf32>
  %ue = stablehlo.multiply %ua, %e : tensor<8x8x300xf32>
  %ur = stablehlo.add %ue, %ub : tensor<8x8x300xf32>
  %uk = stablehlo.constant dense<1000.0> : tensor<8x8x300xf32>
  %urk = stablehlo.multiply %ur, %uk : tensor<8x8x300xf32>
  %uwant = stablehlo.add %urk, %uc : tensor<8x8x300xf32>
  check.expect_eq %u, %uwant : tensor<8x8x300xf32>
  func.return
}
