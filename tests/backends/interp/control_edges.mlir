// Control flow, calls, checks and collectives: edge cases (self-checking).

func.func @fib(%n: tensor<i64>) -> tensor<i64> {
  %two = stablehlo.constant dense<2> : tensor<i64>
  %lt = stablehlo.compare LT, %n, %two : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = "stablehlo.if"(%lt) ({
    stablehlo.return %n : tensor<i64>
  }, {
    %one = stablehlo.constant dense<1> : tensor<i64>
    %a = stablehlo.subtract %n, %one : tensor<i64>
    %b = stablehlo.subtract %n, %two : tensor<i64>
    %fa = func.call @fib(%a) : (tensor<i64>) -> tensor<i64>
    %fb = func.call @fib(%b) : (tensor<i64>) -> tensor<i64>
    %s = stablehlo.add %fa, %fb : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) : (tensor<i1>) -> tensor<i64>
  func.return %r : tensor<i64>
}

func.func @main() {
  %n = stablehlo.constant dense<12> : tensor<i64>
  %r = func.call @fib(%n) : (tensor<i64>) -> tensor<i64>
  check.expect_eq_const %r, dense<144> : tensor<i64>
  func.return
}

// -----

func.func @case_index_min_int() {
  %index = stablehlo.constant dense<-2147483648> : tensor<i32>
  %r = "stablehlo.case"(%index) ({
    %0 = stablehlo.constant dense<0> : tensor<i64>
    stablehlo.return %0 : tensor<i64>
  }, {
    %1 = stablehlo.constant dense<1> : tensor<i64>
    stablehlo.return %1 : tensor<i64>
  }, {
    %2 = stablehlo.constant dense<2> : tensor<i64>
    stablehlo.return %2 : tensor<i64>
  }) : (tensor<i32>) -> tensor<i64>
  check.expect_eq_const %r, dense<2> : tensor<i64>
  func.return
}

// -----

func.func @while_zero_trips() {
  %init = stablehlo.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %r = stablehlo.while(%arg0 = %init) : tensor<2xf32>
  cond {
    %f = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %f : tensor<i1>
  } do {
    stablehlo.return %arg0 : tensor<2xf32>
  }
  // NaN equals NaN in the checks.
  check.expect_eq_const %r, dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  func.return
}

// -----

func.func @id_q(%x: tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:3>> {
  func.return %x : tensor<2x!quant.uniform<i8:f32, 0.5:3>>
}

func.func @main() {
  %c = stablehlo.constant dense<[1.0, -2.5]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %c : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:3>>
  %r = func.call @id_q(%q) : (tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:3>>
  %b = stablehlo.bitcast_convert %r : (tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2xi8>
  check.expect_eq_const %b, dense<[5, -2]> : tensor<2xi8>
  func.return
}

// -----

// Quantized collective_permute: a process that receives nothing gets quantize(0),
// the zero point.
module @permute_quantized {
  func.func @p(%x: tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2xi8> {
    %r = "stablehlo.collective_permute"(%x) {
      source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>
    } : (tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:3>>
    %b = stablehlo.bitcast_convert %r : (tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2xi8>
    func.return %b : tensor<2xi8>
  }
  func.func @main() {
    %c = stablehlo.constant dense<[1.0, -2.5]> : tensor<2xf32>
    %q = stablehlo.uniform_quantize %c : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:3>>
    %r:2 = "interpreter.run_parallel"(%q, %q) { programs = [[@p], [@p]] }
        : (tensor<2x!quant.uniform<i8:f32, 0.5:3>>, tensor<2x!quant.uniform<i8:f32, 0.5:3>>) -> (tensor<2xi8>, tensor<2xi8>)
    check.expect_eq_const %r#0, dense<[3, 3]> : tensor<2xi8>
    check.expect_eq_const %r#1, dense<[5, -2]> : tensor<2xi8>
    func.return
  }
}

// -----

// A group of one process needs no run_parallel.
func.func @single_process_collectives() {
  %x = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = stablehlo.add %arg0, %arg1 : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) { replica_groups = dense<[[0]]> : tensor<1x1xi64> } : (tensor<4xi64>) -> tensor<4xi64>
  check.expect_eq_const %r, dense<[1, 2, 3, 4]> : tensor<4xi64>
  %g = "stablehlo.all_gather"(%x) { all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64> } : (tensor<4xi64>) -> tensor<4xi64>
  check.expect_eq_const %g, dense<[1, 2, 3, 4]> : tensor<4xi64>
  %p = "stablehlo.collective_permute"(%x) { source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64> } : (tensor<4xi64>) -> tensor<4xi64>
  check.expect_eq_const %p, dense<[1, 2, 3, 4]> : tensor<4xi64>
  %id = stablehlo.replica_id : tensor<ui32>
  check.expect_eq_const %id, dense<0> : tensor<ui32>
  %pid = stablehlo.partition_id : tensor<ui32>
  check.expect_eq_const %pid, dense<0> : tensor<ui32>
  func.return
}

// -----

// all_reduce folds in process-group order (here a non-commutative computation).
module @all_reduce_order {
  func.func @f(%x: tensor<2xi64>) -> tensor<2xi64> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %ten = stablehlo.constant dense<10> : tensor<i64>
        %m = stablehlo.multiply %a, %ten : tensor<i64>
        %s = stablehlo.add %m, %b : tensor<i64>
        stablehlo.return %s : tensor<i64>
    }) { replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64> } : (tensor<2xi64>) -> tensor<2xi64>
    func.return %r : tensor<2xi64>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 4]> : tensor<2xi64>
    %b = stablehlo.constant dense<[2, 5]> : tensor<2xi64>
    %c = stablehlo.constant dense<[3, 6]> : tensor<2xi64>
    %r:3 = "interpreter.run_parallel"(%a, %b, %c) { programs = [[@f], [@f], [@f]] }
        : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
    check.expect_eq_const %r#0, dense<[312, 645]> : tensor<2xi64>
    check.expect_eq_const %r#2, dense<[312, 645]> : tensor<2xi64>
    func.return
  }
}

// -----

module @async_and_cross_replica_sum {
  func.func @f(%arg0 : tensor<2x2xi64>) -> tensor<2x4xi64> {
    %0 = "stablehlo.async_start"(%arg0) ({
      ^bb0(%b0: tensor<2x2xi64>):
      %1 = "stablehlo.all_gather"(%b0) {
        all_gather_dim = 1 : i64,
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
      } : (tensor<2x2xi64>) -> tensor<2x4xi64>
      "stablehlo.return"(%1) : (tensor<2x4xi64>) -> ()
    }) : (tensor<2x2xi64>) -> !stablehlo.future<tensor<2x4xi64>>
    %2 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<2x4xi64>>) -> tensor<2x4xi64>
    return %2 : tensor<2x4xi64>
  }
  func.func @crs(%arg0 : tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.cross-replica-sum"(%arg0) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  func.func @main() {
    %0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
    %1 = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
    %results:2 = "interpreter.run_parallel"(%0, %1) {
      programs=[[@f], [@f]]
    } : (tensor<2x2xi64>, tensor<2x2xi64>) -> (tensor<2x4xi64>, tensor<2x4xi64>)
    check.expect_eq_const %results#1, dense<[[1, 2, 5, 6], [3, 4, 7, 8]]> : tensor<2x4xi64>
    %a = stablehlo.constant dense<[1.5, 2.25]> : tensor<2xf32>
    %b = stablehlo.constant dense<[0.25, -4.0]> : tensor<2xf32>
    %r:2 = "interpreter.run_parallel"(%a, %b) { programs=[[@crs], [@crs]] } : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
    check.expect_eq_const %r#0, dense<[1.75, -1.75]> : tensor<2xf32>
    check.expect_eq_const %r#1, dense<[1.75, -1.75]> : tensor<2xf32>
    func.return
  }
}

// -----

func.func @scf_for() {
  %lo = stablehlo.constant dense<0> : tensor<i64>
  %hi = stablehlo.constant dense<5> : tensor<i64>
  %st = stablehlo.constant dense<2> : tensor<i64>
  %x = stablehlo.constant dense<0> : tensor<i64>
  %r = scf.for %iv = %lo to %hi step %st iter_args(%acc = %x) -> (tensor<i64>) {
    %n = stablehlo.add %acc, %iv : tensor<i64>
    scf.yield %n : tensor<i64>
  }
  check.expect_eq_const %r, dense<6> : tensor<i64>
  func.return
}

// -----

func.func @check_semantics() {
  %x = stablehlo.constant dense<[0x7FC00000, 1.0, -0.0]> : tensor<3xf32>
  %y = stablehlo.constant dense<[0x7FC00001, 1.0, 0.0]> : tensor<3xf32>
  stablehlo.custom_call @check.expect_eq(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> ()
  stablehlo.custom_call @check.expect_close(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> ()
  stablehlo.custom_call @check.expect_almost_eq(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> ()
  %b = stablehlo.custom_call @check.eq(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> tensor<i1>
  check.expect_eq_const %b, dense<true> : tensor<i1>
  %c1 = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>
  %c2 = stablehlo.constant dense<[(1.0, 2.0000002)]> : tensor<1xcomplex<f32>>
  check.expect_close %c1, %c2, max_ulp_difference = 1 : tensor<1xcomplex<f32>>, tensor<1xcomplex<f32>>
  %h1 = stablehlo.constant dense<[1.0, -1.0, 0.0]> : tensor<3xbf16>
  %h2 = stablehlo.constant dense<[1.0078125, -1.0078125, 9.18355e-41]> : tensor<3xbf16>
  check.expect_close %h1, %h2, max_ulp_difference = 1 : tensor<3xbf16>, tensor<3xbf16>
  %e1 = stablehlo.constant dense<[1.0, 0.5]> : tensor<2xf8E4M3FN>
  %e2 = stablehlo.constant dense<[1.125, 0.5625]> : tensor<2xf8E4M3FN>
  check.expect_close %e1, %e2, max_ulp_difference = 1, min_ulp_difference = 1 : tensor<2xf8E4M3FN>, tensor<2xf8E4M3FN>
  func.return
}

// -----

// JAX's dce_sink (lax.dce_sink with prevent_mlir_dce=True) keeps its operand's producer and
// does nothing when run.
func.func @dce_sink_runs() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.add %a, %a : tensor<2xf32>
  stablehlo.custom_call @dce_sink(%b) {has_side_effect = true} : (tensor<2xf32>) -> ()
  check.expect_eq_const %b, dense<[2.0, 4.0]> : tensor<2xf32>
  func.return
}
