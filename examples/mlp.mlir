// A two-layer perceptron over 8x8 digit images (64 features -> 32 hidden -> 10 classes),
// in the form JAX exports: weights as arguments, ReLU, and a numerically stable softmax.
module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<1x64xf32>, %w1: tensor<64x32xf32>, %b1: tensor<32xf32>,
                         %w2: tensor<32x10xf32>, %b2: tensor<10xf32>) -> (tensor<1x10xf32> {jax.result_info = "probs"}) {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x64xf32>, tensor<64x32xf32>) -> tensor<1x32xf32>
    %bb1 = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %h1 = stablehlo.add %h, %bb1 : tensor<1x32xf32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<1x32xf32>
    %relu = stablehlo.maximum %h1, %zero : tensor<1x32xf32>
    %o = stablehlo.dot_general %relu, %w2, contracting_dims = [1] x [0] : (tensor<1x32xf32>, tensor<32x10xf32>) -> tensor<1x10xf32>
    %bb2 = stablehlo.broadcast_in_dim %b2, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %logits = stablehlo.add %o, %bb2 : tensor<1x10xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %max = stablehlo.reduce(%logits init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<1x10xf32>, tensor<f32>) -> tensor<1xf32>
    %maxb = stablehlo.broadcast_in_dim %max, dims = [0] : (tensor<1xf32>) -> tensor<1x10xf32>
    %shift = stablehlo.subtract %logits, %maxb : tensor<1x10xf32>
    %e = stablehlo.exponential %shift : tensor<1x10xf32>
    %zs = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %sum = stablehlo.reduce(%e init: %zs) applies stablehlo.add across dimensions = [1] : (tensor<1x10xf32>, tensor<f32>) -> tensor<1xf32>
    %sumb = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<1xf32>) -> tensor<1x10xf32>
    %p = stablehlo.divide %e, %sumb : tensor<1x10xf32>
    return %p : tensor<1x10xf32>
  }
}
