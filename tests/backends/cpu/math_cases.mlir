// Elementwise ops the loops compute on bits or with series of their own (llvm_math_gamma.c,
// llvm_math_zeta.c, llvm_math_next_after.c, loopgen.c's reduce_precision, loopgen_complex.c's
// hypot): the cases random values seldom reach. Each input passes an optimization_barrier, so that nothing folds it
// away.

// Ties of the rounded mantissa go to even; beyond the exponent's range: infinity or zero.
func.func @reduce_precision_ties() {
  %c = stablehlo.constant dense<[1.00048828125, 1.00146484375, 65520.0, 1.0e-08, -3.0, 65519.0]> : tensor<6xf32>
  %x = stablehlo.optimization_barrier %c : tensor<6xf32>
  %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<6xf32>
  check.expect_eq_const %r, dense<[1.0, 1.001953125, 0x7F800000, 0.0, -3.0, 65504.0]> : tensor<6xf32>
  %d = stablehlo.constant dense<[1.000000059604644775390625, 1.000000178813934326171875, 1.0e+300, 1.0e-300]> : tensor<4xf64>
  %y = stablehlo.optimization_barrier %d : tensor<4xf64>
  %s = stablehlo.reduce_precision %y, format = e8m23 : tensor<4xf64>
  check.expect_eq_const %s, dense<[1.0, 1.0000002384185791015625, 0x7FF0000000000000, 0.0]> : tensor<4xf64>
  func.return
}

// lgamma at its zeros (1, 2), its minimum, exact values, the reflected side and the poles.
func.func @lgamma_values() {
  %c = stablehlo.constant dense<[0.5, 1.0, 2.0, 3.0, 10.0, -0.5, -2.5, 1.0e-30, 100.0, 1.4616321, 0.0, -1.0]> : tensor<12xf32>
  %x = stablehlo.optimization_barrier %c : tensor<12xf32>
  %r = chlo.lgamma %x : tensor<12xf32> -> tensor<12xf32>
  check.expect_almost_eq_const %r, dense<[0.5723649263, 0.0, 0.0, 0.6931471825, 12.80182743, 1.265512109, -0.05624371767, 69.07755279, 359.1342163, -0.1214862913, 0x7F800000, 0x7F800000]> : tensor<12xf32>
  %d = stablehlo.constant dense<[0.5, 3.0, -2.5, 1.0e-30, 100.0, 1.4616321]> : tensor<6xf64>
  %y = stablehlo.optimization_barrier %d : tensor<6xf64>
  %s = chlo.lgamma %y : tensor<6xf64> -> tensor<6xf64>
  check.expect_almost_eq_const %s, dense<[0.5723649429247, 0.6931471805599453, -0.05624371649767401, 69.07755278982137, 359.1342053695754, -0.12148629053584864]> : tensor<6xf64>
  func.return
}

// digamma near its positive zero, below 1, in the recurrence's range, the asymptotic one,
// and reflected.
func.func @digamma_values() {
  %c = stablehlo.constant dense<[0.5, 1.0, 2.0, 10.0, -0.5, -2.5, 100.0, 30.0]> : tensor<8xf32>
  %x = stablehlo.optimization_barrier %c : tensor<8xf32>
  %r = chlo.digamma %x : tensor<8xf32> -> tensor<8xf32>
  check.expect_almost_eq_const %r, dense<[-1.963510036, -0.5772156715, 0.4227843285, 2.251752615, 0.03648997471, 1.103156686, 4.600162029, 3.384438038]> : tensor<8xf32>
  %d = stablehlo.constant dense<[1.4616321, 7.25, -0.5]> : tensor<3xf64>
  %y = stablehlo.optimization_barrier %d : tensor<3xf64>
  %s = chlo.digamma %y : tensor<3xf64> -> tensor<3xf64>
  check.expect_almost_eq_const %s, dense<[-4.3514636958769774e-08, 1.9104535268837362, 0.03648997397857651]> : tensor<3xf64>
  func.return
}

// bessel_i1e: odd, both sides of the power series' end at 25, the asymptotic side.
func.func @bessel_i1e_values() {
  %c = stablehlo.constant dense<[0.5, 1.0, -1.0, 10.0, 24.9, 25.1, 30.0, -100.0]> : tensor<8xf64>
  %x = stablehlo.optimization_barrier %c : tensor<8xf64>
  %r = chlo.bessel_i1e %x : tensor<8xf64> -> tensor<8xf64>
  check.expect_almost_eq_const %r, dense<[0.15642080318487173, 0.2079104153497085, -0.2079104153497085, 0.1212626813844555, 0.07872879488210313, 0.07842431517836843, 0.07191633059864755, -0.03974415302513025]> : tensor<8xf64>
  func.return
}

// One step of the bits toward y; from zero the smallest subnormal signed like y.
func.func @next_after_steps() {
  %a = stablehlo.constant dense<[1.0, 0.0, 1.0, -1.0, 0x7F800000]> : tensor<5xf32>
  %b = stablehlo.constant dense<[2.0, -1.0, 1.0, 0.0, 0.0]> : tensor<5xf32>
  %x = stablehlo.optimization_barrier %a : tensor<5xf32>
  %y = stablehlo.optimization_barrier %b : tensor<5xf32>
  %r = chlo.next_after %x, %y : tensor<5xf32>, tensor<5xf32> -> tensor<5xf32>
  check.expect_eq_const %r, dense<[1.00000011920928955078125, 0x80000001, 1.0, -0.999999940395355224609375, 0x7F7FFFFF]> : tensor<5xf32>
  func.return
}

// Hurwitz zeta (jax.scipy.special.zeta): exact values (zeta(2) = pi^2/6, zeta(2, 1/2) =
// 3 zeta(2)), a large s, a small q, q below zero (integer s only) and CHLO's domain: +inf at
// s = 1 and at the poles q = 0, -1, ... for even s, NaN there for odd s, for s < 1 and for
// non-integer s below zero.
func.func @zeta_values() {
  %s = stablehlo.constant dense<[2.0, 3.0, 2.0, 2.0, 4.5, 30.0, 1.5, 2.0, 1.0, 0.5, 2.0, 3.0, 2.5, 3.0]> : tensor<14xf64>
  %q = stablehlo.constant dense<[1.0, 2.0, 0.5, -1.5, 3.25, 1.5, 1.0e-03, 100.0, 2.0, 2.0, -1.0, -2.0, -1.5, -13.5]> : tensor<14xf64>
  %x = stablehlo.optimization_barrier %s : tensor<14xf64>
  %y = stablehlo.optimization_barrier %q : tensor<14xf64>
  %r = chlo.zeta %x, %y : tensor<14xf64>, tensor<14xf64> -> tensor<14xf64>
  check.expect_almost_eq_const %r, dense<[1.6449340668482264, 0.20205690315959429, 4.9348022005446793, 9.3792466449891238, 0.0076478938025290898, 5.2150962038157318e-06, 31625.386966911913, 0.010050166663333571, 0x7FF0000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0.0025477761854917935]> : tensor<14xf64>
  %c = stablehlo.constant dense<[2.0, 4.5, 1.0]> : tensor<3xf32>
  %d = stablehlo.constant dense<[0.5, 3.25, 7.0]> : tensor<3xf32>
  %u = stablehlo.optimization_barrier %c : tensor<3xf32>
  %v = stablehlo.optimization_barrier %d : tensor<3xf32>
  %w = chlo.zeta %u, %v : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  check.expect_almost_eq_const %w, dense<[4.934802, 0.007647894, 0x7F800000]> : tensor<3xf32>
  func.return
}

// Polygamma (jax.scipy.special.polygamma): n = 0 is digamma; psi^(n)(x) = (-1)^(n+1) n!
// zeta(n + 1, x) for natural n, also at negative x; NaN for non-integer or negative n.
func.func @polygamma_values() {
  %n = stablehlo.constant dense<[1.0, 2.0, 0.0, 3.0, 1.0, 4.0, 1.0, 1.5, -1.0]> : tensor<9xf64>
  %x = stablehlo.constant dense<[1.0, 1.0, 1.0, 0.5, 10.0, 2.5, -0.5, 1.0, 1.0]> : tensor<9xf64>
  %a = stablehlo.optimization_barrier %n : tensor<9xf64>
  %b = stablehlo.optimization_barrier %x : tensor<9xf64>
  %r = chlo.polygamma %a, %b : tensor<9xf64>, tensor<9xf64> -> tensor<9xf64>
  check.expect_almost_eq_const %r, dense<[1.6449340668482264, -2.4041138063191886, -0.57721566490153286, 97.409091034002437, 0.10516633568168575, -0.31375599950673136, 8.9348022005446793, 0x7FF8000000000000, 0x7FF8000000000000]> : tensor<9xf64>
  func.return
}

// -----

// f32 sine and cosine with arguments on both sides of the short reduction's bound (4096:
// llvm_math_trig.c) in one vector, so that its lanes take the two reductions: the
// correctly rounded values.
func.func @sine_cosine_reductions() {
  %c = stablehlo.constant dense<[0x3F000000, 0xC0400000, 0x49742400, 0x457FF800, 0x45800A00, 0xF149F2CA, 0x3FC90FDB, 0x42C80000, 0xC6000000, 0x4F32D05E, 0x40000000, 0xBE800000, 0x4788B800, 0x41400000, 0xC5802000, 0x00000000, 0x1E3CE508, 0x40C90FDB]> : tensor<18xf32>
  %x = stablehlo.optimization_barrier %c : tensor<18xf32>
  %s = stablehlo.sine %x : tensor<18xf32>
  %k = stablehlo.cosine %x : tensor<18xf32>
  check.expect_eq_const %s, dense<[0x3EF57744, 0xBE1081C3, 0xBEB33259, 0xBF6844E2, 0x3F13520E, 0x3F4A89B0, 0x3F800000, 0xBF01A12E, 0x3F74C7C4, 0x3F7CAC5A, 0x3F68C7B7, 0xBE7D5777, 0xBF52CF32, 0xBF095CD8, 0x3E610D87, 0x00000000, 0x1E3CE508, 0x343BBD2E]> : tensor<18xf32>
  check.expect_eq_const %k, dense<[0x3F60A940, 0xBF7D7026, 0x3F6FCEFD, 0x3ED7495D, 0x3F515CCE, 0xBF1C9222, 0xB33BBD2E, 0x3F5CC0EE, 0x3E95EA1F, 0xBE248BFC, 0xBED51133, 0x3F780AA5, 0x3F113E1C, 0x3F5806D0, 0xBF79BDA3, 0x3F800000, 0x3F800000, 0x3F800000]> : tensor<18xf32>
  func.return
}

// -----

// complex abs (glibc's hypot, the interpreter's bits) in vectors of 8 lanes: one unusual
// lane (an infinity, a NaN, parts scaled against overflow or underflow, a negligible part,
// a signed zero) among seven ordinary ones, so that a vector's fast path (loopgen_complex.c:
// hypot_) meets each kind alone.
func.func @complex_abs_lanes() {
  %cf64 = stablehlo.constant dense<[(0x7FF0000000000000, 1.0), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (1.0, 0xFFF0000000000000), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (0x7FF8000000000000, 1.0), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (0x7FF0000000000000, 0x7FF8000000000000), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (1.0e300, 1.0e300), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (1.0e-300, 1.0e-300), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (1.0, 1.0e-20), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (-0.0, 5.0), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0)]> : tensor<64xcomplex<f64>>
  %x = stablehlo.optimization_barrier %cf64 : tensor<64xcomplex<f64>>
  %rf64 = stablehlo.abs %x : (tensor<64xcomplex<f64>>) -> tensor<64xf64>
  check.expect_eq_const %rf64, dense<[0x7FF0000000000000, 0x4001E3779B97F4A8, 0x4014000000000000, 0x402A000000000000, 0x3FE6A09E667F3BCC, 0x400752E50DB3A3A2, 0x4028154BE2773526, 0x4022706821902E9A, 0x7FF0000000000000, 0x4001E3779B97F4A8, 0x4014000000000000, 0x402A000000000000, 0x3FE6A09E667F3BCC, 0x400752E50DB3A3A2, 0x4028154BE2773526, 0x4022706821902E9A, 0x7FF8000000000000, 0x4001E3779B97F4A8, 0x4014000000000000, 0x402A000000000000, 0x3FE6A09E667F3BCC, 0x400752E50DB3A3A2, 0x4028154BE2773526, 0x4022706821902E9A, 0x7FF0000000000000, 0x4001E3779B97F4A8, 0x4014000000000000, 0x402A000000000000, 0x3FE6A09E667F3BCC, 0x400752E50DB3A3A2, 0x4028154BE2773526, 0x4022706821902E9A, 0x7E40E4D50F99B211, 0x4001E3779B97F4A8, 0x4014000000000000, 0x402A000000000000, 0x3FE6A09E667F3BCC, 0x400752E50DB3A3A2, 0x4028154BE2773526, 0x4022706821902E9A, 0x01AE4E8D12762225, 0x4001E3779B97F4A8, 0x4014000000000000, 0x402A000000000000, 0x3FE6A09E667F3BCC, 0x400752E50DB3A3A2, 0x4028154BE2773526, 0x4022706821902E9A, 0x3FF0000000000000, 0x4001E3779B97F4A8, 0x4014000000000000, 0x402A000000000000, 0x3FE6A09E667F3BCC, 0x400752E50DB3A3A2, 0x4028154BE2773526, 0x4022706821902E9A, 0x4014000000000000, 0x4001E3779B97F4A8, 0x4014000000000000, 0x402A000000000000, 0x3FE6A09E667F3BCC, 0x400752E50DB3A3A2, 0x4028154BE2773526, 0x4022706821902E9A]> : tensor<64xf64>
  %cf32 = stablehlo.constant dense<[(0x7F800000, 1.0), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (1.0, 0xFF800000), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (0x7FC00000, 1.0), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (0x7F800000, 0x7FC00000), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (1.0e30, 1.0e30), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (1.0e-30, 1.0e-30), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (1.0, 1.0e-10), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0), (-0.0, 5.0), (1.0, 2.0), (3.0, -4.0), (-5.0, 12.0), (0.1, 0.7), (2.5, 1.5), (-8.0, 9.0), (6.0, 7.0)]> : tensor<64xcomplex<f32>>
  %y = stablehlo.optimization_barrier %cf32 : tensor<64xcomplex<f32>>
  %rf32 = stablehlo.abs %y : (tensor<64xcomplex<f32>>) -> tensor<64xf32>
  check.expect_eq_const %rf32, dense<[0x7F800000, 0x400F1BBD, 0x40A00000, 0x41500000, 0x3F3504F3, 0x403A9728, 0x4140AA5F, 0x41138341, 0x7F800000, 0x400F1BBD, 0x40A00000, 0x41500000, 0x3F3504F3, 0x403A9728, 0x4140AA5F, 0x41138341, 0x7FC00000, 0x400F1BBD, 0x40A00000, 0x41500000, 0x3F3504F3, 0x403A9728, 0x4140AA5F, 0x41138341, 0x7F800000, 0x400F1BBD, 0x40A00000, 0x41500000, 0x3F3504F3, 0x403A9728, 0x4140AA5F, 0x41138341, 0x718ECC90, 0x400F1BBD, 0x40A00000, 0x41500000, 0x3F3504F3, 0x403A9728, 0x4140AA5F, 0x41138341, 0x0DE57822, 0x400F1BBD, 0x40A00000, 0x41500000, 0x3F3504F3, 0x403A9728, 0x4140AA5F, 0x41138341, 0x3F800000, 0x400F1BBD, 0x40A00000, 0x41500000, 0x3F3504F3, 0x403A9728, 0x4140AA5F, 0x41138341, 0x40A00000, 0x400F1BBD, 0x40A00000, 0x41500000, 0x3F3504F3, 0x403A9728, 0x4140AA5F, 0x41138341]> : tensor<64xf32>
  func.return
}
