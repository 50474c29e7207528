// Programs for test_prepare.c: one step of each kind the compile's warm-up prepares, on
// made-up inputs. Each function is compiled alone.

// oneDNN: a product large enough to be cut into one primitive per pool thread
// (dnnl_split.c), a convolution, and a product with a transposed operand.
func.func @dnnl(%x: tensor<64x256xf32>, %w: tensor<256x512xf32>, %img: tensor<2x16x16x8xf32>,
                %k: tensor<3x3x8x16xf32>, %v: tensor<512x64xf32>) -> (tensor<64x512xf32>, tensor<2x14x14x16xf32>, tensor<256x512xf32>) {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x512xf32>) -> tensor<64x512xf32>
  %c = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x16x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x14x14x16xf32>
  %t = stablehlo.dot_general %x, %v, contracting_dims = [0] x [1] : (tensor<64x256xf32>, tensor<512x64xf32>) -> tensor<256x512xf32>
  return %d, %c, %t : tensor<64x512xf32>, tensor<2x14x14x16xf32>, tensor<256x512xf32>
}

// -----

// An FFT plan, a LAPACK plan (cholesky of x x^T + 64 I, positive definite) and a sort.
func.func @plans(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>, %a: tensor<64x64xf32>, %s: tensor<1000xf32>)
    -> (tensor<8x64xcomplex<f32>>, tensor<64x64xf32>, tensor<1000xf32>) {
  %z = stablehlo.complex %x, %y : tensor<8x64xcomplex<f32>>
  %f = stablehlo.fft %z, type = FFT, length = [64] : (tensor<8x64xcomplex<f32>>) -> tensor<8x64xcomplex<f32>>
  %g = stablehlo.dot_general %a, %a, contracting_dims = [1] x [1] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %i = stablehlo.iota dim = 0 : tensor<64x64xf32>
  %j = stablehlo.iota dim = 1 : tensor<64x64xf32>
  %e = stablehlo.compare EQ, %i, %j : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xi1>
  %n = stablehlo.constant dense<64.0> : tensor<64x64xf32>
  %o = stablehlo.constant dense<0.0> : tensor<64x64xf32>
  %d = stablehlo.select %e, %n, %o : tensor<64x64xi1>, tensor<64x64xf32>
  %p = stablehlo.add %g, %d : tensor<64x64xf32>
  %l = "stablehlo.cholesky"(%p) {lower = true} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = "stablehlo.sort"(%s) ({
  ^bb0(%u: tensor<f32>, %w: tensor<f32>):
    %lt = stablehlo.compare LT, %u, %w, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<1000xf32>) -> tensor<1000xf32>
  return %f, %l, %r : tensor<8x64xcomplex<f32>>, tensor<64x64xf32>, tensor<1000xf32>
}

// -----

// A while loop whose body runs a oneDNN product and a generated loop (a region's
// executable, warmed by its own compile), then a reduction after it.
func.func @loop(%x: tensor<32x128xf32>, %w: tensor<128x128xf32>) -> tensor<32xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %four = stablehlo.constant dense<4> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<32x128xf32>
    cond {
      %c = stablehlo.compare LT, %i, %four : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %d = stablehlo.dot_general %v, %w, contracting_dims = [1] x [0] : (tensor<32x128xf32>, tensor<128x128xf32>) -> tensor<32x128xf32>
      %t = stablehlo.tanh %d : tensor<32x128xf32>
      %n = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %n, %t : tensor<i32>, tensor<32x128xf32>
    }
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%r#1 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<32x128xf32>, tensor<f32>) -> tensor<32xf32>
  return %s : tensor<32xf32>
}
