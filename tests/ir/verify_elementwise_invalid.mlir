// Invalid programs for the rules of src/ir/verify_elementwise.c: each case holds exactly
// one op that breaks a rule, and the substring of the message the verifier must report.

// ERROR: operand #0 must be a tensor of signed integer, floating-point, complex or per-tensor quantized elements, got tensor<2xui32>
func.func @main(%a: tensor<2xui32>) -> tensor<2xui32> {
  %0 = "stablehlo.abs"(%a) : (tensor<2xui32>) -> tensor<2xui32>
  func.return %0 : tensor<2xui32>
}

// -----

// ERROR: result must be a tensor of signed integer, floating-point or per-tensor quantized elements, got tensor<2xcomplex<f32>>
func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = "stablehlo.abs"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

// ERROR: result type tensor<2xf32> must have element type f64 (the element type of the complex operand)
func.func @main(%a: tensor<2xcomplex<f64>>) -> tensor<2xf32> {
  %0 = "stablehlo.abs"(%a) : (tensor<2xcomplex<f64>>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: result type tensor<3xf32> does not have the shape of operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.abs"(%a) : (tensor<2xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: operand #1 type tensor<3xf32> does not have the shape of operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #1 type tensor<2xf64> does not have the element type of operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<2xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: result type tensor<3x?xi32> does not have the shape of operand #0 type tensor<2x?xi32>
func.func @main(%a: tensor<2x?xi32>, %b: tensor<?x4xi32>) -> tensor<3x?xi32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x?xi32>, tensor<?x4xi32>) -> tensor<3x?xi32>
  func.return %0 : tensor<3x?xi32>
}

// -----

// ERROR: result type tensor<2xf32> is not quantized (all or none must be) like operand #0
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 0.5:1>>, %b: tensor<2x!quant.uniform<i8:f32, 0.25:-3>>) -> tensor<2xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x!quant.uniform<i8:f32, 0.25:-3>>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: has a quantization storage type different from operand #0
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 0.5:1>>, %b: tensor<2x!quant.uniform<i16:f32, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x!quant.uniform<i16:f32, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:1>>
}

// -----

// ERROR: has a quantization expressed type different from operand #0
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 0.5:1>>, %b: tensor<2x!quant.uniform<i8:f16, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x!quant.uniform<i8:f16, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:1>>
}

// -----

// ERROR: result must be per-axis quantized exactly when an operand is
func.func @main(%a: tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>, %b: tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>, tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:1>>
}

// -----

// ERROR: operand #0 must be a tensor of boolean or integer elements, got tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.and"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #1 type tensor<2xi64> is not compatible with operand #0 type tensor<2xi32>
func.func @main(%a: tensor<2xi32>, %b: tensor<2xi64>) -> tensor<2xi32> {
  %0 = "stablehlo.and"(%a, %b) : (tensor<2xi32>, tensor<2xi64>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

// ERROR: operand #0 must be a tensor of boolean or integer elements, got tensor<2xcomplex<f32>>
func.func @main(%a: tensor<2xcomplex<f32>>, %b: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = "stablehlo.or"(%a, %b) : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

// ERROR: result type tensor<2xi8> is not compatible with operand #0 type tensor<2xi1>
func.func @main(%a: tensor<2xi1>, %b: tensor<2xi1>) -> tensor<2xi8> {
  %0 = "stablehlo.xor"(%a, %b) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi8>
  func.return %0 : tensor<2xi8>
}

// -----

// ERROR: operand #0 must be a tensor of boolean or integer elements, got tensor<2xbf16>
func.func @main(%a: tensor<2xbf16>) -> tensor<2xbf16> {
  %0 = "stablehlo.not"(%a) : (tensor<2xbf16>) -> tensor<2xbf16>
  func.return %0 : tensor<2xbf16>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<2xi32>
func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.atan2"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

// ERROR: the type with the narrower element must have rank one more than the other
func.func @main(%a: tensor<2xf32>) -> tensor<2xi16> {
  %0 = "stablehlo.bitcast_convert"(%a) : (tensor<2xf32>) -> tensor<2xi16>
  func.return %0 : tensor<2xi16>
}

// -----

// ERROR: last dimension 2 times 8 bits must equal 32 bits
func.func @main(%a: tensor<3xf32>) -> tensor<3x2xi8> {
  %0 = "stablehlo.bitcast_convert"(%a) : (tensor<3xf32>) -> tensor<3x2xi8>
  func.return %0 : tensor<3x2xi8>
}

// -----

// ERROR: cannot be bitcast (real and complex do not mix) from operand #0
func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xf64> {
  %0 = "stablehlo.bitcast_convert"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xf64>
  func.return %0 : tensor<2xf64>
}

// -----

// ERROR: result type tensor<3xi32> does not have the shape of operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>) -> tensor<3xi32> {
  %0 = "stablehlo.bitcast_convert"(%a) : (tensor<2xf32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: dimension 0 does not match
func.func @main(%a: tensor<3xf64>) -> tensor<4x2xf32> {
  %0 = "stablehlo.bitcast_convert"(%a) : (tensor<3xf64>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.cbrt"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.cosine"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.exponential"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.exponential_minus_one"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.log"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.log_plus_one"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.logistic"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.rsqrt"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.sine"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.sqrt"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.tan"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point, complex or per-tensor quantized elements, got tensor<4xi32>
func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "stablehlo.tanh"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or per-tensor quantized elements, got tensor<4xcomplex<f32>>
func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = "stablehlo.ceil"(%a) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or per-tensor quantized elements, got tensor<4xcomplex<f32>>
func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = "stablehlo.floor"(%a) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or per-tensor quantized elements, got tensor<4xcomplex<f32>>
func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = "stablehlo.round_nearest_afz"(%a) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or per-tensor quantized elements, got tensor<4xcomplex<f32>>
func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = "stablehlo.round_nearest_even"(%a) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}

// -----

// ERROR: result type tensor<4xf64> is not compatible with operand #0 type tensor<4xf32>
func.func @main(%a: tensor<4xf32>) -> tensor<4xf64> {
  %0 = "stablehlo.sine"(%a) : (tensor<4xf32>) -> tensor<4xf64>
  func.return %0 : tensor<4xf64>
}

// -----

// ERROR: result type tensor<3xf32> is not compatible with operand #0 type tensor<4xf32>
func.func @main(%a: tensor<4xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.tanh"(%a) : (tensor<4xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: is not compatible with operand #0
func.func @main(%a: tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i16:f32, 0.5:1>> {
  %0 = "stablehlo.exponential"(%a) : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i16:f32, 0.5:1>>
  func.return %0 : tensor<4x!quant.uniform<i16:f32, 0.5:1>>
}

// -----

// ERROR: is not compatible with operand #0
func.func @main(%a: tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4xf32> {
  %0 = "stablehlo.log"(%a) : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: operand #0 type tensor<3xf32> is neither a scalar nor of the shape of operand #1 type tensor<2xf32>
func.func @main(%lo: tensor<3xf32>, %x: tensor<2xf32>, %hi: tensor<f32>) -> tensor<2xf32> {
  %0 = "stablehlo.clamp"(%lo, %x, %hi) : (tensor<3xf32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #2 type tensor<i32> does not have the element type of operand #1 type tensor<2xf32>
func.func @main(%lo: tensor<f32>, %x: tensor<2xf32>, %hi: tensor<i32>) -> tensor<2xf32> {
  %0 = "stablehlo.clamp"(%lo, %x, %hi) : (tensor<f32>, tensor<2xf32>, tensor<i32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: result type tensor<3xf32> is not compatible with operand #1 type tensor<2xf32>
func.func @main(%lo: tensor<f32>, %x: tensor<2xf32>, %hi: tensor<f32>) -> tensor<3xf32> {
  %0 = "stablehlo.clamp"(%lo, %x, %hi) : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: result must be a tensor of boolean elements, got tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #1 type tensor<2xf64> does not have the element type of operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<2xi1> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// ERROR: result type tensor<3xi1> does not have the shape of operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<3xi1> {
  %0 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

// ERROR: requires attribute 'comparison_direction'
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  %0 = "stablehlo.compare"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point elements, got tensor<2xi32>
func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xcomplex<f32>> {
  %0 = "stablehlo.complex"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

// ERROR: operand #0 must be a tensor of f32 or f64 elements, got tensor<2xf16>
func.func @main(%a: tensor<2xf16>, %b: tensor<2xf16>) -> tensor<2xcomplex<f32>> {
  %0 = "stablehlo.complex"(%a, %b) : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

// ERROR: operand #1 type tensor<2xf64> does not have the element type of operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<2xcomplex<f32>> {
  %0 = "stablehlo.complex"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

// ERROR: result type tensor<2xcomplex<f64>> must have element type complex<f32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xcomplex<f64>> {
  %0 = "stablehlo.complex"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f64>>
  func.return %0 : tensor<2xcomplex<f64>>
}

// -----

// ERROR: operand #0 must be a tensor of boolean, integer, floating-point or complex elements, got tensor<2x!quant.uniform<i8:f32, 
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2xf32> {
  %0 = "stablehlo.convert"(%a) : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: result type tensor<3xf32> does not have the shape of operand #0 type tensor<2xi32>
func.func @main(%a: tensor<2xi32>) -> tensor<3xf32> {
  %0 = "stablehlo.convert"(%a) : (tensor<2xi32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: operand #0 must be a tensor of integer elements, got tensor<2xi1>
func.func @main(%a: tensor<2xi1>) -> tensor<2xi1> {
  %0 = "stablehlo.count_leading_zeros"(%a) : (tensor<2xi1>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// ERROR: operand #0 must be a tensor of integer elements, got tensor<2xf32>
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.popcnt"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: result type tensor<2xui8> is not compatible with operand #0 type tensor<2xi8>
func.func @main(%a: tensor<2xi8>) -> tensor<2xui8> {
  %0 = "stablehlo.popcnt"(%a) : (tensor<2xi8>) -> tensor<2xui8>
  func.return %0 : tensor<2xui8>
}

// -----

// ERROR: operand #0 must be a tensor of integer, floating-point, complex or per-tensor quantized elements, got tensor<2xi1>
func.func @main(%a: tensor<2xi1>, %b: tensor<2xi1>) -> tensor<2xi1> {
  %0 = "stablehlo.divide"(%a, %b) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// ERROR: operand #0 must be a tensor of integer, floating-point, complex or per-tensor quantized elements, got tensor<2xi1>
func.func @main(%a: tensor<2xi1>, %b: tensor<2xi1>) -> tensor<2xi1> {
  %0 = "stablehlo.power"(%a, %b) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// ERROR: operand #0 must be a tensor of integer, floating-point or per-tensor quantized elements, got tensor<2xi1>
func.func @main(%a: tensor<2xi1>, %b: tensor<2xi1>) -> tensor<2xi1> {
  %0 = "stablehlo.remainder"(%a, %b) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// ERROR: operand #0 has type tensor<2xcomplex<f32>>, but remainder is not defined on complex numbers (the StableHLO spec leaves it TBD, openxla/stablehlo#997)
func.func @main(%a: tensor<2xcomplex<f32>>, %b: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = "stablehlo.remainder"(%a, %b) : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

// ERROR: result has type tensor<2xcomplex<f64>>, but remainder is not defined on complex numbers
func.func @main(%a: tensor<2xf64>, %b: tensor<2xf64>) -> tensor<2xcomplex<f64>> {
  %0 = "stablehlo.remainder"(%a, %b) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xcomplex<f64>>
  func.return %0 : tensor<2xcomplex<f64>>
}

// -----

// ERROR: operand #0 must be a tensor of integer, floating-point, complex or per-tensor quantized elements, got tensor<2xi1>
func.func @main(%a: tensor<2xi1>, %b: tensor<2xi1>) -> tensor<2xi1> {
  %0 = "stablehlo.subtract"(%a, %b) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// ERROR: operand #1 type tensor<2x3xf32> is not compatible with operand #0 type tensor<2x2xf32>
func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.subtract"(%a, %b) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// ERROR: operand #1 type tensor<2x!quant.uniform<i16:f32, 
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 0.5:1>>, %b: tensor<2x!quant.uniform<i16:f32, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>> {
  %0 = "stablehlo.divide"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x!quant.uniform<i16:f32, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:1>>
}

// -----

// ERROR: operand #0 must be a tensor of boolean, integer, floating-point, complex or per-tensor quantized elements, got tensor<2x!quant.uniform<i8:f32:0, 
func.func @main(%a: tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>, %b: tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>> {
  %0 = "stablehlo.maximum"(%a, %b) : (tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>, tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>
}

// -----

// ERROR: operand #0 must be a tensor of boolean, integer, floating-point, complex or per-tensor quantized elements, got tensor<2x!quant.uniform<i8:f32:0, 
func.func @main(%a: tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>, %b: tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>> {
  %0 = "stablehlo.minimum"(%a, %b) : (tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>, tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>
}

// -----

// ERROR: operand #0 must be a tensor of boolean, integer, floating-point, complex or per-tensor quantized elements, got tensor<2x!quant.uniform<i8:f32:0, 
func.func @main(%a: tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>, %b: tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>> {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>, tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32:0, {0.5:1, 0.25:0}>>
}

// -----

// ERROR: result type tensor<2xf16> is not compatible with operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf16> {
  %0 = "stablehlo.maximum"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf16>
  func.return %0 : tensor<2xf16>
}

// -----

// ERROR: operand #1 type tensor<3xi32> is not compatible with operand #0 type tensor<2xi32>
func.func @main(%a: tensor<2xi32>, %b: tensor<3xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.minimum"(%a, %b) : (tensor<2xi32>, tensor<3xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

// ERROR: operand #1 type tensor<2x!quant.uniform<i8:f16, 
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 0.5:1>>, %b: tensor<2x!quant.uniform<i8:f16, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>> {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x!quant.uniform<i8:f16, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:1>>
}

// -----

// ERROR: result type tensor<2xf64> must have element type f32 (the element type of the complex operand)
func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xf64> {
  %0 = "stablehlo.imag"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xf64>
  func.return %0 : tensor<2xf64>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<2xi32>
func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.real"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

// ERROR: result must be a tensor of floating-point elements, got tensor<2xcomplex<f32>>
func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = "stablehlo.real"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

// ERROR: result type tensor<2xf16> must have element type f32 (the element type of the operand)
func.func @main(%a: tensor<2xf32>) -> tensor<2xf16> {
  %0 = "stablehlo.real"(%a) : (tensor<2xf32>) -> tensor<2xf16>
  func.return %0 : tensor<2xf16>
}

// -----

// ERROR: result must be a tensor of boolean elements, got tensor<2xi32>
func.func @main(%a: tensor<2xf32>) -> tensor<2xi32> {
  %0 = "stablehlo.is_finite"(%a) : (tensor<2xf32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or per-tensor quantized elements, got tensor<2xi32>
func.func @main(%a: tensor<2xi32>) -> tensor<2xi1> {
  %0 = "stablehlo.is_finite"(%a) : (tensor<2xi32>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// ERROR: result type tensor<3xi1> does not have the shape of operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>) -> tensor<3xi1> {
  %0 = "stablehlo.is_finite"(%a) : (tensor<2xf32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

// ERROR: operand #0 must be a tensor of integer, floating-point, complex or per-tensor quantized elements, got tensor<2xi1>
func.func @main(%a: tensor<2xi1>) -> tensor<2xi1> {
  %0 = "stablehlo.negate"(%a) : (tensor<2xi1>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// ERROR: result type tensor<2xi64> is not compatible with operand #0 type tensor<2xi32>
func.func @main(%a: tensor<2xi32>) -> tensor<2xi64> {
  %0 = "stablehlo.negate"(%a) : (tensor<2xi32>) -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
}

// -----

// ERROR: operand #0 must be a tensor of signed integer, floating-point, complex or per-tensor quantized elements, got tensor<2xui32>
func.func @main(%a: tensor<2xui32>) -> tensor<2xui32> {
  %0 = "stablehlo.sign"(%a) : (tensor<2xui32>) -> tensor<2xui32>
  func.return %0 : tensor<2xui32>
}

// -----

// ERROR: exponent_bits = 0 must be in [1, 2147483647]
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce_precision"(%a) {exponent_bits = 0 : i32, mantissa_bits = 2 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: mantissa_bits = -1 must be in [0, 2147483647]
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce_precision"(%a) {exponent_bits = 5 : i32, mantissa_bits = -1 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: requires attribute 'mantissa_bits'
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce_precision"(%a) {exponent_bits = 5 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or per-tensor quantized elements, got tensor<2xi32>
func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.reduce_precision"(%a) {exponent_bits = 5 : i32, mantissa_bits = 2 : i32} : (tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

// ERROR: operand #0 must be a tensor of boolean elements, got tensor<2xi32>
func.func @main(%p: tensor<2xi32>, %t: tensor<2xf32>, %f: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.select"(%p, %t, %f) : (tensor<2xi32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #0 type tensor<3xi1> is neither a scalar nor of the shape of operand #1 type tensor<2xf32>
func.func @main(%p: tensor<3xi1>, %t: tensor<2xf32>, %f: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.select"(%p, %t, %f) : (tensor<3xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #2 type tensor<2xf64> is not compatible with operand #1 type tensor<2xf32>
func.func @main(%p: tensor<i1>, %t: tensor<2xf32>, %f: tensor<2xf64>) -> tensor<2xf32> {
  %0 = "stablehlo.select"(%p, %t, %f) : (tensor<i1>, tensor<2xf32>, tensor<2xf64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: result type tensor<4xf32> is not compatible with operand #1 type tensor<2xf32>
func.func @main(%p: tensor<i1>, %t: tensor<2xf32>, %f: tensor<2xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.select"(%p, %t, %f) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: operand #0 must be a tensor of integer elements, got tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.shift_left"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #0 must be a tensor of integer elements, got tensor<2xi1>
func.func @main(%a: tensor<2xi1>, %b: tensor<2xi1>) -> tensor<2xi1> {
  %0 = "stablehlo.shift_right_arithmetic"(%a, %b) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// ERROR: operand #1 type tensor<2xui32> is not compatible with operand #0 type tensor<2xi32>
func.func @main(%a: tensor<2xi32>, %b: tensor<2xui32>) -> tensor<2xi32> {
  %0 = "stablehlo.shift_right_logical"(%a, %b) : (tensor<2xi32>, tensor<2xui32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

// ERROR: result must be a tensor of quantized elements, got tensor<2xi8>
func.func @main(%a: tensor<2xf32>) -> tensor<2xi8> {
  %0 = "stablehlo.uniform_quantize"(%a) : (tensor<2xf32>) -> tensor<2xi8>
  func.return %0 : tensor<2xi8>
}

// -----

// ERROR: must have expressed type f32 (the operand's element type)
func.func @main(%a: tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f16, 0.5:1>> {
  %0 = "stablehlo.uniform_quantize"(%a) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f16, 0.5:1>>
  func.return %0 : tensor<2x!quant.uniform<i8:f16, 0.5:1>>
}

// -----

// ERROR: must have expressed type f16 (the operand's expressed type)
func.func @main(%a: tensor<2x!quant.uniform<i8:f16, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>> {
  %0 = "stablehlo.uniform_quantize"(%a) : (tensor<2x!quant.uniform<i8:f16, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:1>>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or quantized elements, got tensor<2xi32>
func.func @main(%a: tensor<2xi32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>> {
  %0 = "stablehlo.uniform_quantize"(%a) : (tensor<2xi32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:1>>
}

// -----

// ERROR: does not have the shape of operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5:1>> {
  %0 = "stablehlo.uniform_quantize"(%a) : (tensor<2xf32>) -> tensor<3x!quant.uniform<i8:f32, 0.5:1>>
  func.return %0 : tensor<3x!quant.uniform<i8:f32, 0.5:1>>
}

// -----

// ERROR: operand #0 must be a tensor of quantized elements, got tensor<2xf32>
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: result type tensor<2xf16> must have element type f32 (the operand's expressed type)
func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2xf16> {
  %0 = "stablehlo.uniform_dequantize"(%a) : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2xf16>
  func.return %0 : tensor<2xf16>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<3xi32>
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "chlo.acos"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<3xi32>
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "chlo.acosh"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<3xi32>
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "chlo.asin"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<3xi32>
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "chlo.asinh"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<3xi32>
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "chlo.atan"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<3xi32>
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "chlo.atanh"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<3xi32>
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "chlo.bessel_i1e"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<3xi32>
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "chlo.cosh"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<3xi32>
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "chlo.sinh"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<3xi32>
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "chlo.square"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point or complex elements, got tensor<3xi32>
func.func @main(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "chlo.tan"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point elements, got tensor<3xcomplex<f32>>
func.func @main(%a: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = "chlo.digamma"(%a) : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  func.return %0 : tensor<3xcomplex<f32>>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point elements, got tensor<3xcomplex<f32>>
func.func @main(%a: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = "chlo.erf"(%a) : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  func.return %0 : tensor<3xcomplex<f32>>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point elements, got tensor<3xcomplex<f32>>
func.func @main(%a: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = "chlo.erf_inv"(%a) : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  func.return %0 : tensor<3xcomplex<f32>>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point elements, got tensor<3xcomplex<f32>>
func.func @main(%a: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = "chlo.erfc"(%a) : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  func.return %0 : tensor<3xcomplex<f32>>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point elements, got tensor<3xcomplex<f32>>
func.func @main(%a: tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>> {
  %0 = "chlo.lgamma"(%a) : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  func.return %0 : tensor<3xcomplex<f32>>
}

// -----

// ERROR: result type tensor<4xf32> is not compatible with operand #0 type tensor<3xf32>
func.func @main(%a: tensor<3xf32>) -> tensor<4xf32> {
  %0 = "chlo.acos"(%a) : (tensor<3xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: operand #0 must be a tensor of floating-point elements, got tensor<2xi32>
func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "chlo.next_after"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

// ERROR: operand #1 type tensor<2xf64> is not compatible with operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<2xf32> {
  %0 = "chlo.next_after"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #0 must be a tensor of integer elements, got tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "chlo.mulhi"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #0 must be a floating-point scalar or tensor, got tensor<2xi32>
func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "arith.addf"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

// ERROR: operand #1 type tensor<3xf32> does not match operand #0 type tensor<2xf32>
func.func @main(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = "arith.addf"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
