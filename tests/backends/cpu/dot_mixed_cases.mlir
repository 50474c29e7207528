// dot_general with operands of different element types (StableHLO's reference verifier
// does not require them equal; JAX emits f8E4M3FN x f8E5M2 products with an f32 result):
// each operand is converted to the result's type, on the cpu device and the interpreter.

func.func @fp8_e4m3fn_e5m2_vector() {
  %a = stablehlo.constant dense<[1.5, -2.0, 0.25]> : tensor<3xf8E4M3FN>
  %b = stablehlo.constant dense<[2.0, 3.0, -4.0]> : tensor<3xf8E5M2>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<3xf8E4M3FN>, tensor<3xf8E5M2>) -> tensor<f32>
  check.expect_eq_const %r, dense<-4.0> : tensor<f32>
  func.return
}

// -----

func.func @fp8_e5m2_e4m3fn_matrix() {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [-0.5, 0.0, 448.0]]> : tensor<2x3xf8E5M2>
  %b = stablehlo.constant dense<[[1.0, -1.0], [0.5, 2.0], [0.125, 448.0]]> : tensor<3x2xf8E4M3FN>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf8E5M2>, tensor<3x2xf8E4M3FN>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[2.375, 1347.0], [55.5, 200704.5]]> : tensor<2x2xf32>
  func.return
}

// -----

func.func @f32_bf16_batched() {
  %a = stablehlo.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>
  %b = stablehlo.constant dense<[[[0.5], [0.25]], [[-1.0], [2.0]]]> : tensor<2x2x1xbf16>
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x1x2xf32>, tensor<2x2x1xbf16>) -> tensor<2x1x1xf32>
  check.expect_eq_const %r, dense<[[[1.0]], [[5.0]]]> : tensor<2x1x1xf32>
  func.return
}

// -----

// Large enough for oneDNN: 64x64 by 64x64, f16 by f32.
func.func @f16_f32_large() {
  %a = stablehlo.constant dense<0.5> : tensor<64x64xf16>
  %b = stablehlo.constant dense<0.25> : tensor<64x64xf32>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
  check.expect_eq_const %r, dense<8.0> : tensor<64x64xf32>
  func.return
}

// -----

func.func @i8_i32() {
  %a = stablehlo.constant dense<[[-128, 127], [3, -4]]> : tensor<2x2xi8>
  %b = stablehlo.constant dense<[[100000, 1], [2, -3]]> : tensor<2x2xi32>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xi8>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[-12799746, -509], [299992, 15]]> : tensor<2x2xi32>
  func.return
}
