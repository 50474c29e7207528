// Products of complex tensors on the cpu device: four real products (canonicalize.c:
// complex_product), exact here (small integers); on the interpreter as written.

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
