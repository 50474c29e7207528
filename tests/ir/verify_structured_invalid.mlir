// Invalid programs for the structured-op verifier rules (src/ir/verify_structured.c).
// Each case holds one function with exactly one invalid op; `// ERROR:` gives a substring
// of the expected message.

// ERROR: dimensions[0] = 2 is out of range for input rank 2
func.func @reduce_dimension_out_of_range(%a: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 2>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: dimensions[1] = 1 repeats dimensions[0]
func.func @reduce_dimension_repeated(%a: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1, 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: results[0] has type tensor<3xf32>, but removing the reduced dimensions from the inputs gives the shape [2]
func.func @reduce_result_shape(%a: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<3xf32> {
  %0 = "stablehlo.reduce"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: the body region takes 1 argument(s), but must take 2
func.func @reduce_body_arity(%a: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce"(%a, %init) ({
  ^bb0(%x: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: body region argument #1 has type tensor<2xf32>, but the region returns tensor<f32> as value #0
func.func @reduce_body_argument_rank(%a: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<2xf32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: operand #1 has element type i32, which is not promotable to f32
func.func @reduce_init_element_type(%a: tensor<2x3xf32>, %init: tensor<i32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: results[0] has type tensor<2xf16>, but its element type must be f32, the type the body region returns
func.func @reduce_result_element_type(%a: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<2xf16> {
  %0 = "stablehlo.reduce"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf16>
  func.return %0 : tensor<2xf16>
}

// -----

// ERROR: the body region returns 2 value(s), but must return 1
func.func @reduce_body_return_count(%a: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x, %y) : (tensor<f32>, tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: expects N inputs, N init_values and N results with N > 0
func.func @reduce_operand_count(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce"(%a, %b, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: inputs[1] has type tensor<3x2xi32>, whose shape differs from that of inputs[0]
func.func @reduce_inputs_shapes(%a: tensor<2x3xf32>, %b: tensor<3x2xi32>, %i: tensor<f32>, %j: tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %0:2 = "stablehlo.reduce"(%a, %b, %i, %j) ({
  ^bb0(%x: tensor<f32>, %y: tensor<i32>, %z: tensor<f32>, %w: tensor<i32>):
    "stablehlo.return"(%x, %y) : (tensor<f32>, tensor<i32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3x2xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return %0#0, %0#1 : tensor<2xf32>, tensor<2xi32>
}

// -----

// ERROR: operand #1 has type tensor<1xf32>, whose shape differs from tensor<f32>, the type the body region returns as value #0
func.func @reduce_init_rank(%a: tensor<2x3xf32>, %init: tensor<1xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.reduce"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// ERROR: body region argument #1 has type tensor<3xf32>, but must be a 0-dimensional tensor (or keep only result dimensions)
func.func @reduce_body_slice_shape(%a: tensor<7x5xf32>, %init: tensor<3xf32>) -> tensor<5xf32> {
  %0 = "stablehlo.reduce"(%a, %init) ({
  ^bb0(%x: tensor<3xf32>, %y: tensor<3xf32>):
    "stablehlo.return"(%x) : (tensor<3xf32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<7x5xf32>, tensor<3xf32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// -----

// ERROR: window_dimensions has 1 entries, but must have one per dimension of the inputs (rank 2)
func.func @reduce_window_dimensions_size(%a: tensor<4x6xf32>, %init: tensor<f32>) -> tensor<2x6xf32> {
  %0 = "stablehlo.reduce_window"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  func.return %0 : tensor<2x6xf32>
}

// -----

// ERROR: window_strides[1] = 0 must be positive
func.func @reduce_window_zero_stride(%a: tensor<4x6xf32>, %init: tensor<f32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.reduce_window"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 0>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: results[0] has type tensor<2x2xf32>, but the window over the inputs gives the shape [2, 3]
func.func @reduce_window_result_shape(%a: tensor<4x6xf32>, %init: tensor<f32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.reduce_window"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// ERROR: padding must have shape [2, 2]
func.func @reduce_window_padding_shape(%a: tensor<4x6xf32>, %init: tensor<f32>) -> tensor<3x5xf32> {
  %0 = "stablehlo.reduce_window"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 2>, padding = dense<0> : tensor<1x2xi64>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x5xf32>
  func.return %0 : tensor<3x5xf32>
}

// -----

// ERROR: base_dilations has 1 entries, but must have one per window dimension (2)
func.func @reduce_window_base_dilations_size(%a: tensor<4x6xf32>, %init: tensor<f32>) -> tensor<3x5xf32> {
  %0 = "stablehlo.reduce_window"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 2>, base_dilations = array<i64: 1>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<3x5xf32>
  func.return %0 : tensor<3x5xf32>
}

// -----

// ERROR: window_dimensions[0] = 0 must be positive
func.func @reduce_window_empty_window(%a: tensor<4x6xf32>, %init: tensor<f32>) -> tensor<5x5xf32> {
  %0 = "stablehlo.reduce_window"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 0, 2>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<5x5xf32>
  func.return %0 : tensor<5x5xf32>
}

// -----

// ERROR: select region returns tensor<f32>, but must return tensor<i1>
func.func @select_and_scatter_select_type(%a: tensor<4x2xf32>, %s: tensor<2x2xf32>, %init: tensor<f32>) -> tensor<4x2xf32> {
  %0 = "stablehlo.select_and_scatter"(%a, %s, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>} : (tensor<4x2xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

// ERROR: source has type tensor<3x2xf32>, but the window over the operand gives the shape [2, 2]
func.func @select_and_scatter_source_shape(%a: tensor<4x2xf32>, %s: tensor<3x2xf32>, %init: tensor<f32>) -> tensor<4x2xf32> {
  %0 = "stablehlo.select_and_scatter"(%a, %s, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = "stablehlo.compare"(%x, %y) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>} : (tensor<4x2xf32>, tensor<3x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

// ERROR: the scatter region takes 3 argument(s), but must take 2
func.func @select_and_scatter_scatter_arity(%a: tensor<4x2xf32>, %s: tensor<2x2xf32>, %init: tensor<f32>) -> tensor<4x2xf32> {
  %0 = "stablehlo.select_and_scatter"(%a, %s, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = "stablehlo.compare"(%x, %y) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %z: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>} : (tensor<4x2xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

// ERROR: select region argument #1 has element type i32, but must have the operand's element type f32
func.func @select_and_scatter_select_argument(%a: tensor<4x2xf32>, %s: tensor<2x2xf32>, %init: tensor<f32>) -> tensor<4x2xf32> {
  %0 = "stablehlo.select_and_scatter"(%a, %s, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<i32>):
    %c = "stablehlo.compare"(%x, %x) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>} : (tensor<4x2xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

// ERROR: input_spatial_dimensions[0] = 0 repeats input_batch_dimension
func.func @convolution_input_layout_repeated(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = "stablehlo.convolution"(%lhs, %rhs) {
    dimension_numbers = #stablehlo.conv<raw
      input_batch_dimension = 0,
      input_feature_dimension = 3,
      input_spatial_dimensions = [0, 2],
      kernel_input_feature_dimension = 2,
      kernel_output_feature_dimension = 3,
      kernel_spatial_dimensions = [0, 1],
      output_batch_dimension = 0,
      output_feature_dimension = 3,
      output_spatial_dimensions = [1, 2]
    >,
    feature_group_count = 1 : i64,
    batch_group_count = 1 : i64
  } : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

// ERROR: kernel_output_feature_dimension = 4 is out of range for rhs rank 4
func.func @convolution_kernel_layout_range(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = "stablehlo.convolution"(%lhs, %rhs) {
    dimension_numbers = #stablehlo.conv<raw
      input_batch_dimension = 0,
      input_feature_dimension = 3,
      input_spatial_dimensions = [1, 2],
      kernel_input_feature_dimension = 2,
      kernel_output_feature_dimension = 4,
      kernel_spatial_dimensions = [0, 1],
      output_batch_dimension = 0,
      output_feature_dimension = 3,
      output_spatial_dimensions = [1, 2]
    >,
    feature_group_count = 1 : i64,
    batch_group_count = 1 : i64
  } : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

// ERROR: rhs kernel input feature dimension size 3 must equal the lhs feature dimension size 1 divided by feature_group_count (1)
func.func @convolution_kernel_input_features(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x3x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<3x3x3x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

// ERROR: result has type tensor<1x3x3x1xf32>, but the convolution of lhs and rhs gives the shape [1, 2, 2, 1]
func.func @convolution_result_shape(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32>
  func.return %0 : tensor<1x3x3x1xf32>
}

// -----

// ERROR: window_strides has 1 entries, but must have one per window dimension (2)
func.func @convolution_strides_size(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

// ERROR: lhs element type f32 and rhs element type f16 must be equal
func.func @convolution_element_types(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf16>) -> tensor<1x2x2x1xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf16>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

// ERROR: feature_group_count (2) and batch_group_count (2) must not both exceed 1
func.func @convolution_both_group_counts(%lhs: tensor<2x4x4x2xf32>, %rhs: tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1]}
    {batch_group_count = 2 : i64, feature_group_count = 2 : i64}
    : (tensor<2x4x4x2xf32>, tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32>
  func.return %0 : tensor<1x2x2x2xf32>
}

// -----

// ERROR: lhs (tensor<1x4x4x1xf32>) and rhs (tensor<3x3x1xf32>) must have the same rank
func.func @convolution_ranks(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<3x3x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

// ERROR: lhs_dilation[0] = 0 must be positive
func.func @convolution_lhs_dilation(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1], lhs_dilate = [0, 1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

// ERROR: lhs batch dimension size 3 must be divisible by batch_group_count (2)
func.func @convolution_batch_group_count(%lhs: tensor<3x4x4x1xf32>, %rhs: tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1]}
    {batch_group_count = 2 : i64, feature_group_count = 1 : i64}
    : (tensor<3x4x4x1xf32>, tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32>
  func.return %0 : tensor<1x2x2x2xf32>
}

// -----

// ERROR: padding has type tensor<3x2xi64>, but must be an integer tensor of shape [2, 2]
func.func @dynamic_conv_padding_shape(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>, %pad: tensor<3x2xi64>) -> tensor<1x2x2x1xf32> {
  %0 = "stablehlo.dynamic_conv"(%lhs, %rhs, %pad) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    feature_group_count = 1 : i64,
    batch_group_count = 1 : i64
  } : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<3x2xi64>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

// ERROR: result has type tensor<1x2x2x1xf32>, but the convolution of lhs and rhs gives the shape [1, 4, 4, 1]
func.func @dynamic_conv_constant_padding(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  %pad = stablehlo.constant dense<1> : tensor<2x2xi64>
  %0 = "stablehlo.dynamic_conv"(%lhs, %rhs, %pad) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    feature_group_count = 1 : i64,
    batch_group_count = 1 : i64
  } : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

// ERROR: lhs_contracting_dimensions[0] = 3 is out of range for lhs rank 2
func.func @dot_general_contracting_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>
  } : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// ERROR: lhs_contracting_dimensions[0] (lhs dimension 1, size 3) and rhs_contracting_dimensions[0] (rhs dimension 0, size 4) must have the same size
func.func @dot_general_contracting_sizes(%a: tensor<2x3xf32>, %b: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>
  } : (tensor<2x3xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// ERROR: lhs_contracting_dimensions[0] = 0 repeats lhs_batching_dimensions[0]
func.func @dot_general_repeated_dimension(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {
    dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [1]>
  } : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

// ERROR: lhs_batching_dimensions has 1 entries and rhs_batching_dimensions 0; they must have the same size
func.func @dot_general_batching_count(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

// ERROR: lhs_batching_dimensions[0] (lhs dimension 0, size 2) and rhs_batching_dimensions[0] (rhs dimension 0, size 3) must have the same size
func.func @dot_general_batching_sizes(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

// ERROR: result has type tensor<2x5x3xf32>, but batching + lhs free + rhs free dimensions gives the shape [2, 3, 5]
func.func @dot_general_result_shape(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x5x3xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x5x3xf32>
  func.return %0 : tensor<2x5x3xf32>
}

// -----

// ERROR: precision_config has 3 entries, but must have at most 2
func.func @dot_general_precision_config(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>,
    precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>, #stablehlo<precision HIGH>]
  } : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// ERROR: rhs zero points must be 0
func.func @dot_general_rhs_zero_point(%a: tensor<2x3x!quant.uniform<i8:f32, 1.0:3>>, %b: tensor<3x4x!quant.uniform<i8:f32, 1.0:2>>) -> tensor<2x4x!quant.uniform<i32:f32, 1.0:0>> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 1.0:3>>, tensor<3x4x!quant.uniform<i8:f32, 1.0:2>>) -> tensor<2x4x!quant.uniform<i32:f32, 1.0:0>>
  func.return %0 : tensor<2x4x!quant.uniform<i32:f32, 1.0:0>>
}

// -----

// ERROR: with quantized types, rhs must be quantized
func.func @dot_general_rhs_not_quantized(%a: tensor<2x3x!quant.uniform<i8:f32, 1.0:3>>, %b: tensor<3x4xf32>) -> tensor<2x4x!quant.uniform<i32:f32, 1.0:0>> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 1.0:3>>, tensor<3x4xf32>) -> tensor<2x4x!quant.uniform<i32:f32, 1.0:0>>
  func.return %0 : tensor<2x4x!quant.uniform<i32:f32, 1.0:0>>
}

// -----

// ERROR: lhs (tensor<2x3x4xf32>) and rhs (tensor<4xf32>) must both have rank 1 or 2
func.func @dot_rank(%a: tensor<2x3x4xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.dot"(%a, %b) : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: lhs dimension 1 (size 3) and rhs dimension 0 (size 4) are contracted and must have the same size
func.func @dot_contracting(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  %0 = "stablehlo.dot"(%a, %b) : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}

// -----

// ERROR: offset_dims must be sorted, but offset_dims[1] = 2 follows 3
func.func @gather_offset_dims_unsorted(%operand: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64> {
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [3, 2], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 2, 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return %0 : tensor<2x3x2x2xi64>
}

// -----

// ERROR: collapsed_slice_dims[0] = 3 is out of range for operand rank 3
func.func @gather_collapsed_range(%operand: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64> {
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [3], start_index_map = [1, 0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 2, 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return %0 : tensor<2x3x2x2xi64>
}

// -----

// ERROR: slice_sizes[1] = 5 is out of range for operand dimension 1 (size 4)
func.func @gather_slice_size_bound(%operand: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>) -> tensor<2x3x5x2xi64> {
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 5, 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x5x2xi64>
  func.return %0 : tensor<2x3x5x2xi64>
}

// -----

// ERROR: slice_sizes[0] = 2 must be at most 1, since dimension 0 is in collapsed_slice_dims
func.func @gather_collapsed_slice_size(%operand: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64> {
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>,
    slice_sizes = array<i64: 2, 2, 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return %0 : tensor<2x3x2x2xi64>
}

// -----

// ERROR: start_index_map has 1 entries, but the index vectors of start_indices (dimension 2) have 2
func.func @gather_start_index_map_size(%operand: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64> {
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 2, 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return %0 : tensor<2x3x2x2xi64>
}

// -----

// ERROR: result has type tensor<2x3x2x3xi64>, but gathering slice_sizes slices gives the shape [2, 3, 2, 2]
func.func @gather_result_shape(%operand: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>) -> tensor<2x3x2x3xi64> {
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 2, 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x3xi64>
  func.return %0 : tensor<2x3x2x3xi64>
}

// -----

// ERROR: operand has rank 3, but offset_dims, collapsed_slice_dims and operand_batching_dims have 2 entries together
func.func @gather_operand_rank(%operand: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>) -> tensor<2x3x2xi64> {
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 2, 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2xi64>
  func.return %0 : tensor<2x3x2xi64>
}

// -----

// ERROR: index_vector_dim = 4 is out of range for start_indices rank 3
func.func @gather_index_vector_dim(%operand: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64> {
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 4>,
    slice_sizes = array<i64: 1, 2, 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi64>
  func.return %0 : tensor<2x3x2x2xi64>
}

// -----

// ERROR: result has type tensor<2x3x2x2xi32>, whose element type differs from that of operand
func.func @gather_element_type(%operand: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32> {
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 2, 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>) -> tensor<2x3x2x2xi32>
  func.return %0 : tensor<2x3x2x2xi32>
}

// -----

// ERROR: operand_batching_dims[0] (size 2) and start_indices_batching_dims[0] (size 3) must have the same size
func.func @gather_batching_sizes(%operand: tensor<2x3x4x2xi32>, %idx: tensor<2x3x3x2xi64>) -> tensor<2x3x3x2x2xi32> {
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [2, 1], index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>
  } : (tensor<2x3x4x2xi32>, tensor<2x3x3x2xi64>) -> tensor<2x3x3x2x2xi32>
  func.return %0 : tensor<2x3x3x2x2xi32>
}

// -----

// ERROR: operand_batching_dims[0] = 0 repeats start_index_map[0]
func.func @gather_start_index_map_batching(%operand: tensor<2x3x4x2xi32>, %idx: tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32> {
  %0 = "stablehlo.gather"(%operand, %idx) {
    dimension_numbers = #stablehlo.gather<offset_dims = [3, 4], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [0, 1], index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>
  } : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
  func.return %0 : tensor<2x2x3x2x2xi32>
}

// -----

// ERROR: slice_sizes has type tensor<3x1xi64>, but must be a 1-dimensional tensor
func.func @dynamic_gather_slice_sizes_rank(%operand: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>, %sizes: tensor<3x1xi64>) -> tensor<2x3x2x2xi64> {
  %0 = "stablehlo.dynamic_gather"(%operand, %idx, %sizes) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<3x1xi64>) -> tensor<2x3x2x2xi64>
  func.return %0 : tensor<2x3x2x2xi64>
}

// -----

// ERROR: result has type tensor<2x3x3x2xi64>, but gathering slice_sizes slices gives the shape [2, 3, 2, 2]
func.func @dynamic_gather_constant_sizes(%operand: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>) -> tensor<2x3x3x2xi64> {
  %sizes = stablehlo.constant dense<[1, 2, 2]> : tensor<3xi64>
  %0 = "stablehlo.dynamic_gather"(%operand, %idx, %sizes) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x3x2xi64>
  func.return %0 : tensor<2x3x3x2xi64>
}

// -----

// ERROR: update_window_dims[1] = 4 is out of range for updates rank 4
func.func @scatter_update_window_dims_range(%input: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>, %upd: tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64> {
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    "stablehlo.return"(%y) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 4], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return %0 : tensor<3x4x2xi64>
}

// -----

// ERROR: updates have type tensor<2x3x2xi64>, but must have rank 4
func.func @scatter_updates_rank(%input: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>, %upd: tensor<2x3x2xi64>) -> tensor<3x4x2xi64> {
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    "stablehlo.return"(%y) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2xi64>) -> tensor<3x4x2xi64>
  func.return %0 : tensor<3x4x2xi64>
}

// -----

// ERROR: input_batching_dims[0] = 0 repeats inserted_window_dims[0]
func.func @scatter_inserted_batching_repeated(%input: tensor<2x3x4x2xi64>, %idx: tensor<2x2x3x2xi64>, %upd: tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64> {
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    "stablehlo.return"(%y) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [3, 4], inserted_window_dims = [0], input_batching_dims = [0], scatter_indices_batching_dims = [1], scatter_dims_to_operand_dims = [2, 1], index_vector_dim = 3>
  } : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>
  func.return %0 : tensor<2x3x4x2xi64>
}

// -----

// ERROR: the update_computation region takes 1 argument(s), but must take 2
func.func @scatter_update_computation_arity(%input: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>, %upd: tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64> {
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%x: tensor<i64>):
    "stablehlo.return"(%x) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return %0 : tensor<3x4x2xi64>
}

// -----

// ERROR: updates scatter dimension 1 has size 4, but scatter_indices dimension 1 has size 3
func.func @scatter_updates_scatter_dims(%input: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>, %upd: tensor<2x4x2x2xi64>) -> tensor<3x4x2xi64> {
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    "stablehlo.return"(%y) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x4x2x2xi64>) -> tensor<3x4x2xi64>
  func.return %0 : tensor<3x4x2xi64>
}

// -----

// ERROR: updates window dimension 3 has size 3, more than the size 2 of inputs dimension 2
func.func @scatter_updates_window_bound(%input: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>, %upd: tensor<2x3x2x3xi64>) -> tensor<3x4x2xi64> {
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    "stablehlo.return"(%y) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x3xi64>) -> tensor<3x4x2xi64>
  func.return %0 : tensor<3x4x2xi64>
}

// -----

// ERROR: results[0] has type tensor<3x4xi64>, whose shape differs from that of inputs[0]
func.func @scatter_result_shape(%input: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>, %upd: tensor<2x3x2x2xi64>) -> tensor<3x4xi64> {
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    "stablehlo.return"(%y) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4xi64>
  func.return %0 : tensor<3x4xi64>
}

// -----

// ERROR: scatter_dims_to_operand_dims has 3 entries, but the index vectors of scatter_indices (dimension 2) have 2
func.func @scatter_dims_to_operand_dims_size(%input: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>, %upd: tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64> {
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    "stablehlo.return"(%y) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0, 2], index_vector_dim = 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xi64>) -> tensor<3x4x2xi64>
  func.return %0 : tensor<3x4x2xi64>
}

// -----

// ERROR: operand #2 has element type f32, which is not promotable to i64
func.func @scatter_updates_element_type(%input: tensor<3x4x2xi64>, %idx: tensor<2x3x2xi64>, %upd: tensor<2x3x2x2xf32>) -> tensor<3x4x2xi64> {
  %0 = "stablehlo.scatter"(%input, %idx, %upd) ({
  ^bb0(%x: tensor<i64>, %y: tensor<i64>):
    "stablehlo.return"(%y) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 3], inserted_window_dims = [0], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 2>
  } : (tensor<3x4x2xi64>, tensor<2x3x2xi64>, tensor<2x3x2x2xf32>) -> tensor<3x4x2xi64>
  func.return %0 : tensor<3x4x2xi64>
}

// -----

// ERROR: dimension = 2 is out of range [-2, 2) for input rank 2
func.func @sort_dimension(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = "stablehlo.compare"(%x, %y) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) {dimension = 2 : i64, is_stable = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: comparator region argument #3 has element type f32, but must have the element type i32 of inputs[1]
func.func @sort_comparator_argument_type(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %0:2 = "stablehlo.sort"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %z: tensor<i32>, %w: tensor<f32>):
    %c = "stablehlo.compare"(%x, %y) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  func.return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// ERROR: comparator region returns tensor<f32>, but must return tensor<i1>
func.func @sort_comparator_result(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimension = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// ERROR: the comparator region takes 2 argument(s), but must take 4
func.func @sort_comparator_arity(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %0:2 = "stablehlo.sort"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = "stablehlo.compare"(%x, %y) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  func.return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// ERROR: inputs[1] has type tensor<3x2xi32>, whose shape differs from that of inputs[0]
func.func @sort_input_shapes(%a: tensor<2x3xf32>, %b: tensor<3x2xi32>) -> (tensor<2x3xf32>, tensor<3x2xi32>) {
  %0:2 = "stablehlo.sort"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %z: tensor<i32>, %w: tensor<i32>):
    %c = "stablehlo.compare"(%x, %y) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) {dimension = 0 : i64} : (tensor<2x3xf32>, tensor<3x2xi32>) -> (tensor<2x3xf32>, tensor<3x2xi32>)
  func.return %0#0, %0#1 : tensor<2x3xf32>, tensor<3x2xi32>
}

// -----

// ERROR: results[0] has type tensor<2x3xf16>, whose element type differs from that of inputs[0]
func.func @sort_result_type(%a: tensor<2x3xf32>) -> tensor<2x3xf16> {
  %0 = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = "stablehlo.compare"(%x, %y) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) {dimension = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  func.return %0 : tensor<2x3xf16>
}

// -----

// ERROR: dimensions must list every dimension of the inputs in order (0 to 1)
func.func @map_dimensions(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1, 0>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// ERROR: the computation region takes 1 argument(s), but must take 2
func.func @map_computation_arity(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// ERROR: computation region argument #1 has element type i32, but must have the element type f32 of inputs[1]
func.func @map_computation_argument(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<i32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// ERROR: result has type tensor<2x2xi32>, but its element type must be f32, the type the computation region returns
func.func @map_result_element_type(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xi32> {
  %0 = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi32>
  func.return %0 : tensor<2x2xi32>
}

// -----

// ERROR: inputs[1] has type tensor<2x3xf32>, whose shape differs from that of result
func.func @map_input_shape(%a: tensor<2x2xf32>, %b: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// ERROR: fft_length has 4 entries, but must have 1 to 3
func.func @fft_length_size(%a: tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>> {
  %0 = "stablehlo.fft"(%a) {fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 2, 2, 2, 2>} : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
  func.return %0 : tensor<2x2x2x2xcomplex<f32>>
}

// -----

// ERROR: result has type tensor<8xcomplex<f32>>, but the fft of the operand gives the shape [5]
func.func @fft_rfft_result_shape(%a: tensor<8xf32>) -> tensor<8xcomplex<f32>> {
  %0 = stablehlo.fft %a, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  func.return %0 : tensor<8xcomplex<f32>>
}

// -----

// ERROR: operand has type tensor<4xf32>, but FFT, IFFT and IRFFT needs a complex element type
func.func @fft_real_operand(%a: tensor<4xf32>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.fft %a, type = FFT, length = [4] : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
  func.return %0 : tensor<4xcomplex<f32>>
}

// -----

// ERROR: result has type tensor<8xf64>, but for operand tensor<5xcomplex<f32>> its element type must be f32
func.func @fft_irfft_element_type(%a: tensor<5xcomplex<f32>>) -> tensor<8xf64> {
  %0 = stablehlo.fft %a, type = IRFFT, length = [8] : (tensor<5xcomplex<f32>>) -> tensor<8xf64>
  func.return %0 : tensor<8xf64>
}

// -----

// ERROR: operand dimension 0 has size 4, but IRFFT needs fft_length[-1] / 2 + 1 = 5
func.func @fft_irfft_operand_shape(%a: tensor<4xcomplex<f32>>) -> tensor<8xf32> {
  %0 = stablehlo.fft %a, type = IRFFT, length = [8] : (tensor<4xcomplex<f32>>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// ERROR: a has type tensor<3x4xf32>, but its two minor dimensions must have the same size
func.func @triangular_solve_not_square(%a: tensor<3x4xf32>, %b: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x4xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// -----

// ERROR: b dimension 0 (size 4) must match the size 3 of a's matrices (left_side = true)
func.func @triangular_solve_shared_dimension(%a: tensor<3x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

// ERROR: a (tensor<2x3x3xf32>) and b (tensor<3x3xf32>) must have the same rank
func.func @triangular_solve_ranks(%a: tensor<2x3x3xf32>, %b: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// -----

// ERROR: result has type tensor<3x2xf32>, whose shape differs from that of b
func.func @triangular_solve_result(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

// ERROR: a has type tensor<3xf32>, but must have rank 2 or more
func.func @cholesky_rank(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: a has type tensor<2x3x4xf32>, but its two minor dimensions must have the same size
func.func @cholesky_not_square(%a: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return %0 : tensor<2x3x4xf32>
}

// -----

// ERROR: feature_index = 3 is out of range for operand rank 3
func.func @batch_norm_grad_feature_index(%x: tensor<2x2x2xf32>, %s: tensor<2xf32>, %m: tensor<2xf32>, %v: tensor<2xf32>, %g: tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %m, %v, %g) {epsilon = 0.0 : f32, feature_index = 3 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  func.return %0#0, %0#1, %0#2 : tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// ERROR: mean has type tensor<3xf32>, but must be 1-dimensional with one entry per feature (2)
func.func @batch_norm_grad_mean_size(%x: tensor<2x2x2xf32>, %s: tensor<2xf32>, %m: tensor<3xf32>, %v: tensor<2xf32>, %g: tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %m, %v, %g) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2x2x2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  func.return %0#0, %0#1, %0#2 : tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// ERROR: grad_output has type tensor<2x2x3xf32>, whose shape differs from that of operand
func.func @batch_norm_grad_grad_output_shape(%x: tensor<2x2x2xf32>, %s: tensor<2xf32>, %m: tensor<2xf32>, %v: tensor<2xf32>, %g: tensor<2x2x3xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %m, %v, %g) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2x3xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  func.return %0#0, %0#1, %0#2 : tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// ERROR: offset has type tensor<2xf16>, whose element type differs from that of operand
func.func @batch_norm_inference_element_type(%x: tensor<2x2x2xf32>, %s: tensor<2xf32>, %o: tensor<2xf16>, %m: tensor<2xf32>, %v: tensor<2xf32>) -> tensor<2x2x2xf32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf16>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2x2xf32>
  func.return %0 : tensor<2x2x2xf32>
}

// -----

// ERROR: operand has type tensor<2x2x2xi32>, but must have a floating-point or per-tensor quantized element type
func.func @batch_norm_inference_integer(%x: tensor<2x2x2xi32>, %s: tensor<2xi32>, %o: tensor<2xi32>, %m: tensor<2xi32>, %v: tensor<2xi32>) -> tensor<2x2x2xi32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2x2xi32>
  func.return %0 : tensor<2x2x2xi32>
}

// -----

// ERROR: batch_var has type tensor<4xf32>, but must be 1-dimensional with one entry per feature (2)
func.func @batch_norm_training_result(%x: tensor<2x2x2xf32>, %s: tensor<2xf32>, %o: tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<4xf32>) {
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<4xf32>)
  func.return %0#0, %0#1, %0#2 : tensor<2x2x2xf32>, tensor<2xf32>, tensor<4xf32>
}

// -----

// ERROR: dim = 3 is out of range for operand rank 3
func.func @torch_index_select_dim(%a: tensor<5x1x5xf32>, %i: tensor<2xi32>) -> tensor<2x1x5xf32> {
  %0 = "stablehlo.torch_index_select"(%a, %i) {dim = 3 : i64, batch_dims = 0 : i64} : (tensor<5x1x5xf32>, tensor<2xi32>) -> tensor<2x1x5xf32>
  func.return %0 : tensor<2x1x5xf32>
}

// -----

// ERROR: result has type tensor<5x1x5xf32>, but selecting index entries along dim gives the shape [2, 1, 5]
func.func @torch_index_select_result(%a: tensor<5x1x5xf32>, %i: tensor<2xi32>) -> tensor<5x1x5xf32> {
  %0 = "stablehlo.torch_index_select"(%a, %i) {dim = 0 : i64, batch_dims = 0 : i64} : (tensor<5x1x5xf32>, tensor<2xi32>) -> tensor<5x1x5xf32>
  func.return %0 : tensor<5x1x5xf32>
}

// -----

// ERROR: einsum_config term 'abc' has 3 label(s), but operands[1] has type tensor<16x8xf32>
func.func @einsum_labels(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.einsum"(%a, %b) {einsum_config = "ab,abc->ac"} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  func.return %0 : tensor<8x8xf32>
}

// -----

// ERROR: einsum_config must have the form 'inputs->output'
func.func @unary_einsum_arrow(%a: tensor<8x16xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.unary_einsum"(%a) {einsum_config = "ab"} : (tensor<8x16xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// ERROR: k = 4 exceeds the size 3 of the operand's last dimension
func.func @top_k_too_large(%a: tensor<5x3xf32>) -> (tensor<5x4xf32>, tensor<5x4xi32>) {
  %values, %indices = chlo.top_k(%a, k = 4) : tensor<5x3xf32> -> (tensor<5x4xf32>, tensor<5x4xi32>)
  func.return %values, %indices : tensor<5x4xf32>, tensor<5x4xi32>
}

// -----

// ERROR: indices has type tensor<5x2xi64>, but must have element type i32
func.func @top_k_indices_type(%a: tensor<5x3xf32>) -> (tensor<5x2xf32>, tensor<5x2xi64>) {
  %values, %indices = chlo.top_k(%a, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi64>)
  func.return %values, %indices : tensor<5x2xf32>, tensor<5x2xi64>
}

// -----

// ERROR: values has type tensor<5x3xf32>, but the operand with k entries in the last dimension gives the shape [5, 2]
func.func @top_k_values_shape(%a: tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<5x2xi32>) {
  %values, %indices = chlo.top_k(%a, k = 2) : tensor<5x3xf32> -> (tensor<5x3xf32>, tensor<5x2xi32>)
  func.return %values, %indices : tensor<5x3xf32>, tensor<5x2xi32>
}

// -----

// ERROR: body region argument #1 has type tensor<f32>, which does not fit operand #1 (tensor<i32>)
func.func @scan_carry_type(%input: tensor<4xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  %0:2 = chlo.scan(%input) inits(%init) dimension=0 {
  ^bb0(%a: tensor<i32>, %b: tensor<f32>):
    stablehlo.return %a, %a : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
}

// -----

// ERROR: results[0] has type tensor<i32>, which does not fit the body's return value #0 (tensor<i32>) with the scan dimension added
func.func @scan_output_rank(%input: tensor<4xi32>, %init: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %0:2 = chlo.scan(%input) inits(%init) dimension=0 {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %a, %a : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  func.return %0#0, %0#1 : tensor<i32>, tensor<i32>
}

// -----

// ERROR: rhs_group_dimensions has 0 entries, but must have 1 when the lhs ragged dimension is a non-contracting dimension
func.func @ragged_dot_group_dimensions(%lhs: tensor<11x5xf32>, %rhs: tensor<5x7xf32>, %sizes: tensor<3xi64>) -> tensor<11x7xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [],
      rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1],
      rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [0],
      rhs_group_dimensions = []
    >
  } : (tensor<11x5xf32>, tensor<5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  func.return %0 : tensor<11x7xf32>
}

// -----

// ERROR: rhs group dimension 0 has size 4, but group_sizes has 3 groups
func.func @ragged_dot_group_count(%lhs: tensor<11x5xf32>, %rhs: tensor<4x5x7xf32>, %sizes: tensor<3xi64>) -> tensor<11x7xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [],
      rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1],
      rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0],
      rhs_group_dimensions = [0]
    >
  } : (tensor<11x5xf32>, tensor<4x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  func.return %0 : tensor<11x7xf32>
}

// -----

// ERROR: result has type tensor<1x2x2x1xf32>, but the convolution of lhs and rhs gives the shape [1, 4, 4, 1]
func.func @convolution_padding_used(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

// ERROR: padding must have shape [2, 2]
func.func @convolution_padding_count(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x4x2x1xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1], pad = [[1, 1]]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x4x2x1xf32>
  func.return %0 : tensor<1x4x2x1xf32>
}

// -----

// ERROR: window_reversal has 1 entries, but must have one per window dimension (2)
func.func @convolution_reversal_count(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1], reverse = [false]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

// ERROR: rhs is quantized along dimension 0, but must be along kernel_output_feature_dimension (3)
func.func @convolution_rhs_quantization_axis(%lhs: tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0:0>>, %rhs: tensor<3x3x1x2x!quant.uniform<i8:f32:0, {1.0, 2.0, 3.0}>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.0, 2.0}>> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0:0>>, tensor<3x3x1x2x!quant.uniform<i8:f32:0, {1.0, 2.0, 3.0}>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.0, 2.0}>>
  func.return %0 : tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.0, 2.0}>>
}

// -----

// ERROR: is per-tensor quantized, so the result (!quant.uniform<i32:f32:3
func.func @convolution_result_granularity(%lhs: tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0:0>>, %rhs: tensor<3x3x1x2x!quant.uniform<i8:f32, 1.0:0>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.0, 2.0}>> {
  %0 = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1x!quant.uniform<i8:f32, 1.0:0>>, tensor<3x3x1x2x!quant.uniform<i8:f32, 1.0:0>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.0, 2.0}>>
  func.return %0 : tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.0, 2.0}>>
}

// -----

// ERROR: precision_config[0] is HIGH, but must be DEFAULT when an algorithm is set
func.func @dot_general_algorithm_precision(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>,
    precision_config = [#stablehlo<precision HIGH>, #stablehlo<precision DEFAULT>],
    algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>
  } : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// ERROR: algorithm num_primitive_operations = 0 must be positive
func.func @dot_general_algorithm_count(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>,
    algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 0, allow_imprecise_accumulation = false>
  } : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// ERROR: results[0] has type tensor<3xf32>, but removing the reduced dimensions from the inputs gives the shape [2]
func.func @reduce_pretty_result_shape(%a: tensor<2x3xf32>, %init: tensor<f32>) -> tensor<3xf32> {
  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// ERROR: results[0] has type tensor<?x3xf32>, but the window over the inputs gives the shape [?, 2]
func.func @reduce_window_dynamic(%a: tensor<?x4xf32>, %init: tensor<f32>) -> tensor<?x3xf32> {
  %0 = "stablehlo.reduce_window"(%a, %init) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>} : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}

// -----

// ERROR: operand #0 has type tensor<2x2x!quant.uniform<i8:f32:0, {1.0,2.0}>>, but only per-tensor quantization is allowed here
func.func @cholesky_per_axis(%a: tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>> {
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  func.return %0 : tensor<2x2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
}

// -----

// ERROR: precision_config[0] must be one of DEFAULT, HIGH and HIGHEST
func.func @dot_precision_config_value(%a: tensor<2x2xi32>, %b: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %0 = "stablehlo.dot"(%a, %b) {precision_config = ["FOO", #stablehlo<precision HIGHEST>]} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  func.return %0 : tensor<2x2xi32>
}

// -----

// ERROR: dot algorithm {lhs f32, rhs f32, accumulation f32, components 3 x 1, 1 primitive operation(s)} is not known to be supported on any hardware
func.func @dot_general_unknown_algorithm(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) {
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>,
    algorithm = #stablehlo.dot_algorithm<lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 3, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>
  } : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// ERROR: group_sizes has type tensor<19x3xi64>, but must have the leading dimensions [17] followed by the group count
func.func @ragged_dot_group_sizes_shape(%lhs: tensor<17x11x5xf32>, %rhs: tensor<3x17x5x7xf32>, %sizes: tensor<19x3xi64>) -> tensor<17x11x7xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [0],
      rhs_batching_dimensions = [1],
      lhs_contracting_dimensions = [2],
      rhs_contracting_dimensions = [2],
      lhs_ragged_dimensions = [1],
      rhs_group_dimensions = [0]
    >
  } : (tensor<17x11x5xf32>, tensor<3x17x5x7xf32>, tensor<19x3xi64>) -> tensor<17x11x7xf32>
  func.return %0 : tensor<17x11x7xf32>
}

// -----

// ERROR: inputs[1] has scan dimension size 5, but the scan runs over 4 steps
func.func @scan_dimension_sizes(%a: tensor<4xi32>, %b: tensor<5xi32>, %init: tensor<i32>) -> (tensor<4xi32>, tensor<5xi32>, tensor<i32>) {
  %0:3 = chlo.scan(%a, %b) inits(%init) dimension=0 {
  ^bb0(%x: tensor<i32>, %y: tensor<i32>, %c: tensor<i32>):
    stablehlo.return %x, %y, %c : tensor<i32>, tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<5xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<5xi32>, tensor<i32>)
  func.return %0#0, %0#1, %0#2 : tensor<4xi32>, tensor<5xi32>, tensor<i32>
}
