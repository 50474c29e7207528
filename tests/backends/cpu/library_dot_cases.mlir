// Products that the cpu device runs on a library's kernels where oneDNN has none: complex
// tensors as four real products (canonicalize.c: complex_product, from 2^15 multiply-adds:
// @large_c64; the smaller ones here stay complex loops), f64 ones as OpenBLAS's dgemm
// (native_dgemm.c); exact (small integers); on the interpreter as written.

func.func @matrix_c64() {
  %a = stablehlo.constant dense<[[(1.0, 2.0), (-1.0, 0.0), (3.0, -1.0)], [(0.0, 1.0), (2.0, 2.0), (-2.0, -3.0)]]> : tensor<2x3xcomplex<f32>>
  %b = stablehlo.constant dense<[[(2.0, -1.0), (1.0, 1.0)], [(0.0, 3.0), (-1.0, 0.0)], [(1.0, 1.0), (4.0, -2.0)]]> : tensor<3x2xcomplex<f32>>
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xcomplex<f32>>, tensor<3x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  check.expect_eq_const %c, dense<[[(8.0, 2.0), (10.0, -7.0)], [(-4.0, 3.0), (-17.0, -9.0)]]> : tensor<2x2xcomplex<f32>>
  func.return
}

// -----

// Batching dims, each batch its own product.
func.func @batched_c64() {
  %a = stablehlo.constant dense<[[[(1.0, 1.0), (2.0, 0.0)], [(0.0, -1.0), (1.0, 2.0)]], [[(3.0, -2.0), (-1.0, 1.0)], [(2.0, 0.0), (0.0, 1.0)]]]> : tensor<2x2x2xcomplex<f32>>
  %b = stablehlo.constant dense<[[[(1.0, -1.0), (0.0, 2.0)], [(2.0, 1.0), (1.0, 0.0)]], [[(0.0, 1.0), (1.0, 1.0)], [(-1.0, 0.0), (2.0, -2.0)]]]> : tensor<2x2x2xcomplex<f32>>
  %c = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x2xcomplex<f32>>, tensor<2x2x2xcomplex<f32>>) -> tensor<2x2x2xcomplex<f32>>
  check.expect_eq_const %c, dense<[[[(6.0, 2.0), (0.0, 2.0)], [(-1.0, 4.0), (3.0, 2.0)]], [[(3.0, 2.0), (5.0, 5.0)], [(0.0, 1.0), (4.0, 4.0)]]]> : tensor<2x2x2xcomplex<f32>>
  func.return
}

// -----

// complex<f64> vectors: a dot to a scalar.
func.func @vector_c128() {
  %u = stablehlo.constant dense<[(1.5, 2.0), (-0.5, 1.0), (2.0, -1.0), (0.0, 4.0)]> : tensor<4xcomplex<f64>>
  %v = stablehlo.constant dense<[(2.0, -0.5), (1.0, 1.0), (-3.0, 2.0), (0.5, 0.0)]> : tensor<4xcomplex<f64>>
  %d = stablehlo.dot_general %u, %v, contracting_dims = [0] x [0] : (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) -> tensor<complex<f64>>
  check.expect_eq_const %d, dense<(-1.5, 12.75)> : tensor<complex<f64>>
  func.return
}

// -----

// Contracting the lhs's first dim with the rhs's last (both operands read transposed).
func.func @transposed_c64() {
  %p = stablehlo.constant dense<[[(1.0, 0.0), (2.0, -1.0)], [(0.0, 2.0), (-1.0, 1.0)], [(3.0, 3.0), (1.0, 0.0)]]> : tensor<3x2xcomplex<f32>>
  %q = stablehlo.constant dense<[[(1.0, 1.0), (0.0, -1.0), (2.0, 0.0)], [(-2.0, 0.0), (1.0, 2.0), (0.0, 1.0)]]> : tensor<2x3xcomplex<f32>>
  %r = stablehlo.dot_general %p, %q, contracting_dims = [0] x [1] : (tensor<3x2xcomplex<f32>>, tensor<2x3xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  check.expect_eq_const %r, dense<[[(9.0, 7.0), (-9.0, 5.0)], [(6.0, 2.0), (-7.0, 2.0)]]> : tensor<2x2xcomplex<f32>>
  func.return
}

// -----

// f64 products: OpenBLAS's dgemm (native_dgemm.c), every form it takes: plain, either
// operand read transposed, batched, matrix-vector and vector-matrix, a vector dot, and a
// contraction over no elements (zeros).
func.func @f64_forms() {
  %a = stablehlo.constant dense<[[1.0, 2.0, -3.0], [4.0, 0.0, 5.0]]> : tensor<2x3xf64>
  %b = stablehlo.constant dense<[[2.0, -1.0], [0.0, 3.0], [1.0, 1.0]]> : tensor<3x2xf64>
  %at = stablehlo.constant dense<[[1.0, 4.0], [2.0, 0.0], [-3.0, 5.0]]> : tensor<3x2xf64>
  %bt = stablehlo.constant dense<[[2.0, 0.0, 1.0], [-1.0, 3.0, 1.0]]> : tensor<2x3xf64>
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
  %c1 = stablehlo.dot_general %at, %b, contracting_dims = [0] x [0] : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
  %c2 = stablehlo.dot_general %a, %bt, contracting_dims = [1] x [1] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x2xf64>
  %c3 = stablehlo.dot_general %at, %bt, contracting_dims = [0] x [1] : (tensor<3x2xf64>, tensor<2x3xf64>) -> tensor<2x2xf64>
  check.expect_eq_const %c, dense<[[-1.0, 2.0], [13.0, 1.0]]> : tensor<2x2xf64>
  check.expect_eq_const %c1, dense<[[-1.0, 2.0], [13.0, 1.0]]> : tensor<2x2xf64>
  check.expect_eq_const %c2, dense<[[-1.0, 2.0], [13.0, 1.0]]> : tensor<2x2xf64>
  check.expect_eq_const %c3, dense<[[-1.0, 2.0], [13.0, 1.0]]> : tensor<2x2xf64>
  %a2 = stablehlo.constant dense<[[[1.0, 2.0, -3.0], [4.0, 0.0, 5.0]], [[0.0, 1.0, 1.0], [2.0, 2.0, -1.0]]]> : tensor<2x2x3xf64>
  %b2 = stablehlo.constant dense<[[[2.0, -1.0], [0.0, 3.0], [1.0, 1.0]], [[1.0, 0.0], [-2.0, 1.0], [3.0, 3.0]]]> : tensor<2x3x2xf64>
  %d = stablehlo.dot_general %a2, %b2, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x3xf64>, tensor<2x3x2xf64>) -> tensor<2x2x2xf64>
  check.expect_eq_const %d, dense<[[[-1.0, 2.0], [13.0, 1.0]], [[1.0, 4.0], [-5.0, -1.0]]]> : tensor<2x2x2xf64>
  %v = stablehlo.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf64>
  %w = stablehlo.constant dense<[4.0, 5.0, -6.0]> : tensor<3xf64>
  %mv = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0] : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2xf64>
  %vm = stablehlo.dot_general %v, %b, contracting_dims = [0] x [0] : (tensor<3xf64>, tensor<3x2xf64>) -> tensor<2xf64>
  %vv = stablehlo.dot_general %v, %w, contracting_dims = [0] x [0] : (tensor<3xf64>, tensor<3xf64>) -> tensor<f64>
  check.expect_eq_const %mv, dense<[-12.0, 19.0]> : tensor<2xf64>
  check.expect_eq_const %vm, dense<[5.0, -4.0]> : tensor<2xf64>
  check.expect_eq_const %vv, dense<-24.0> : tensor<f64>
  %e0 = stablehlo.constant dense<> : tensor<2x0xf64>
  %e1 = stablehlo.constant dense<> : tensor<0x3xf64>
  %z = stablehlo.dot_general %e0, %e1, contracting_dims = [1] x [0] : (tensor<2x0xf64>, tensor<0x3xf64>) -> tensor<2x3xf64>
  check.expect_eq_const %z, dense<0.0> : tensor<2x3xf64>
  func.return
}

// -----

// An f64 product whose rows dgemm splits over the threads, each thread's rows in one call
// (native_dgemm.c): 200x96 by 96x64, the lhs also read transposed, integers exact in f64,
// against the same sums as a multiply and a reduce.
func.func @f64_rows_split() {
  %i = stablehlo.iota dim = 0 : tensor<200x96xi32>
  %j = stablehlo.iota dim = 1 : tensor<200x96xi32>
  %three = stablehlo.constant dense<3> : tensor<200x96xi32>
  %five = stablehlo.constant dense<5> : tensor<200x96xi32>
  %seven = stablehlo.constant dense<7> : tensor<200x96xi32>
  %i3 = stablehlo.multiply %i, %three : tensor<200x96xi32>
  %j5 = stablehlo.multiply %j, %five : tensor<200x96xi32>
  %s = stablehlo.add %i3, %j5 : tensor<200x96xi32>
  %r = stablehlo.remainder %s, %seven : tensor<200x96xi32>
  %ai = stablehlo.subtract %r, %three : tensor<200x96xi32>
  %a = stablehlo.convert %ai : (tensor<200x96xi32>) -> tensor<200x96xf64>
  %k = stablehlo.iota dim = 0 : tensor<96x64xi32>
  %n = stablehlo.iota dim = 1 : tensor<96x64xi32>
  %two = stablehlo.constant dense<2> : tensor<96x64xi32>
  %five2 = stablehlo.constant dense<5> : tensor<96x64xi32>
  %k2 = stablehlo.multiply %k, %two : tensor<96x64xi32>
  %kn = stablehlo.add %k2, %n : tensor<96x64xi32>
  %q = stablehlo.remainder %kn, %five2 : tensor<96x64xi32>
  %bi = stablehlo.subtract %q, %two : tensor<96x64xi32>
  %b = stablehlo.convert %bi : (tensor<96x64xi32>) -> tensor<96x64xf64>
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<200x96xf64>, tensor<96x64xf64>) -> tensor<200x64xf64>
  %at = stablehlo.transpose %a, dims = [1, 0] : (tensor<200x96xf64>) -> tensor<96x200xf64>
  %ct = stablehlo.dot_general %at, %b, contracting_dims = [0] x [0] : (tensor<96x200xf64>, tensor<96x64xf64>) -> tensor<200x64xf64>
  %ab = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<200x96xf64>) -> tensor<200x96x64xf64>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1, 2] : (tensor<96x64xf64>) -> tensor<200x96x64xf64>
  %p = stablehlo.multiply %ab, %bb : tensor<200x96x64xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %ref = stablehlo.reduce(%p init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<200x96x64xf64>, tensor<f64>) -> tensor<200x64xf64>
  check.expect_eq %c, %ref : tensor<200x64xf64>
  check.expect_eq %ct, %ref : tensor<200x64xf64>
  func.return
}

// -----

// A product large enough to run as four real products (at least 2^15 multiply-adds; the
// small ones above stay complex loops): A = (i - j) + i(i + j), B = (i + j) + i(i - j) over
// 64x64, integers exact in f32; its first row and last column checked.
func.func @large_c64() {
  %i = stablehlo.iota dim = 0 : tensor<64x64xf32>
  %j = stablehlo.iota dim = 1 : tensor<64x64xf32>
  %d = stablehlo.subtract %i, %j : tensor<64x64xf32>
  %s = stablehlo.add %i, %j : tensor<64x64xf32>
  %a = stablehlo.complex %d, %s : tensor<64x64xcomplex<f32>>
  %b = stablehlo.complex %s, %d : tensor<64x64xcomplex<f32>>
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x64xcomplex<f32>>, tensor<64x64xcomplex<f32>>) -> tensor<64x64xcomplex<f32>>
  %row = stablehlo.slice %c [0:1, 0:64] : (tensor<64x64xcomplex<f32>>) -> tensor<1x64xcomplex<f32>>
  %col = stablehlo.slice %c [0:64, 63:64] : (tensor<64x64xcomplex<f32>>) -> tensor<64x1xcomplex<f32>>
  check.expect_eq_const %row, dense<[[(-170688.0, 0.0), (-170688.0, 4032.0), (-170688.0, 8064.0), (-170688.0, 12096.0), (-170688.0, 16128.0), (-170688.0, 20160.0), (-170688.0, 24192.0), (-170688.0, 28224.0), (-170688.0, 32256.0), (-170688.0, 36288.0), (-170688.0, 40320.0), (-170688.0, 44352.0), (-170688.0, 48384.0), (-170688.0, 52416.0), (-170688.0, 56448.0), (-170688.0, 60480.0), (-170688.0, 64512.0), (-170688.0, 68544.0), (-170688.0, 72576.0), (-170688.0, 76608.0), (-170688.0, 80640.0), (-170688.0, 84672.0), (-170688.0, 88704.0), (-170688.0, 92736.0), (-170688.0, 96768.0), (-170688.0, 100800.0), (-170688.0, 104832.0), (-170688.0, 108864.0), (-170688.0, 112896.0), (-170688.0, 116928.0), (-170688.0, 120960.0), (-170688.0, 124992.0), (-170688.0, 129024.0), (-170688.0, 133056.0), (-170688.0, 137088.0), (-170688.0, 141120.0), (-170688.0, 145152.0), (-170688.0, 149184.0), (-170688.0, 153216.0), (-170688.0, 157248.0), (-170688.0, 161280.0), (-170688.0, 165312.0), (-170688.0, 169344.0), (-170688.0, 173376.0), (-170688.0, 177408.0), (-170688.0, 181440.0), (-170688.0, 185472.0), (-170688.0, 189504.0), (-170688.0, 193536.0), (-170688.0, 197568.0), (-170688.0, 201600.0), (-170688.0, 205632.0), (-170688.0, 209664.0), (-170688.0, 213696.0), (-170688.0, 217728.0), (-170688.0, 221760.0), (-170688.0, 225792.0), (-170688.0, 229824.0), (-170688.0, 233856.0), (-170688.0, 237888.0), (-170688.0, 241920.0), (-170688.0, 245952.0), (-170688.0, 249984.0), (-170688.0, 254016.0)]]> : tensor<1x64xcomplex<f32>>
  check.expect_eq_const %col, dense<[[(-170688.0, 254016.0)], [(-162624.0, 258048.0)], [(-154560.0, 262080.0)], [(-146496.0, 266112.0)], [(-138432.0, 270144.0)], [(-130368.0, 274176.0)], [(-122304.0, 278208.0)], [(-114240.0, 282240.0)], [(-106176.0, 286272.0)], [(-98112.0, 290304.0)], [(-90048.0, 294336.0)], [(-81984.0, 298368.0)], [(-73920.0, 302400.0)], [(-65856.0, 306432.0)], [(-57792.0, 310464.0)], [(-49728.0, 314496.0)], [(-41664.0, 318528.0)], [(-33600.0, 322560.0)], [(-25536.0, 326592.0)], [(-17472.0, 330624.0)], [(-9408.0, 334656.0)], [(-1344.0, 338688.0)], [(6720.0, 342720.0)], [(14784.0, 346752.0)], [(22848.0, 350784.0)], [(30912.0, 354816.0)], [(38976.0, 358848.0)], [(47040.0, 362880.0)], [(55104.0, 366912.0)], [(63168.0, 370944.0)], [(71232.0, 374976.0)], [(79296.0, 379008.0)], [(87360.0, 383040.0)], [(95424.0, 387072.0)], [(103488.0, 391104.0)], [(111552.0, 395136.0)], [(119616.0, 399168.0)], [(127680.0, 403200.0)], [(135744.0, 407232.0)], [(143808.0, 411264.0)], [(151872.0, 415296.0)], [(159936.0, 419328.0)], [(168000.0, 423360.0)], [(176064.0, 427392.0)], [(184128.0, 431424.0)], [(192192.0, 435456.0)], [(200256.0, 439488.0)], [(208320.0, 443520.0)], [(216384.0, 447552.0)], [(224448.0, 451584.0)], [(232512.0, 455616.0)], [(240576.0, 459648.0)], [(248640.0, 463680.0)], [(256704.0, 467712.0)], [(264768.0, 471744.0)], [(272832.0, 475776.0)], [(280896.0, 479808.0)], [(288960.0, 483840.0)], [(297024.0, 487872.0)], [(305088.0, 491904.0)], [(313152.0, 495936.0)], [(321216.0, 499968.0)], [(329280.0, 504000.0)], [(337344.0, 508032.0)]]> : tensor<64x1xcomplex<f32>>
  func.return
}

// -----

// f32 matrices times vectors (Kiln's sgemm where oneDNN's matmul would be brgemm:
// dnnl_gemm.c, vector_product): a column (a 300x257 matrix by a vector; a batch of three
// 40x257 ones, with a bias and a relu after) and a row (by a 257x300 matrix), integers
// exact in f32, each against the same sums as a multiply and a reduce.
func.func @f32_matrix_vector() {
  %i = stablehlo.iota dim = 0 : tensor<300x257xi32>
  %j = stablehlo.iota dim = 1 : tensor<300x257xi32>
  %three = stablehlo.constant dense<3> : tensor<300x257xi32>
  %five = stablehlo.constant dense<5> : tensor<300x257xi32>
  %seven = stablehlo.constant dense<7> : tensor<300x257xi32>
  %i3 = stablehlo.multiply %i, %three : tensor<300x257xi32>
  %j5 = stablehlo.multiply %j, %five : tensor<300x257xi32>
  %s = stablehlo.add %i3, %j5 : tensor<300x257xi32>
  %r = stablehlo.remainder %s, %seven : tensor<300x257xi32>
  %c = stablehlo.subtract %r, %three : tensor<300x257xi32>
  %a = stablehlo.convert %c : (tensor<300x257xi32>) -> tensor<300x257xf32>
  %k = stablehlo.iota dim = 0 : tensor<257xi32>
  %five1 = stablehlo.constant dense<5> : tensor<257xi32>
  %ki = stablehlo.remainder %k, %five1 : tensor<257xi32>
  %two = stablehlo.constant dense<2> : tensor<257xi32>
  %kv = stablehlo.subtract %ki, %two : tensor<257xi32>
  %v = stablehlo.convert %kv : (tensor<257xi32>) -> tensor<257xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mv = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0] : (tensor<300x257xf32>, tensor<257xf32>) -> tensor<300xf32>
  %vb = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<257xf32>) -> tensor<300x257xf32>
  %p = stablehlo.multiply %a, %vb : tensor<300x257xf32>
  %mv_ref = stablehlo.reduce(%p init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<300x257xf32>, tensor<f32>) -> tensor<300xf32>
  check.expect_eq %mv, %mv_ref : tensor<300xf32>
  %row = stablehlo.reshape %v : (tensor<257xf32>) -> tensor<1x257xf32>
  %at = stablehlo.transpose %a, dims = [1, 0] : (tensor<300x257xf32>) -> tensor<257x300xf32>
  %vm = stablehlo.dot_general %row, %at, contracting_dims = [1] x [0] : (tensor<1x257xf32>, tensor<257x300xf32>) -> tensor<1x300xf32>
  %vm_ref = stablehlo.reshape %mv_ref : (tensor<300xf32>) -> tensor<1x300xf32>
  check.expect_eq %vm, %vm_ref : tensor<1x300xf32>
  %a3s = stablehlo.slice %a [0:120, 0:257] : (tensor<300x257xf32>) -> tensor<120x257xf32>
  %a3 = stablehlo.reshape %a3s : (tensor<120x257xf32>) -> tensor<3x40x257xf32>
  %v3s = stablehlo.slice %a [7:10, 0:257] : (tensor<300x257xf32>) -> tensor<3x257xf32>
  %bmv = stablehlo.dot_general %a3, %v3s, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x40x257xf32>, tensor<3x257xf32>) -> tensor<3x40xf32>
  %bias = stablehlo.constant dense<5.0> : tensor<3x40xf32>
  %zeros = stablehlo.constant dense<0.0> : tensor<3x40xf32>
  %bb = stablehlo.add %bmv, %bias : tensor<3x40xf32>
  %relu = stablehlo.maximum %bb, %zeros : tensor<3x40xf32>
  %v3b = stablehlo.broadcast_in_dim %v3s, dims = [0, 2] : (tensor<3x257xf32>) -> tensor<3x40x257xf32>
  %p3 = stablehlo.multiply %a3, %v3b : tensor<3x40x257xf32>
  %s3 = stablehlo.reduce(%p3 init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<3x40x257xf32>, tensor<f32>) -> tensor<3x40xf32>
  %b3 = stablehlo.add %s3, %bias : tensor<3x40xf32>
  %relu_ref = stablehlo.maximum %b3, %zeros : tensor<3x40xf32>
  check.expect_eq %relu, %relu_ref : tensor<3x40xf32>
  func.return
}
