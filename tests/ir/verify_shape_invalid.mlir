// Invalid programs for the rules of src/ir/verify_shape.c: each case holds exactly one
// op that breaks a rule, and the substring of the message the verifier must report.

// ERROR: broadcast_dimensions has 1 entries but operand rank is 2
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: broadcast_dimensions[0] = 5 is out of range for result rank 2
func.func @main(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 5>} : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: broadcast_dimensions[1] = 1 is a duplicate of broadcast_dimensions[0]
func.func @main(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1, 1>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// -----

// ERROR: operand dimension 0 (size 3) is neither 1 nor the size of result dimension 1 (4)
func.func @main(%a: tensor<3xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// ERROR: result type tensor<2x3xf64> does not have the element type of operand type tensor<3xf32>
func.func @main(%a: tensor<3xf32>) -> tensor<2x3xf64> {
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf64>
  func.return %0 : tensor<2x3xf64>
}

// -----

// ERROR: must have the quantization parameters of operand
func.func @main(%a: tensor<3x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25:-3>> {
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<3x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25:-3>>
  func.return %0 : tensor<2x3x!quant.uniform<i8:f32, 0.25:-3>>
}

// -----

// ERROR: result quantization_dimension 1 must equal broadcast_dimensions[0] = 0
func.func @main(%a: tensor<3x!quant.uniform<i8:f32:0, {0.5:1, 0.5:1, 0.5:1}>>) -> tensor<3x3x!quant.uniform<i8:f32:1, {0.5:1, 0.5:1, 0.5:1}>> {
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 0>} : (tensor<3x!quant.uniform<i8:f32:0, {0.5:1, 0.5:1, 0.5:1}>>) -> tensor<3x3x!quant.uniform<i8:f32:1, {0.5:1, 0.5:1, 0.5:1}>>
  func.return %0 : tensor<3x3x!quant.uniform<i8:f32:1, {0.5:1, 0.5:1, 0.5:1}>>
}

// -----

// ERROR: requires attribute 'broadcast_dimensions'
func.func @main(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.broadcast_in_dim"(%a) : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: broadcast_sizes[0] = -1 is negative
func.func @main(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.broadcast"(%a) {broadcast_sizes = array<i64: -1>} : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: result type tensor<2x3xf32>: dimension 0 is 2, expected 4
func.func @main(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.broadcast"(%a) {broadcast_sizes = array<i64: 4>} : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: result type tensor<3xf32> has rank 1, expected rank 2
func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.broadcast"(%a) {broadcast_sizes = array<i64: 4>} : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: broadcast_dimensions[0] = 2 is out of range for result rank 2
func.func @main(%a: tensor<?xf32>, %b: tensor<2xindex>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %b) {broadcast_dimensions = array<i64: 2>} : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// ERROR: result rank 1 is less than operand rank 2
func.func @main(%a: tensor<?x?xf32>, %b: tensor<1xindex>) -> tensor<?xf32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %b) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<?x?xf32>, tensor<1xindex>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: output_dimensions has 3 entries but result rank is 2
func.func @main(%a: tensor<?xf32>, %b: tensor<3xi64>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %b) {broadcast_dimensions = array<i64: 1>} : (tensor<?xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// ERROR: output_dimensions must be a statically shaped 1-dimensional tensor of integer or index type
func.func @main(%a: tensor<?xf32>, %b: tensor<?xi64>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %b) {broadcast_dimensions = array<i64: 1>} : (tensor<?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// ERROR: known_expanding_dimensions + known_nonexpanding_dimensions[1] = 0 is a duplicate
func.func @main(%a: tensor<?xf32>, %b: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %b) {broadcast_dimensions = array<i64: 1>, known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// ERROR: output_dimensions[1] = 5 is incompatible with result type tensor<2x4xf32>
func.func @main(%a: tensor<4xf32>) -> tensor<2x4xf32> {
  %s = "stablehlo.constant"() {value = dense<[2, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// ERROR: result has 6 elements but operand has 4
func.func @main(%a: tensor<2x2xf32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.reshape"(%a) : (tensor<2x2xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

// ERROR: result type tensor<4xi32> does not have the element type of operand type tensor<2x2xf32>
func.func @main(%a: tensor<2x2xf32>) -> tensor<4xi32> {
  %0 = "stablehlo.reshape"(%a) : (tensor<2x2xf32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

// ERROR: must have the quantization parameters of operand
func.func @main(%a: tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.25:-3>> {
  %0 = "stablehlo.reshape"(%a) : (tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.25:-3>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.25:-3>>
}

// -----

// ERROR: must keep the size of the quantization dimension of operand
func.func @main(%a: tensor<3x2x!quant.uniform<i8:f32:1, {0.5:1, 0.25:0}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5:1, 0.25:0}>> {
  %0 = "stablehlo.reshape"(%a) : (tensor<3x2x!quant.uniform<i8:f32:1, {0.5:1, 0.25:0}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5:1, 0.25:0}>>
  func.return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {0.5:1, 0.25:0}>>
}

// -----

// ERROR: output_shape has 3 entries but result rank is 2
func.func @main(%a: tensor<?xf32>, %b: tensor<3xi64>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dynamic_reshape"(%a, %b) : (tensor<?xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// ERROR: result has 6 elements but operand has 4
func.func @main(%a: tensor<4xf32>, %b: tensor<2xi64>) -> tensor<2x3xf32> {
  %0 = "stablehlo.dynamic_reshape"(%a, %b) : (tensor<4xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: output_shape has 6 elements but operand has 4
func.func @main(%a: tensor<4xf32>) -> tensor<?x?xf32> {
  %s = "stablehlo.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "stablehlo.dynamic_reshape"(%a, %s) : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// ERROR: output_shape[0] = 4 is incompatible with result type tensor<2x?xf32>
func.func @main(%a: tensor<?xf32>) -> tensor<2x?xf32> {
  %s = "stablehlo.constant"() {value = dense<[4, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "stablehlo.dynamic_reshape"(%a, %s) : (tensor<?xf32>, tensor<2xi64>) -> tensor<2x?xf32>
  func.return %0 : tensor<2x?xf32>
}

// -----

// ERROR: permutation[1] = 0 is a duplicate of permutation[0]
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.transpose"(%a) {permutation = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: permutation has 3 entries but operand rank is 2
func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

// ERROR: permutation[0] = 2 is out of range for operand rank 2
func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.transpose"(%a) {permutation = array<i64: 2, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

// ERROR: result type tensor<2x3xf32>: dimension 0 is 2, expected 3
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: operand quantization_dimension 1 must equal permutation[1] = 0
func.func @main(%a: tensor<3x2x!quant.uniform<i8:f32:1, {0.5:1, 0.25:0}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5:1, 0.25:0}>> {
  %0 = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<3x2x!quant.uniform<i8:f32:1, {0.5:1, 0.25:0}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5:1, 0.25:0}>>
  func.return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {0.5:1, 0.25:0}>>
}

// -----

// ERROR: limit_indices[0] = 5 exceeds operand dimension size 4
func.func @main(%a: tensor<4xf32>) -> tensor<5xf32> {
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 0>, limit_indices = array<i64: 5>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// -----

// ERROR: start_indices[0] = 3 is greater than limit_indices[0] = 2
func.func @main(%a: tensor<4xf32>) -> tensor<0xf32> {
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 3>, limit_indices = array<i64: 2>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<0xf32>
  func.return %0 : tensor<0xf32>
}

// -----

// ERROR: strides[0] = 0 must be positive
func.func @main(%a: tensor<4xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 0>, limit_indices = array<i64: 2>, strides = array<i64: 0>} : (tensor<4xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: start_indices[0] = -1 is negative
func.func @main(%a: tensor<4xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: -1>, limit_indices = array<i64: 1>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: result type tensor<3xf32>: dimension 0 is 3, expected 2
func.func @main(%a: tensor<4xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 0>, limit_indices = array<i64: 4>, strides = array<i64: 2>} : (tensor<4xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: strides has 1 entries but operand rank is 2
func.func @main(%a: tensor<4x4xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 2>, strides = array<i64: 1>} : (tensor<4x4xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// ERROR: result type tensor<2xi32> does not have the element type of operand type tensor<4xf32>
func.func @main(%a: tensor<4xf32>) -> tensor<2xi32> {
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 0>, limit_indices = array<i64: 2>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

// ERROR: limit_indices[0] = 9 exceeds operand dimension size 8
func.func @main(%a: tensor<?xf32, #stablehlo.type_extensions<bounds = [8]>>) -> tensor<9xf32> {
  %0 = "stablehlo.slice"(%a) {start_indices = array<i64: 0>, limit_indices = array<i64: 9>, strides = array<i64: 1>} : (tensor<?xf32, #stablehlo.type_extensions<bounds = [8]>>) -> tensor<9xf32>
  func.return %0 : tensor<9xf32>
}

// -----

// ERROR: slice_sizes[0] = 5 exceeds operand dimension size 4
func.func @main(%a: tensor<4xf32>, %b: tensor<i64>) -> tensor<5xf32> {
  %0 = "stablehlo.dynamic_slice"(%a, %b) {slice_sizes = array<i64: 5>} : (tensor<4xf32>, tensor<i64>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// -----

// ERROR: expects 2 start_indices (the operand rank), got 1
func.func @main(%a: tensor<4x4xf32>, %b: tensor<i64>) -> tensor<2x2xf32> {
  %0 = "stablehlo.dynamic_slice"(%a, %b) {slice_sizes = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<i64>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// ERROR: start_indices operand #1 must be a 0-dimensional integer tensor, got tensor<f32>
func.func @main(%a: tensor<4xf32>, %b: tensor<f32>) -> tensor<2xf32> {
  %0 = "stablehlo.dynamic_slice"(%a, %b) {slice_sizes = array<i64: 2>} : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: start_indices operand #2 type tensor<i32> differs from operand #1 type tensor<i64>
func.func @main(%a: tensor<4x4xf32>, %b: tensor<i64>, %c: tensor<i32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.dynamic_slice"(%a, %b, %c) {slice_sizes = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<i64>, tensor<i32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// ERROR: result type tensor<3xf32>: dimension 0 is 3, expected 2
func.func @main(%a: tensor<4xf32>, %b: tensor<i64>) -> tensor<3xf32> {
  %0 = "stablehlo.dynamic_slice"(%a, %b) {slice_sizes = array<i64: 2>} : (tensor<4xf32>, tensor<i64>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: slice_sizes has 2 entries but operand rank is 1
func.func @main(%a: tensor<4xf32>, %b: tensor<i64>) -> tensor<2xf32> {
  %0 = "stablehlo.dynamic_slice"(%a, %b) {slice_sizes = array<i64: 2, 2>} : (tensor<4xf32>, tensor<i64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: slice_sizes[0] = -2 is negative
func.func @main(%a: tensor<4xf32>, %b: tensor<i64>) -> tensor<2xf32> {
  %0 = "stablehlo.dynamic_slice"(%a, %b) {slice_sizes = array<i64: -2>} : (tensor<4xf32>, tensor<i64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: update dimension 0 (size 5) exceeds operand dimension size 4
func.func @main(%a: tensor<4xf32>, %b: tensor<5xf32>, %c: tensor<i64>) -> tensor<4xf32> {
  %0 = "stablehlo.dynamic_update_slice"(%a, %b, %c) : (tensor<4xf32>, tensor<5xf32>, tensor<i64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: update rank 2 does not match operand rank 1
func.func @main(%a: tensor<4xf32>, %b: tensor<1x1xf32>, %c: tensor<i64>) -> tensor<4xf32> {
  %0 = "stablehlo.dynamic_update_slice"(%a, %b, %c) : (tensor<4xf32>, tensor<1x1xf32>, tensor<i64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: expects 1 start_indices (the operand rank), got 2
func.func @main(%a: tensor<4xf32>, %b: tensor<2xf32>, %c: tensor<i64>, %d: tensor<i64>) -> tensor<4xf32> {
  %0 = "stablehlo.dynamic_update_slice"(%a, %b, %c, %d) : (tensor<4xf32>, tensor<2xf32>, tensor<i64>, tensor<i64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: result type tensor<5xf32> does not have the shape of operand type tensor<4xf32>
func.func @main(%a: tensor<4xf32>, %b: tensor<2xf32>, %c: tensor<i64>) -> tensor<5xf32> {
  %0 = "stablehlo.dynamic_update_slice"(%a, %b, %c) : (tensor<4xf32>, tensor<2xf32>, tensor<i64>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// -----

// ERROR: update type tensor<2xf16> does not have the element type of operand type tensor<4xf32>
func.func @main(%a: tensor<4xf32>, %b: tensor<2xf16>, %c: tensor<i64>) -> tensor<4xf32> {
  %0 = "stablehlo.dynamic_update_slice"(%a, %b, %c) : (tensor<4xf32>, tensor<2xf16>, tensor<i64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: start_indices operand #2 must be a 0-dimensional integer tensor, got tensor<1xi64>
func.func @main(%a: tensor<4xf32>, %b: tensor<2xf32>, %c: tensor<1xi64>) -> tensor<4xf32> {
  %0 = "stablehlo.dynamic_update_slice"(%a, %b, %c) : (tensor<4xf32>, tensor<2xf32>, tensor<1xi64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: start_indices has 2 entries but operand rank is 1
func.func @main(%a: tensor<?xf32>, %b: tensor<2xindex>, %c: tensor<2xindex>, %d: tensor<2xindex>) -> tensor<?xf32> {
  %0 = "stablehlo.real_dynamic_slice"(%a, %b, %c, %d) : (tensor<?xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: limit_indices type tensor<1xi32> does not match start_indices type tensor<1xindex>
func.func @main(%a: tensor<?xf32>, %b: tensor<1xindex>, %c: tensor<1xi32>, %d: tensor<1xindex>) -> tensor<?xf32> {
  %0 = "stablehlo.real_dynamic_slice"(%a, %b, %c, %d) : (tensor<?xf32>, tensor<1xindex>, tensor<1xi32>, tensor<1xindex>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: result type tensor<?xi32> does not have the element type of operand type tensor<?xf32>
func.func @main(%a: tensor<?xf32>, %b: tensor<1xindex>, %c: tensor<1xindex>, %d: tensor<1xindex>) -> tensor<?xi32> {
  %0 = "stablehlo.real_dynamic_slice"(%a, %b, %c, %d) : (tensor<?xf32>, tensor<1xindex>, tensor<1xindex>, tensor<1xindex>) -> tensor<?xi32>
  func.return %0 : tensor<?xi32>
}

// -----

// ERROR: result rank 2 does not match operand rank 1
func.func @main(%a: tensor<?xf32>, %b: tensor<1xindex>, %c: tensor<1xindex>, %d: tensor<1xindex>) -> tensor<?x?xf32> {
  %0 = "stablehlo.real_dynamic_slice"(%a, %b, %c, %d) : (tensor<?xf32>, tensor<1xindex>, tensor<1xindex>, tensor<1xindex>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// ERROR: dimension = 2 is out of range for input rank 2
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x6xf32> {
  %0 = "stablehlo.concatenate"(%a, %b) {dimension = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  func.return %0 : tensor<2x6xf32>
}

// -----

// ERROR: input #1 type tensor<3x3xf32> does not match input #0 type tensor<2x3xf32> in dimension 0
func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> tensor<2x6xf32> {
  %0 = "stablehlo.concatenate"(%a, %b) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x6xf32>
  func.return %0 : tensor<2x6xf32>
}

// -----

// ERROR: result type tensor<2x5xf32>: dimension 1 is 5, expected 6
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x5xf32> {
  %0 = "stablehlo.concatenate"(%a, %b) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}

// -----

// ERROR: input #1 type tensor<2x3xi32> does not match the element type and rank of input #0
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> tensor<2x6xf32> {
  %0 = "stablehlo.concatenate"(%a, %b) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x6xf32>
  func.return %0 : tensor<2x6xf32>
}

// -----

// ERROR: cannot concatenate rank-0 inputs
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<2xf32> {
  %0 = "stablehlo.concatenate"(%a, %b) {dimension = 0 : i64} : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: requires attribute 'dimension'
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.concatenate"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: interior_padding[0] = -1 is negative
func.func @main(%a: tensor<3xf32>, %b: tensor<f32>) -> tensor<3xf32> {
  %0 = "stablehlo.pad"(%a, %b) {edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0>, interior_padding = array<i64: -1>} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: edge_padding_high has 2 entries but operand rank is 1
func.func @main(%a: tensor<3xf32>, %b: tensor<f32>) -> tensor<3xf32> {
  %0 = "stablehlo.pad"(%a, %b) {edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0, 0>, interior_padding = array<i64: 0>} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: result type tensor<6xf32>: dimension 0 is 6, expected 8
func.func @main(%a: tensor<3xf32>, %b: tensor<f32>) -> tensor<6xf32> {
  %0 = "stablehlo.pad"(%a, %b) {edge_padding_low = array<i64: 1>, edge_padding_high = array<i64: 2>, interior_padding = array<i64: 1>} : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  func.return %0 : tensor<6xf32>
}

// -----

// ERROR: padding_value must be a 0-dimensional tensor, got tensor<1xf32>
func.func @main(%a: tensor<3xf32>, %b: tensor<1xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.pad"(%a, %b) {edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0>, interior_padding = array<i64: 0>} : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: padding makes dimension 0 negative (-1)
func.func @main(%a: tensor<3xf32>, %b: tensor<f32>) -> tensor<0xf32> {
  %0 = "stablehlo.pad"(%a, %b) {edge_padding_low = array<i64: -2>, edge_padding_high = array<i64: -2>, interior_padding = array<i64: 0>} : (tensor<3xf32>, tensor<f32>) -> tensor<0xf32>
  func.return %0 : tensor<0xf32>
}

// -----

// ERROR: padding_value type tensor<i32> does not have the element type of operand type tensor<3xf32>
func.func @main(%a: tensor<3xf32>, %b: tensor<i32>) -> tensor<3xf32> {
  %0 = "stablehlo.pad"(%a, %b) {edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0>, interior_padding = array<i64: 0>} : (tensor<3xf32>, tensor<i32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: result type tensor<7xf32>: dimension 0 is 7, more than its bound 6
func.func @main(%a: tensor<?xf32, #stablehlo.type_extensions<bounds = [4]>>, %b: tensor<f32>) -> tensor<7xf32> {
  %0 = "stablehlo.pad"(%a, %b) {edge_padding_low = array<i64: 1>, edge_padding_high = array<i64: 1>, interior_padding = array<i64: 0>} : (tensor<?xf32, #stablehlo.type_extensions<bounds = [4]>>, tensor<f32>) -> tensor<7xf32>
  func.return %0 : tensor<7xf32>
}

// -----

// ERROR: edge_padding_low has 2 entries but operand rank is 1
func.func @main(%a: tensor<?xf32>, %b: tensor<f32>, %c: tensor<2xindex>, %d: tensor<2xindex>, %e: tensor<2xindex>) -> tensor<?xf32> {
  %0 = "stablehlo.dynamic_pad"(%a, %b, %c, %d, %e) : (tensor<?xf32>, tensor<f32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: interior_padding type tensor<1xi32> does not match edge_padding_low type tensor<1xindex>
func.func @main(%a: tensor<?xf32>, %b: tensor<f32>, %c: tensor<1xindex>, %d: tensor<1xindex>, %e: tensor<1xi32>) -> tensor<?xf32> {
  %0 = "stablehlo.dynamic_pad"(%a, %b, %c, %d, %e) : (tensor<?xf32>, tensor<f32>, tensor<1xindex>, tensor<1xindex>, tensor<1xi32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: result rank 2 does not match operand rank 1
func.func @main(%a: tensor<?xf32>, %b: tensor<f32>, %c: tensor<1xindex>, %d: tensor<1xindex>, %e: tensor<1xindex>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dynamic_pad"(%a, %b, %c, %d, %e) : (tensor<?xf32>, tensor<f32>, tensor<1xindex>, tensor<1xindex>, tensor<1xindex>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// ERROR: padding_value must be a 0-dimensional tensor, got tensor<2xf32>
func.func @main(%a: tensor<?xf32>, %b: tensor<2xf32>, %c: tensor<1xindex>, %d: tensor<1xindex>, %e: tensor<1xindex>) -> tensor<?xf32> {
  %0 = "stablehlo.dynamic_pad"(%a, %b, %c, %d, %e) : (tensor<?xf32>, tensor<2xf32>, tensor<1xindex>, tensor<1xindex>, tensor<1xindex>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: iota_dimension = 2 is out of range for result rank 2
func.func @main() -> tensor<2x3xf32> {
  %0 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: result type tensor<f32> must have rank >= 1
func.func @main() -> tensor<f32> {
  %0 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: result type tensor<?xf32> must have a static shape
func.func @main() -> tensor<?xf32> {
  %0 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: result must be a tensor of integer, floating-point, complex or per-tensor quantized elements, got tensor<4xi1>
func.func @main() -> tensor<4xi1> {
  %0 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

// ERROR: requires attribute 'iota_dimension'
func.func @main() -> tensor<4xf32> {
  %0 = "stablehlo.iota"() : () -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: iota_dimension = 1 is out of range for result rank 1
func.func @main(%a: tensor<1xi64>) -> tensor<?xf32> {
  %0 = "stablehlo.dynamic_iota"(%a) {iota_dimension = 1 : i64} : (tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: output_shape has 2 entries but result rank is 1
func.func @main(%a: tensor<2xi64>) -> tensor<?xf32> {
  %0 = "stablehlo.dynamic_iota"(%a) {iota_dimension = 0 : i64} : (tensor<2xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: output_shape must be a statically shaped 1-dimensional tensor of integer or index type, got tensor<2x1xi64>
func.func @main(%a: tensor<2x1xi64>) -> tensor<?x?xf32> {
  %0 = "stablehlo.dynamic_iota"(%a) {iota_dimension = 0 : i64} : (tensor<2x1xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// ERROR: output_shape[0] = 3 is incompatible with result type tensor<4xf32>
func.func @main() -> tensor<4xf32> {
  %s = "stablehlo.constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "stablehlo.dynamic_iota"(%s) {iota_dimension = 0 : i64} : (tensor<1xi64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// ERROR: dimensions[1] = 0 is a duplicate of dimensions[0]
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.reverse"(%a) {dimensions = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: dimensions[0] = 2 is out of range for operand rank 2
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.reverse"(%a) {dimensions = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: result type tensor<3x2xf32> does not have the shape of operand type tensor<2x3xf32>
func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.reverse"(%a) {dimensions = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

// ERROR: dimension = 2 is out of range for operand rank 2
func.func @main(%a: tensor<2x3xf32>) -> tensor<i32> {
  %0 = "stablehlo.get_dimension_size"(%a) {dimension = 2 : i64} : (tensor<2x3xf32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// ERROR: result must be tensor<i32>, got tensor<i64>
func.func @main(%a: tensor<2x3xf32>) -> tensor<i64> {
  %0 = "stablehlo.get_dimension_size"(%a) {dimension = 1 : i64} : (tensor<2x3xf32>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// ERROR: size must be tensor<i32>, got tensor<i64>
func.func @main(%a: tensor<4xf32>, %b: tensor<i64>) -> tensor<?xf32> {
  %0 = "stablehlo.set_dimension_size"(%a, %b) {dimension = 0 : i64} : (tensor<4xf32>, tensor<i64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: dimension = 1 is out of range for operand rank 1
func.func @main(%a: tensor<4xf32>, %b: tensor<i32>) -> tensor<?xf32> {
  %0 = "stablehlo.set_dimension_size"(%a, %b) {dimension = 1 : i64} : (tensor<4xf32>, tensor<i32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: result type tensor<5xf32>: dimension 0 is 5, more than its bound 4
func.func @main(%a: tensor<4xf32>, %b: tensor<i32>) -> tensor<5xf32> {
  %0 = "stablehlo.set_dimension_size"(%a, %b) {dimension = 0 : i64} : (tensor<4xf32>, tensor<i32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// -----

// ERROR: result tuple element #1 type tensor<f64> does not match operand #1 type tensor<i32>
func.func @main(%a: tensor<f32>, %b: tensor<i32>) -> tuple<tensor<f32>, tensor<f64>> {
  %0 = "stablehlo.tuple"(%a, %b) : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<f64>>
  func.return %0 : tuple<tensor<f32>, tensor<f64>>
}

// -----

// ERROR: result type tuple<tensor<f32>> must be a tuple of 2 elements
func.func @main(%a: tensor<f32>, %b: tensor<i32>) -> tuple<tensor<f32>> {
  %0 = "stablehlo.tuple"(%a, %b) : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>>
  func.return %0 : tuple<tensor<f32>>
}

// -----

// ERROR: index 2 is out of range for operand type tuple<tensor<f32>, tensor<i32>>
func.func @main(%a: tuple<tensor<f32>, tensor<i32>>) -> tensor<f32> {
  %0 = "stablehlo.get_tuple_element"(%a) {index = 2 : i32} : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: result type tensor<f32> does not match tuple element #1 type tensor<i32>
func.func @main(%a: tuple<tensor<f32>, tensor<i32>>) -> tensor<f32> {
  %0 = "stablehlo.get_tuple_element"(%a) {index = 1 : i32} : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: operand must be a tuple, got tensor<f32>
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %0 = "stablehlo.get_tuple_element"(%a) {index = 0 : i32} : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

// ERROR: value type tensor<2xf32> does not match result type tensor<3xf32>
func.func @main() -> tensor<3xf32> {
  %0 = "stablehlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: value type tensor<2xi32> does not match result type tensor<2xi64>
func.func @main() -> tensor<2xi64> {
  %0 = "stablehlo.constant"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
}

// -----

// ERROR: result type tensor<?xf32> must have a static shape
func.func @main() -> tensor<?xf32> {
  %0 = "stablehlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ERROR: value type tensor<2xi16> does not match result type tensor<2x!quant.uniform<i8:f32, 
func.func @main() -> tensor<2x!quant.uniform<i8:f32, 0.5:1>> {
  %0 = "stablehlo.constant"() {value = dense<[1, 2]> : tensor<2xi16>} : () -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  func.return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:1>>
}
