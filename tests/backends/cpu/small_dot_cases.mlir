// Small contractions on the cpu device (compile.c, loopnest.c), against NumPy's values
// (exact: small integers), on the cpu device and the interpreter: products with few lhs rows
// run as generated loops rather than oneDNN, and contractions over one point are
// elementwise, fused with their neighbours.

// 1 row(s) of f32 by a 64x128 matrix: a generated loop (few rows), vectors across the results
// (groups of four vectors, one vector, then single lanes).
func.func @rows1_64x128_f32() {
  %a_i = stablehlo.iota dim = 0 : tensor<64xi32>
  %a_m = stablehlo.constant dense<7> : tensor<64xi32>
  %a_o = stablehlo.constant dense<3> : tensor<64xi32>
  %a_r = stablehlo.remainder %a_i, %a_m : tensor<64xi32>
  %a_s = stablehlo.subtract %a_r, %a_o : tensor<64xi32>
  %a_c = stablehlo.convert %a_s : (tensor<64xi32>) -> tensor<64xf32>
  %a = stablehlo.reshape %a_c : (tensor<64xf32>) -> tensor<1x64xf32>
  %b_i = stablehlo.iota dim = 0 : tensor<8192xi32>
  %b_m = stablehlo.constant dense<5> : tensor<8192xi32>
  %b_o = stablehlo.constant dense<2> : tensor<8192xi32>
  %b_r = stablehlo.remainder %b_i, %b_m : tensor<8192xi32>
  %b_s = stablehlo.subtract %b_r, %b_o : tensor<8192xi32>
  %b_c = stablehlo.convert %b_s : (tensor<8192xi32>) -> tensor<8192xf32>
  %b = stablehlo.reshape %b_c : (tensor<8192xf32>) -> tensor<64x128xf32>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x64xf32>, tensor<64x128xf32>) -> tensor<1x128xf32>
  check.expect_eq_const %r, dense<[[-5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0, 1.0, 3.0, -5.0, 2.0, -1.0]]> : tensor<1x128xf32>
  func.return
}

// -----

// 1 row(s) of f32 by a 48x100 matrix: a generated loop (few rows), vectors across the results
// (groups of four vectors, one vector, then single lanes).
func.func @rows1_48x100_f32() {
  %a_i = stablehlo.iota dim = 0 : tensor<48xi32>
  %a_m = stablehlo.constant dense<7> : tensor<48xi32>
  %a_o = stablehlo.constant dense<3> : tensor<48xi32>
  %a_r = stablehlo.remainder %a_i, %a_m : tensor<48xi32>
  %a_s = stablehlo.subtract %a_r, %a_o : tensor<48xi32>
  %a_c = stablehlo.convert %a_s : (tensor<48xi32>) -> tensor<48xf32>
  %a = stablehlo.reshape %a_c : (tensor<48xf32>) -> tensor<1x48xf32>
  %b_i = stablehlo.iota dim = 0 : tensor<4800xi32>
  %b_m = stablehlo.constant dense<5> : tensor<4800xi32>
  %b_o = stablehlo.constant dense<2> : tensor<4800xi32>
  %b_r = stablehlo.remainder %b_i, %b_m : tensor<4800xi32>
  %b_s = stablehlo.subtract %b_r, %b_o : tensor<4800xi32>
  %b_c = stablehlo.convert %b_s : (tensor<4800xi32>) -> tensor<4800xf32>
  %b = stablehlo.reshape %b_c : (tensor<4800xf32>) -> tensor<48x100xf32>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x48xf32>, tensor<48x100xf32>) -> tensor<1x100xf32>
  check.expect_eq_const %r, dense<[[6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0, 0.0, -3.0, -6.0]]> : tensor<1x100xf32>
  func.return
}

// -----

// 3 row(s) of f32 by a 40x70 matrix: a generated loop (few rows), vectors across the results
// (groups of four vectors, one vector, then single lanes).
func.func @rows3_40x70_f32() {
  %a_i = stablehlo.iota dim = 0 : tensor<120xi32>
  %a_m = stablehlo.constant dense<7> : tensor<120xi32>
  %a_o = stablehlo.constant dense<3> : tensor<120xi32>
  %a_r = stablehlo.remainder %a_i, %a_m : tensor<120xi32>
  %a_s = stablehlo.subtract %a_r, %a_o : tensor<120xi32>
  %a_c = stablehlo.convert %a_s : (tensor<120xi32>) -> tensor<120xf32>
  %a = stablehlo.reshape %a_c : (tensor<120xf32>) -> tensor<3x40xf32>
  %b_i = stablehlo.iota dim = 0 : tensor<2800xi32>
  %b_m = stablehlo.constant dense<5> : tensor<2800xi32>
  %b_o = stablehlo.constant dense<2> : tensor<2800xi32>
  %b_r = stablehlo.remainder %b_i, %b_m : tensor<2800xi32>
  %b_s = stablehlo.subtract %b_r, %b_o : tensor<2800xi32>
  %b_c = stablehlo.convert %b_s : (tensor<2800xi32>) -> tensor<2800xf32>
  %b = stablehlo.reshape %b_c : (tensor<2800xf32>) -> tensor<40x70xf32>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x40xf32>, tensor<40x70xf32>) -> tensor<3x70xf32>
  check.expect_eq_const %r, dense<[[10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0], [2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0], [-6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0, -6.0, -3.0, 0.0, 3.0, 6.0]]> : tensor<3x70xf32>
  func.return
}

// -----

// 2 row(s) of bf16 by a 33x300 matrix: a generated loop (few rows), vectors across the results
// (groups of four vectors, one vector, then single lanes).
func.func @rows2_33x300_bf16() {
  %a_i = stablehlo.iota dim = 0 : tensor<66xi32>
  %a_m = stablehlo.constant dense<7> : tensor<66xi32>
  %a_o = stablehlo.constant dense<3> : tensor<66xi32>
  %a_r = stablehlo.remainder %a_i, %a_m : tensor<66xi32>
  %a_s = stablehlo.subtract %a_r, %a_o : tensor<66xi32>
  %a_c = stablehlo.convert %a_s : (tensor<66xi32>) -> tensor<66xbf16>
  %a = stablehlo.reshape %a_c : (tensor<66xbf16>) -> tensor<2x33xbf16>
  %b_i = stablehlo.iota dim = 0 : tensor<9900xi32>
  %b_m = stablehlo.constant dense<5> : tensor<9900xi32>
  %b_o = stablehlo.constant dense<2> : tensor<9900xi32>
  %b_r = stablehlo.remainder %b_i, %b_m : tensor<9900xi32>
  %b_s = stablehlo.subtract %b_r, %b_o : tensor<9900xi32>
  %b_c = stablehlo.convert %b_s : (tensor<9900xi32>) -> tensor<9900xbf16>
  %b = stablehlo.reshape %b_c : (tensor<9900xbf16>) -> tensor<33x300xbf16>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x33xbf16>, tensor<33x300xbf16>) -> tensor<2x300xf32>
  check.expect_eq_const %r, dense<[[10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0, 10.0, 5.0, 0.0, -5.0, -10.0], [2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0, 0.0, -1.0, -2.0]]> : tensor<2x300xf32>
  func.return
}

// -----

// Two rows by transposed weights (contracting the rhs's last dim): a loop along the contraction.
func.func @rows2_transposed_weights() {
  %a_i = stablehlo.iota dim = 0 : tensor<128xi32>
  %a_m = stablehlo.constant dense<7> : tensor<128xi32>
  %a_o = stablehlo.constant dense<3> : tensor<128xi32>
  %a_r = stablehlo.remainder %a_i, %a_m : tensor<128xi32>
  %a_s = stablehlo.subtract %a_r, %a_o : tensor<128xi32>
  %a_c = stablehlo.convert %a_s : (tensor<128xi32>) -> tensor<128xf32>
  %a = stablehlo.reshape %a_c : (tensor<128xf32>) -> tensor<2x64xf32>
  %b_i = stablehlo.iota dim = 0 : tensor<6144xi32>
  %b_m = stablehlo.constant dense<5> : tensor<6144xi32>
  %b_o = stablehlo.constant dense<2> : tensor<6144xi32>
  %b_r = stablehlo.remainder %b_i, %b_m : tensor<6144xi32>
  %b_s = stablehlo.subtract %b_r, %b_o : tensor<6144xi32>
  %b_c = stablehlo.convert %b_s : (tensor<6144xi32>) -> tensor<6144xf32>
  %b = stablehlo.reshape %b_c : (tensor<6144xf32>) -> tensor<96x64xf32>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<2x64xf32>, tensor<96x64xf32>) -> tensor<2x96xf32>
  check.expect_eq_const %r, dense<[[-6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0, 2.0, 5.0, 3.0, -4.0, -6.0], [6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0, 8.0, 5.0, -3.0, -16.0, 6.0]]> : tensor<2x96xf32>
  func.return
}

// -----

// A contraction over one point (an outer product: a weight gradient at batch 1) is elementwise,
// fused with the transpose and the update that read it.
func.func @unit_contraction_update() {
  %a_i = stablehlo.iota dim = 0 : tensor<5xi32>
  %a_m = stablehlo.constant dense<7> : tensor<5xi32>
  %a_o = stablehlo.constant dense<3> : tensor<5xi32>
  %a_r = stablehlo.remainder %a_i, %a_m : tensor<5xi32>
  %a_s = stablehlo.subtract %a_r, %a_o : tensor<5xi32>
  %a_c = stablehlo.convert %a_s : (tensor<5xi32>) -> tensor<5xf32>
  %a = stablehlo.reshape %a_c : (tensor<5xf32>) -> tensor<1x5xf32>
  %b_i = stablehlo.iota dim = 0 : tensor<7xi32>
  %b_m = stablehlo.constant dense<5> : tensor<7xi32>
  %b_o = stablehlo.constant dense<2> : tensor<7xi32>
  %b_r = stablehlo.remainder %b_i, %b_m : tensor<7xi32>
  %b_s = stablehlo.subtract %b_r, %b_o : tensor<7xi32>
  %b_c = stablehlo.convert %b_s : (tensor<7xi32>) -> tensor<7xf32>
  %b = stablehlo.reshape %b_c : (tensor<7xf32>) -> tensor<1x7xf32>
  %w_i = stablehlo.iota dim = 0 : tensor<35xi32>
  %w_m = stablehlo.constant dense<9> : tensor<35xi32>
  %w_o = stablehlo.constant dense<4> : tensor<35xi32>
  %w_r = stablehlo.remainder %w_i, %w_m : tensor<35xi32>
  %w_s = stablehlo.subtract %w_r, %w_o : tensor<35xi32>
  %w_c = stablehlo.convert %w_s : (tensor<35xi32>) -> tensor<35xf32>
  %w = stablehlo.reshape %w_c : (tensor<35xf32>) -> tensor<7x5xf32>
  %p = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<1x5xf32>, tensor<1x7xf32>) -> tensor<5x7xf32>
  %t = stablehlo.transpose %p, dims = [1, 0] : (tensor<5x7xf32>) -> tensor<7x5xf32>
  %h = stablehlo.constant dense<0.5> : tensor<7x5xf32>
  %g = stablehlo.multiply %h, %t : tensor<7x5xf32>
  %r = stablehlo.subtract %w, %g : tensor<7x5xf32>
  check.expect_eq_const %p, dense<[[6.0, 3.0, 0.0, -3.0, -6.0, 6.0, 3.0], [4.0, 2.0, 0.0, -2.0, -4.0, 4.0, 2.0], [2.0, 1.0, 0.0, -1.0, -2.0, 2.0, 1.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0]]> : tensor<5x7xf32>
  check.expect_eq_const %r, dense<[[-7.0, -5.0, -3.0, -1.0, 1.0], [-0.5, 1.0, 2.5, 4.0, -3.5], [-3.0, -2.0, -1.0, 0.0, 1.0], [3.5, 4.0, 4.5, -4.0, -3.5], [1.0, 1.0, 1.0, 1.0, 1.0], [0.0, 2.0, -5.0, -3.0, -1.0], [-2.5, -1.0, 0.5, 2.0, 3.5]]> : tensor<7x5xf32>
  func.return
}

// -----

// Its products are sums of one term, 0 + a * b as the interpreter has it: -0 comes out +0.
func.func @unit_contraction_signed_zero() {
  %a = stablehlo.constant dense<[[0.0, -0.0, 2.0]]> : tensor<1x3xf32>
  %b = stablehlo.constant dense<[[-3.0, 4.0]]> : tensor<1x2xf32>
  %p = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<1x3xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
  %z = stablehlo.bitcast_convert %p : (tensor<3x2xf32>) -> tensor<3x2xi32>
  check.expect_eq_const %z, dense<[[0, 0], [0, 0], [-1061158912, 1090519040]]> : tensor<3x2xi32>
  func.return
}

// -----

// Batched, bf16 by f32: each operand converted to the accumulator first.
func.func @unit_contraction_batched_mixed() {
  %a_i = stablehlo.iota dim = 0 : tensor<6xi32>
  %a_m = stablehlo.constant dense<7> : tensor<6xi32>
  %a_o = stablehlo.constant dense<3> : tensor<6xi32>
  %a_r = stablehlo.remainder %a_i, %a_m : tensor<6xi32>
  %a_s = stablehlo.subtract %a_r, %a_o : tensor<6xi32>
  %a_c = stablehlo.convert %a_s : (tensor<6xi32>) -> tensor<6xbf16>
  %a = stablehlo.reshape %a_c : (tensor<6xbf16>) -> tensor<2x3x1xbf16>
  %b_i = stablehlo.iota dim = 0 : tensor<8xi32>
  %b_m = stablehlo.constant dense<5> : tensor<8xi32>
  %b_o = stablehlo.constant dense<2> : tensor<8xi32>
  %b_r = stablehlo.remainder %b_i, %b_m : tensor<8xi32>
  %b_s = stablehlo.subtract %b_r, %b_o : tensor<8xi32>
  %b_c = stablehlo.convert %b_s : (tensor<8xi32>) -> tensor<8xf32>
  %b = stablehlo.reshape %b_c : (tensor<8xf32>) -> tensor<2x1x4xf32>
  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x1xbf16>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  check.expect_eq_const %r, dense<[[[6.0, 3.0, 0.0, -3.0], [4.0, 2.0, 0.0, -2.0], [2.0, 1.0, 0.0, -1.0]], [[0.0, 0.0, 0.0, 0.0], [2.0, -2.0, -1.0, 0.0], [4.0, -4.0, -2.0, 0.0]]]> : tensor<2x3x4xf32>
  func.return
}

// -----

// No contracting dims at all, integers.
func.func @no_contraction_integers() {
  %a_i = stablehlo.iota dim = 0 : tensor<4xi32>
  %a_m = stablehlo.constant dense<7> : tensor<4xi32>
  %a_o = stablehlo.constant dense<3> : tensor<4xi32>
  %a_r = stablehlo.remainder %a_i, %a_m : tensor<4xi32>
  %a_s = stablehlo.subtract %a_r, %a_o : tensor<4xi32>
  %a_c = stablehlo.convert %a_s : (tensor<4xi32>) -> tensor<4xi32>
  %a = stablehlo.reshape %a_c : (tensor<4xi32>) -> tensor<4xi32>
  %b_i = stablehlo.iota dim = 0 : tensor<3xi32>
  %b_m = stablehlo.constant dense<5> : tensor<3xi32>
  %b_o = stablehlo.constant dense<2> : tensor<3xi32>
  %b_r = stablehlo.remainder %b_i, %b_m : tensor<3xi32>
  %b_s = stablehlo.subtract %b_r, %b_o : tensor<3xi32>
  %b_c = stablehlo.convert %b_s : (tensor<3xi32>) -> tensor<3xi32>
  %b = stablehlo.reshape %b_c : (tensor<3xi32>) -> tensor<3xi32>
  %r = stablehlo.dot_general %a, %b, contracting_dims = [] x [] : (tensor<4xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  check.expect_eq_const %r, dense<[[6, 3, 0], [4, 2, 0], [2, 1, 0], [0, 0, 0]]> : tensor<4x3xi32>
  func.return
}
