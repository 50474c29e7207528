// Partition 0 joins an all_reduce over partitions {0, 1}; partition 1 takes the other branch
// and finishes: the run ends with an error naming the partition it waited for, at once.
module @deadlock attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> tensor<4xf32> {
    %x = stablehlo.constant dense<1.0> : tensor<4xf32>
    %pid = stablehlo.partition_id : tensor<ui32>
    %i = stablehlo.convert %pid : (tensor<ui32>) -> tensor<i32>
    %r = "stablehlo.case"(%i) ({
      %s = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %c : tensor<f32>
      }) : (tensor<4xf32>) -> tensor<4xf32>
      stablehlo.return %s : tensor<4xf32>
    }, {
      stablehlo.return %x : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
