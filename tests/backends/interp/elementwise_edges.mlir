func.func @div_rem_i32() {
  %a = stablehlo.constant dense<[7, -7, 5, -2147483648, -2147483648, 0, -7]> : tensor<7xi32>
  %b = stablehlo.constant dense<[0, 0, -1, -1, 1, 0, 2]> : tensor<7xi32>
  %d = stablehlo.divide %a, %b : tensor<7xi32>
  %r = stablehlo.remainder %a, %b : tensor<7xi32>
  check.expect_eq_const %d, dense<[-1, -1, -5, -2147483648, -2147483648, -1, -3]> : tensor<7xi32>
  check.expect_eq_const %r, dense<[7, -7, 0, 0, 0, 0, -1]> : tensor<7xi32>
  func.return
}
// -----
func.func @div_rem_i64() {
  %a = stablehlo.constant dense<[-9223372036854775808, 3]> : tensor<2xi64>
  %b = stablehlo.constant dense<[-1, 0]> : tensor<2xi64>
  %d = stablehlo.divide %a, %b : tensor<2xi64>
  %r = stablehlo.remainder %a, %b : tensor<2xi64>
  check.expect_eq_const %d, dense<[-9223372036854775808, -1]> : tensor<2xi64>
  check.expect_eq_const %r, dense<[0, 3]> : tensor<2xi64>
  func.return
}
// -----
func.func @div_rem_ui8() {
  %a = stablehlo.constant dense<[5, 0, 255]> : tensor<3xui8>
  %b = stablehlo.constant dense<[0, 0, 16]> : tensor<3xui8>
  %d = stablehlo.divide %a, %b : tensor<3xui8>
  %r = stablehlo.remainder %a, %b : tensor<3xui8>
  check.expect_eq_const %d, dense<[255, 255, 15]> : tensor<3xui8>
  check.expect_eq_const %r, dense<[5, 0, 15]> : tensor<3xui8>
  func.return
}
// -----
func.func @rem_f32() {
  %a = stablehlo.constant dense<[5.5, -5.5, 1.0, 0x7F800000, 3.0]> : tensor<5xf32>
  %b = stablehlo.constant dense<[2.0, 2.0, 0.0, 1.0, 0x7F800000]> : tensor<5xf32>
  %r = stablehlo.remainder %a, %b : tensor<5xf32>
  %i = stablehlo.bitcast_convert %r : (tensor<5xf32>) -> tensor<5xi32>
  %n = stablehlo.compare NE, %r, %r : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %n, dense<[false, false, true, true, false]> : tensor<5xi1>
  %s = stablehlo.slice %r [0:2] : (tensor<5xf32>) -> tensor<2xf32>
  check.expect_eq_const %s, dense<[1.5, -1.5]> : tensor<2xf32>
  func.return
}
// -----
func.func @shifts_i8() {
  %a = stablehlo.constant dense<[1, 1, 1, -1]> : tensor<4xi8>
  %b = stablehlo.constant dense<[7, 8, -1, 3]> : tensor<4xi8>
  %r = stablehlo.shift_left %a, %b : tensor<4xi8>
  check.expect_eq_const %r, dense<[-128, 0, 0, -8]> : tensor<4xi8>
  %c = stablehlo.constant dense<[-128, -128, 64, -1]> : tensor<4xi8>
  %d = stablehlo.constant dense<[7, 8, -56, 1]> : tensor<4xi8>
  %s = stablehlo.shift_right_arithmetic %c, %d : tensor<4xi8>
  check.expect_eq_const %s, dense<[-1, -1, 0, -1]> : tensor<4xi8>
  %e = stablehlo.constant dense<[-128, -1, -1, 64]> : tensor<4xi8>
  %f = stablehlo.constant dense<[7, 8, 1, -1]> : tensor<4xi8>
  %t = stablehlo.shift_right_logical %e, %f : tensor<4xi8>
  check.expect_eq_const %t, dense<[1, 0, 127, 0]> : tensor<4xi8>
  func.return
}
// -----
func.func @shifts_64() {
  %a = stablehlo.constant dense<[1, -1, -9223372036854775808]> : tensor<3xi64>
  %b = stablehlo.constant dense<[63, 64, 63]> : tensor<3xi64>
  %r = stablehlo.shift_left %a, %b : tensor<3xi64>
  check.expect_eq_const %r, dense<[-9223372036854775808, 0, 0]> : tensor<3xi64>
  %s = stablehlo.shift_right_arithmetic %a, %b : tensor<3xi64>
  check.expect_eq_const %s, dense<[0, -1, -1]> : tensor<3xi64>
  %t = stablehlo.shift_right_logical %a, %b : tensor<3xi64>
  check.expect_eq_const %t, dense<[0, 0, 1]> : tensor<3xi64>
  %u = stablehlo.constant dense<[128, 255]> : tensor<2xui8>
  %v = stablehlo.constant dense<[7, 9]> : tensor<2xui8>
  %w = stablehlo.shift_right_arithmetic %u, %v : tensor<2xui8>
  check.expect_eq_const %w, dense<[255, 255]> : tensor<2xui8>
  func.return
}
// -----
func.func @minmax_f32() {
  %a = stablehlo.constant dense<[0x7FC00000, 1.0, -0.0, 0.0, 2.0]> : tensor<5xf32>
  %b = stablehlo.constant dense<[1.0, 0x7FC00000, 0.0, -0.0, -3.0]> : tensor<5xf32>
  %mx = stablehlo.maximum %a, %b : tensor<5xf32>
  %mn = stablehlo.minimum %a, %b : tensor<5xf32>
  %x = stablehlo.bitcast_convert %mx : (tensor<5xf32>) -> tensor<5xi32>
  %n = stablehlo.bitcast_convert %mn : (tensor<5xf32>) -> tensor<5xi32>
  check.expect_eq_const %x, dense<[2143289344, 2143289344, 0, 0, 1073741824]> : tensor<5xi32>
  check.expect_eq_const %n, dense<[2143289344, 2143289344, -2147483648, -2147483648, -1069547520]> : tensor<5xi32>
  func.return
}
// -----
func.func @minmax_int() {
  %a = stablehlo.constant dense<[200, 3]> : tensor<2xui8>
  %b = stablehlo.constant dense<[100, 4]> : tensor<2xui8>
  %mx = stablehlo.maximum %a, %b : tensor<2xui8>
  check.expect_eq_const %mx, dense<[200, 4]> : tensor<2xui8>
  %c = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %d = stablehlo.constant dense<[false, false]> : tensor<2xi1>
  %e = stablehlo.maximum %c, %d : tensor<2xi1>
  %f = stablehlo.minimum %c, %d : tensor<2xi1>
  check.expect_eq_const %e, dense<[true, false]> : tensor<2xi1>
  check.expect_eq_const %f, dense<[false, false]> : tensor<2xi1>
  func.return
}
// -----
func.func @compare_total() {
  %a = stablehlo.constant dense<[-0.0, 0x7FC00000, 0xFFC00000, 1.0, 0x7FC00000]> : tensor<5xf32>
  %b = stablehlo.constant dense<[0.0, 0x7FC00000, 1.0, 0x7F800000, 0x7F800000]> : tensor<5xf32>
  %eq = stablehlo.compare EQ, %a, %b, TOTALORDER : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  %gt = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %eq, dense<[false, true, false, false, false]> : tensor<5xi1>
  check.expect_eq_const %lt, dense<[true, false, true, true, false]> : tensor<5xi1>
  check.expect_eq_const %gt, dense<[false, false, false, false, true]> : tensor<5xi1>
  %feq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  %fne = stablehlo.compare NE, %a, %b, FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  %fge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %feq, dense<[true, false, false, false, false]> : tensor<5xi1>
  check.expect_eq_const %fne, dense<[false, true, true, true, true]> : tensor<5xi1>
  check.expect_eq_const %fge, dense<[true, false, false, false, false]> : tensor<5xi1>
  func.return
}
// -----
func.func @compare_bf16_total() {
  %a = stablehlo.constant dense<[0xFFC1, 0x7FC1, 0x8000]> : tensor<3xbf16>
  %b = stablehlo.constant dense<[0xFF80, 0x7FC0, 0x0000]> : tensor<3xbf16>
  %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<3xbf16>, tensor<3xbf16>) -> tensor<3xi1>
  check.expect_eq_const %lt, dense<[true, false, true]> : tensor<3xi1>
  func.return
}
// -----
func.func @compare_complex() {
  %a = stablehlo.constant dense<[(1.0, 2.0), (1.0, 2.0), (1.0, 0x7FC00000), (2.0, 0.0)]> : tensor<4xcomplex<f32>>
  %b = stablehlo.constant dense<[(1.0, 2.0), (1.0, 3.0), (1.0, 0x7FC00000), (1.0, 5.0)]> : tensor<4xcomplex<f32>>
  %eq = stablehlo.compare EQ, %a, %b : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  %ne = stablehlo.compare NE, %a, %b : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  %lt = stablehlo.compare LT, %a, %b : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  check.expect_eq_const %eq, dense<[true, false, false, false]> : tensor<4xi1>
  check.expect_eq_const %ne, dense<[false, true, true, true]> : tensor<4xi1>
  check.expect_eq_const %lt, dense<[false, true, false, false]> : tensor<4xi1>
  func.return
}
// -----
func.func @compare_unsigned() {
  %a = stablehlo.constant dense<[255, 0]> : tensor<2xui8>
  %b = stablehlo.constant dense<[1, 1]> : tensor<2xui8>
  %gt = stablehlo.compare GT, %a, %b, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  check.expect_eq_const %gt, dense<[true, false]> : tensor<2xi1>
  func.return
}
// -----
func.func @convert_f2i() {
  %a = stablehlo.constant dense<[300.0, -300.0, 0x7FC00000, -1.9, 1.9, 0x7F800000, 0xFF800000, -0.5]> : tensor<8xf32>
  %b = stablehlo.convert %a : (tensor<8xf32>) -> tensor<8xi8>
  check.expect_eq_const %b, dense<[127, -128, 0, -1, 1, 127, -128, 0]> : tensor<8xi8>
  %c = stablehlo.convert %a : (tensor<8xf32>) -> tensor<8xui8>
  check.expect_eq_const %c, dense<[255, 0, 0, 0, 1, 255, 0, 0]> : tensor<8xui8>
  %d = stablehlo.constant dense<[1.0e19, -1.0e19, 9.2233720368547758e18, -9.2233720368547758e18]> : tensor<4xf64>
  %e = stablehlo.convert %d : (tensor<4xf64>) -> tensor<4xi64>
  check.expect_eq_const %e, dense<[9223372036854775807, -9223372036854775808, 9223372036854775807, -9223372036854775808]> : tensor<4xi64>
  %f = stablehlo.constant dense<[1.8446744073709552e19, 1.8446744073709550e19, -1.0]> : tensor<3xf64>
  %g = stablehlo.convert %f : (tensor<3xf64>) -> tensor<3xui64>
  check.expect_eq_const %g, dense<[18446744073709551615, 18446744073709549568, 0]> : tensor<3xui64>
  %h = stablehlo.convert %a : (tensor<8xf32>) -> tensor<8xi1>
  check.expect_eq_const %h, dense<[true, true, true, true, true, true, true, true]> : tensor<8xi1>
  %i = stablehlo.constant dense<[7.9, -8.9, 8.0]> : tensor<3xf32>
  %j = stablehlo.convert %i : (tensor<3xf32>) -> tensor<3xi4>
  check.expect_eq_const %j, dense<[7, -8, 7]> : tensor<3xi4>
  func.return
}
// -----
func.func @convert_i2f() {
  %a = stablehlo.constant dense<[1152921573326323713, -1152921573326323713, 16777217, -1]> : tensor<4xi64>
  %b = stablehlo.convert %a : (tensor<4xi64>) -> tensor<4xf32>
  %c = stablehlo.bitcast_convert %b : (tensor<4xf32>) -> tensor<4xi32>
  check.expect_eq_const %c, dense<[1568669697, -578813951, 1266679808, -1082130432]> : tensor<4xi32>
  %d = stablehlo.constant dense<[18446744073709551615]> : tensor<1xui64>
  %e = stablehlo.convert %d : (tensor<1xui64>) -> tensor<1xf32>
  %f = stablehlo.bitcast_convert %e : (tensor<1xf32>) -> tensor<1xi32>
  check.expect_eq_const %f, dense<[1602224128]> : tensor<1xi32>
  %g = stablehlo.constant dense<[9007199254740993]> : tensor<1xi64>
  %h = stablehlo.convert %g : (tensor<1xi64>) -> tensor<1xf64>
  %i = stablehlo.bitcast_convert %h : (tensor<1xf64>) -> tensor<1xi64>
  check.expect_eq_const %i, dense<[4845873199050653696]> : tensor<1xi64>
  %j = stablehlo.constant dense<[257, 259, 32769]> : tensor<3xi32>
  %k = stablehlo.convert %j : (tensor<3xi32>) -> tensor<3xbf16>
  %l = stablehlo.bitcast_convert %k : (tensor<3xbf16>) -> tensor<3xi16>
  check.expect_eq_const %l, dense<[17280, 17282, 18176]> : tensor<3xi16>
  func.return
}
// -----
func.func @convert_ff() {
  %a = stablehlo.constant dense<[0x3F808000, 0x3F808001, 0x7F7FFFFF, 0xFFC00001]> : tensor<4xf32>
  %b = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xbf16>
  %c = stablehlo.bitcast_convert %b : (tensor<4xbf16>) -> tensor<4xi16>
  check.expect_eq_const %c, dense<[16256, 16257, 32640, -64]> : tensor<4xi16>
  %d = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xf16>
  %e = stablehlo.bitcast_convert %d : (tensor<4xf16>) -> tensor<4xi16>
  check.expect_eq_const %e, dense<[15364, 15364, 31744, -512]> : tensor<4xi16>
  func.return
}
// -----
func.func @convert_complex() {
  %a = stablehlo.constant dense<[(1.5, 2.5), (0.0, 1.0)]> : tensor<2xcomplex<f64>>
  %b = stablehlo.convert %a : (tensor<2xcomplex<f64>>) -> tensor<2xf32>
  check.expect_eq_const %b, dense<[1.5, 0.0]> : tensor<2xf32>
  %c = stablehlo.convert %a : (tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f32>>
  check.expect_eq_const %c, dense<[(1.5, 2.5), (0.0, 1.0)]> : tensor<2xcomplex<f32>>
  %d = stablehlo.convert %a : (tensor<2xcomplex<f64>>) -> tensor<2xi1>
  check.expect_eq_const %d, dense<[true, false]> : tensor<2xi1>
  func.return
}
// -----
func.func @bitcast_subbyte() {
  %a = stablehlo.constant dense<[127, -127]> : tensor<2xi8>
  %b = stablehlo.bitcast_convert %a : (tensor<2xi8>) -> tensor<2x2xi4>
  check.expect_eq_const %b, dense<[[-1, 7], [1, -8]]> : tensor<2x2xi4>
  %c = stablehlo.bitcast_convert %b : (tensor<2x2xi4>) -> tensor<2xi8>
  check.expect_eq_const %c, dense<[127, -127]> : tensor<2xi8>
  %d = stablehlo.bitcast_convert %a : (tensor<2xi8>) -> tensor<2x2xui4>
  check.expect_eq_const %d, dense<[[15, 7], [1, 8]]> : tensor<2x2xui4>
  %e = stablehlo.constant dense<1.0> : tensor<f32>
  %f = stablehlo.bitcast_convert %e : (tensor<f32>) -> tensor<4xui8>
  check.expect_eq_const %f, dense<[0, 0, 128, 63]> : tensor<4xui8>
  %g = stablehlo.bitcast_convert %f : (tensor<4xui8>) -> tensor<f32>
  check.expect_eq_const %g, dense<1.0> : tensor<f32>
  func.return
}
// -----
func.func @nan_payload_select() {
  %a = stablehlo.constant dense<[-63, 32705]> : tensor<2xi16>
  %b = stablehlo.bitcast_convert %a : (tensor<2xi16>) -> tensor<2xbf16>
  %p = stablehlo.constant dense<true> : tensor<i1>
  %z = stablehlo.constant dense<0.0> : tensor<2xbf16>
  %s = stablehlo.select %p, %b, %z : tensor<i1>, tensor<2xbf16>
  %c = stablehlo.bitcast_convert %s : (tensor<2xbf16>) -> tensor<2xi16>
  check.expect_eq_const %c, dense<[-63, 32705]> : tensor<2xi16>
  func.return
}
// -----
func.func @reduce_precision_f32() {
  %a = stablehlo.constant dense<[0x00000001, 0x3F808000, 0x3F818000, 65520.0, 1.0e-5, 0x7F800000, 0xFFC00001]> : tensor<7xf32>
  %b = stablehlo.reduce_precision %a, format = e8m7 : tensor<7xf32>
  %c = stablehlo.bitcast_convert %b : (tensor<7xf32>) -> tensor<7xi32>
  check.expect_eq_const %c, dense<[0, 1065353216, 1065484288, 1199570944, 925368320, 2139095040, -4194303]> : tensor<7xi32>
  %d = stablehlo.reduce_precision %a, format = e5m10 : tensor<7xf32>
  %e = stablehlo.bitcast_convert %d : (tensor<7xf32>) -> tensor<7xi32>
  check.expect_eq_const %e, dense<[0, 1065385984, 1065451520, 2139095040, 0, 2139095040, -4194303]> : tensor<7xi32>
  func.return
}
// -----
func.func @rounding() {
  %a = stablehlo.constant dense<[0.5, 1.5, 2.5, -0.5, -2.5, 3.7, -0.2, 8388609.0]> : tensor<8xf32>
  %e = stablehlo.round_nearest_even %a : tensor<8xf32>
  %z = stablehlo.round_nearest_afz %a : tensor<8xf32>
  %ei = stablehlo.bitcast_convert %e : (tensor<8xf32>) -> tensor<8xi32>
  check.expect_eq_const %e, dense<[0.0, 2.0, 2.0, -0.0, -2.0, 4.0, -0.0, 8388609.0]> : tensor<8xf32>
  %neg0 = stablehlo.slice %ei [3:4] : (tensor<8xi32>) -> tensor<1xi32>
  check.expect_eq_const %neg0, dense<[-2147483648]> : tensor<1xi32>
  check.expect_eq_const %z, dense<[1.0, 2.0, 3.0, -1.0, -3.0, 4.0, -0.0, 8388609.0]> : tensor<8xf32>
  %f = stablehlo.floor %a : tensor<8xf32>
  %c = stablehlo.ceil %a : tensor<8xf32>
  check.expect_eq_const %f, dense<[0.0, 1.0, 2.0, -1.0, -3.0, 3.0, -1.0, 8388609.0]> : tensor<8xf32>
  check.expect_eq_const %c, dense<[1.0, 2.0, 3.0, -0.0, -2.0, 4.0, -0.0, 8388609.0]> : tensor<8xf32>
  func.return
}
// -----
func.func @sign_all() {
  %a = stablehlo.constant dense<[-0.0, 0x7FC00000, -3.0, 0.0, 2.0]> : tensor<5xf32>
  %b = stablehlo.sign %a : tensor<5xf32>
  %bi = stablehlo.bitcast_convert %b : (tensor<5xf32>) -> tensor<5xi32>
  check.expect_eq_const %bi, dense<[-2147483648, 2143289344, -1082130432, 0, 1065353216]> : tensor<5xi32>
  %c = stablehlo.constant dense<[-5, 0, 5]> : tensor<3xi32>
  %d = stablehlo.sign %c : tensor<3xi32>
  check.expect_eq_const %d, dense<[-1, 0, 1]> : tensor<3xi32>
  %e = stablehlo.constant dense<[(3.0, 4.0), (0.0, 0.0)]> : tensor<2xcomplex<f64>>
  %f = stablehlo.sign %e : tensor<2xcomplex<f64>>
  check.expect_eq_const %f, dense<[(0.6, 0.8), (0.0, 0.0)]> : tensor<2xcomplex<f64>>
  func.return
}
// -----
func.func @bits() {
  %a = stablehlo.constant dense<[-1, 5, 0, -8]> : tensor<4xi4>
  %p = stablehlo.popcnt %a : tensor<4xi4>
  check.expect_eq_const %p, dense<[4, 2, 0, 1]> : tensor<4xi4>
  %c = stablehlo.count_leading_zeros %a : tensor<4xi4>
  check.expect_eq_const %c, dense<[0, 1, 4, 0]> : tensor<4xi4>
  %b = stablehlo.constant dense<[0, 1, -1]> : tensor<3xi64>
  %d = stablehlo.count_leading_zeros %b : tensor<3xi64>
  check.expect_eq_const %d, dense<[64, 63, 0]> : tensor<3xi64>
  %e = stablehlo.not %a : tensor<4xi4>
  check.expect_eq_const %e, dense<[0, -6, -1, 7]> : tensor<4xi4>
  %f = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %g = stablehlo.not %f : tensor<2xi1>
  check.expect_eq_const %g, dense<[false, true]> : tensor<2xi1>
  func.return
}
// -----
func.func @next_after_bf16() {
  %a = stablehlo.constant dense<[1.0, 0.0, 1.0, -0.0, 1.0, 0x7FC0, 0x7F7F]> : tensor<7xbf16>
  %b = stablehlo.constant dense<[2.0, -1.0, 0.0, 0.0, 1.0, 1.0, 0x7F80]> : tensor<7xbf16>
  %c = "chlo.next_after"(%a, %b) : (tensor<7xbf16>, tensor<7xbf16>) -> tensor<7xbf16>
  %d = stablehlo.bitcast_convert %c : (tensor<7xbf16>) -> tensor<7xi16>
  check.expect_eq_const %d, dense<[16257, -32767, 16255, 0, 16256, 32704, 32640]> : tensor<7xi16>
  func.return
}
// -----
func.func @mulhi_edges() {
  %a = stablehlo.constant dense<[-9223372036854775808, -1, 3]> : tensor<3xi64>
  %b = stablehlo.constant dense<[-9223372036854775808, -1, -1]> : tensor<3xi64>
  %c = "chlo.mulhi"(%a, %b) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  check.expect_eq_const %c, dense<[4611686018427387904, 0, -1]> : tensor<3xi64>
  %d = stablehlo.constant dense<[18446744073709551615]> : tensor<1xui64>
  %e = "chlo.mulhi"(%d, %d) : (tensor<1xui64>, tensor<1xui64>) -> tensor<1xui64>
  check.expect_eq_const %e, dense<[18446744073709551614]> : tensor<1xui64>
  func.return
}
// -----
func.func @abs_neg_wrap() {
  %a = stablehlo.constant dense<[-128, 127, -1]> : tensor<3xi8>
  %b = stablehlo.abs %a : tensor<3xi8>
  check.expect_eq_const %b, dense<[-128, 127, 1]> : tensor<3xi8>
  %c = stablehlo.negate %a : tensor<3xi8>
  check.expect_eq_const %c, dense<[-128, -127, 1]> : tensor<3xi8>
  %d = stablehlo.constant dense<[1, 0]> : tensor<2xui8>
  %e = stablehlo.negate %d : tensor<2xui8>
  check.expect_eq_const %e, dense<[255, 0]> : tensor<2xui8>
  %f = stablehlo.constant dense<[(3.0, -4.0)]> : tensor<1xcomplex<f32>>
  %g = stablehlo.abs %f : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
  check.expect_eq_const %g, dense<[5.0]> : tensor<1xf32>
  %h = stablehlo.constant dense<[100, 100]> : tensor<2xi8>
  %i = stablehlo.constant dense<[100, -100]> : tensor<2xi8>
  %j = stablehlo.multiply %h, %i : tensor<2xi8>
  check.expect_eq_const %j, dense<[16, -16]> : tensor<2xi8>
  func.return
}
// -----
func.func @is_finite_and_parts() {
  %a = stablehlo.constant dense<[0x7F800000, 0x7FC00000, 1.0, 0xFF800000]> : tensor<4xf32>
  %b = stablehlo.is_finite %a : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %b, dense<[false, false, true, false]> : tensor<4xi1>
  %c = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>
  %r = stablehlo.real %c : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
  %i = stablehlo.imag %c : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
  check.expect_eq_const %r, dense<[1.0]> : tensor<1xf32>
  check.expect_eq_const %i, dense<[2.0]> : tensor<1xf32>
  func.return
}
// -----
func.func @clamp_scalar() {
  %mn = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.constant dense<1.0> : tensor<f32>
  %x = stablehlo.constant dense<[-1.0, 0.5, 2.0, 0x7FC00000]> : tensor<4xf32>
  %c = stablehlo.clamp %mn, %x, %mx : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %n = stablehlo.compare NE, %c, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %n, dense<[false, false, false, true]> : tensor<4xi1>
  %s = stablehlo.slice %c [0:3] : (tensor<4xf32>) -> tensor<3xf32>
  check.expect_eq_const %s, dense<[0.0, 0.5, 1.0]> : tensor<3xf32>
  func.return
}
// -----
func.func @square() {
  %a = stablehlo.constant dense<[(1.0, 1.0), (3.0, 2.0)]> : tensor<2xcomplex<f32>>
  %b = "chlo.square"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  check.expect_eq_const %b, dense<[(0.0, 2.0), (5.0, 12.0)]> : tensor<2xcomplex<f32>>
  func.return
}
// -----
func.func @quantize_per_axis() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 100.0]]> : tensor<2x2xf32>
  %q = stablehlo.uniform_quantize %a : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0, 0.25:10}>>
  %i = stablehlo.bitcast_convert %q : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0, 0.25:10}>>) -> tensor<2x2xi8>
  check.expect_eq_const %i, dense<[[2, 18], [6, 127]]> : tensor<2x2xi8>
  %d = stablehlo.uniform_dequantize %q : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0, 0.25:10}>>) -> tensor<2x2xf32>
  check.expect_eq_const %d, dense<[[1.0, 2.0], [3.0, 29.25]]> : tensor<2x2xf32>
  func.return
}

// -----

// tan(+-inf + iy), y finite (zero too), and tanh(+-0 + i inf), tanh(+-0 + iNaN): NaN + iNaN,
// as C99's Annex G, XLA and JAX's mpmath reference have it; tan(-0 + iNaN) = -0 + iNaN.
func.func @tan_tanh_complex_nan_cases() {
  %a = stablehlo.constant dense<[(0xFF800000, 0.0), (0x7F800000, 0.0), (0x7F800000, 1.0), (0xFF800000, -0.0), (0.0, 0x7F800000), (-0.0, 0x7FC00000)]> : tensor<6xcomplex<f32>>
  %t = stablehlo.tan %a : tensor<6xcomplex<f32>>
  %h = stablehlo.tanh %a : tensor<6xcomplex<f32>>
  %tr = stablehlo.real %t : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  %ti = stablehlo.imag %t : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  %hr = stablehlo.real %h : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  %hi = stablehlo.imag %h : (tensor<6xcomplex<f32>>) -> tensor<6xf32>
  %ntr = stablehlo.compare NE, %tr, %tr : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %nti = stablehlo.compare NE, %ti, %ti : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %nhr = stablehlo.compare NE, %hr, %hr : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  %nhi = stablehlo.compare NE, %hi, %hi : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  check.expect_eq_const %ntr, dense<[true, true, true, true, false, false]> : tensor<6xi1>
  check.expect_eq_const %nti, dense<[true, true, true, true, false, true]> : tensor<6xi1>
  check.expect_eq_const %nhr, dense<[false, false, false, false, true, true]> : tensor<6xi1>
  check.expect_eq_const %nhi, dense<[false, false, false, false, true, true]> : tensor<6xi1>
  func.return
}
