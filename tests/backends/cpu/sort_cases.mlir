// Sorts the cpu backend does natively (sort.c), with their comparators as JAX emits them;
// expected orders worked out by hand (stable; NaN and signed zeros as the comparator says).

// jnp.sort: keys canonicalised (-0 as +0, every NaN as one +NaN), then total order.
func.func @jnp_sort_canonical_keys() {
  %x = stablehlo.constant dense<[3.0, 0x7FC00000, -0.0, 1.0, 0.0, 0xFF800000, 0xFFC00000, 2.0]> : tensor<8xf32>
  %i = stablehlo.iota dim = 0 : tensor<8xi32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r:2 = "stablehlo.sort"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %zero, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %b, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %zero, %b : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %nan, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  %bits = stablehlo.bitcast_convert %r#0 : (tensor<8xf32>) -> tensor<8xi32>
  check.expect_eq_const %r#1, dense<[5, 2, 4, 3, 7, 0, 1, 6]> : tensor<8xi32>
  check.expect_eq_const %bits, dense<[-8388608, -2147483648, 0, 1065353216, 1073741824, 1077936128, 2143289344, -4194304]> : tensor<8xi32>
  func.return
}

// -----

// lax.top_k's sort: descending in total order (-NaN first... last; +NaN first), two operands.
func.func @top_k_descending_total_order() {
  %x = stablehlo.constant dense<[[1.0, 0x7FC00000, -0.0, 5.0], [2.0, 2.0, 0.0, -1.0]]> : tensor<2x4xf32>
  %i = stablehlo.iota dim = 1 : tensor<2x4xi32>
  %r:2 = "stablehlo.sort"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<2x4xf32>, tensor<2x4xi32>) -> (tensor<2x4xf32>, tensor<2x4xi32>)
  check.expect_eq_const %r#1, dense<[[1, 3, 0, 2], [0, 1, 2, 3]]> : tensor<2x4xi32>
  func.return
}

// -----

// argsort of integers along dim 0 of a 3x2 tensor, the comparator's operands swapped
// (compare GT, %b, %a: ascending), unsigned keys.
func.func @argsort_swapped_unsigned() {
  %x = stablehlo.constant dense<[[7, 1], [3, 4294967295], [7, 0]]> : tensor<3x2xui32>
  %i = stablehlo.iota dim = 0 : tensor<3x2xi32>
  %r:2 = "stablehlo.sort"(%x, %i) ({
  ^bb0(%a: tensor<ui32>, %b: tensor<ui32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare GT, %b, %a, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<3x2xui32>, tensor<3x2xi32>) -> (tensor<3x2xui32>, tensor<3x2xi32>)
  check.expect_eq_const %r#1, dense<[[1, 2], [0, 0], [2, 1]]> : tensor<3x2xi32>
  func.return
}

// -----

// chlo.top_k natively (native_top_k.c), rows longer than k: once the heap is full an equal
// key never enters (the lower index wins the tie), +NaN is above +inf and -NaN below -inf,
// +0 above -0; f32, f64, si32 and si64 take the inline keys, complex the two-word path.
func.func @top_k_full_heap_ties() {
  %x = stablehlo.constant dense<[[5.0, 1.0, 5.0, 0x7FC00000, 3.0, 5.0, -0.0, 0.0, 5.0, 2.0, 0xFFC00000, 5.0],
                                 [-0.0, 0xFF800000, -1.0, 0.0, 0xFFC00000, -0.0, 0.0, -2.0, 0.0, -1.0, 0x7F800000, -3.0]]> : tensor<2x12xf32>
  %v, %i = chlo.top_k(%x, k = 3) : tensor<2x12xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  check.expect_eq_const %i, dense<[[3, 0, 2], [10, 3, 6]]> : tensor<2x3xi32>
  %d = stablehlo.convert %x : (tensor<2x12xf32>) -> tensor<2x12xf64>
  %dv, %di = chlo.top_k(%d, k = 4) : tensor<2x12xf64> -> (tensor<2x4xf64>, tensor<2x4xi32>)
  check.expect_eq_const %di, dense<[[3, 0, 2, 5], [10, 3, 6, 8]]> : tensor<2x4xi32>
  %n = stablehlo.constant dense<[7, -8, 7, 2147483647, -2147483648, 7, 0, 2147483647]> : tensor<8xi32>
  %nv, %ni = chlo.top_k(%n, k = 3) : tensor<8xi32> -> (tensor<3xi32>, tensor<3xi32>)
  check.expect_eq_const %ni, dense<[3, 7, 0]> : tensor<3xi32>
  %l = stablehlo.convert %n : (tensor<8xi32>) -> tensor<8xi64>
  %lv, %li = chlo.top_k(%l, k = 2) : tensor<8xi64> -> (tensor<2xi64>, tensor<2xi32>)
  check.expect_eq_const %li, dense<[3, 7]> : tensor<2xi32>
  %c = stablehlo.constant dense<[(1.0, 2.0), (1.0, 3.0), (0.0, 9.0), (1.0, 2.0), (1.0, 3.0)]> : tensor<5xcomplex<f32>>
  %cv, %ci = chlo.top_k(%c, k = 3) : tensor<5xcomplex<f32>> -> (tensor<3xcomplex<f32>>, tensor<3xi32>)
  check.expect_eq_const %ci, dense<[1, 4, 0]> : tensor<3xi32>
  func.return
}

// -----

// Strict orders of integer keys take a radix sort (sort.c), other comparators the merge
// sort: 2,000 keys with many ties, negative ones, sorted by LT as si32 (keys in one word
// with their index) and descending by GT as si64 keys that differ above bit 32 (a key and
// an index apart), each against the same order of the same keys as exact floats under a
// FLOAT compare (the merge sort); the payloads (i32, i8) must come out in the same order.
func.func @radix_against_merge() {
  %n = stablehlo.iota dim = 0 : tensor<2000xi32>
  %m = stablehlo.constant dense<7919> : tensor<2000xi32>
  %q = stablehlo.constant dense<1000> : tensor<2000xi32>
  %h = stablehlo.constant dense<500> : tensor<2000xi32>
  %p = stablehlo.multiply %n, %m : tensor<2000xi32>
  %r = stablehlo.remainder %p, %q : tensor<2000xi32>
  %k = stablehlo.subtract %r, %h : tensor<2000xi32>
  %b = stablehlo.convert %n : (tensor<2000xi32>) -> tensor<2000xi8>
  %s:3 = "stablehlo.sort"(%k, %n, %b) ({
  ^bb0(%a: tensor<i32>, %c: tensor<i32>, %x: tensor<i32>, %y: tensor<i32>, %u: tensor<i8>, %v: tensor<i8>):
    %lt = stablehlo.compare LT, %a, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<2000xi32>, tensor<2000xi32>, tensor<2000xi8>) -> (tensor<2000xi32>, tensor<2000xi32>, tensor<2000xi8>)
  %kf = stablehlo.convert %k : (tensor<2000xi32>) -> tensor<2000xf32>
  %f:3 = "stablehlo.sort"(%kf, %n, %b) ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>, %x: tensor<i32>, %y: tensor<i32>, %u: tensor<i8>, %v: tensor<i8>):
    %lt = stablehlo.compare LT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<2000xf32>, tensor<2000xi32>, tensor<2000xi8>) -> (tensor<2000xf32>, tensor<2000xi32>, tensor<2000xi8>)
  check.expect_eq %s#1, %f#1 : tensor<2000xi32>
  check.expect_eq %s#2, %f#2 : tensor<2000xi8>
  %k64 = stablehlo.convert %k : (tensor<2000xi32>) -> tensor<2000xi64>
  %big = stablehlo.constant dense<4294967296> : tensor<2000xi64>
  %wide = stablehlo.multiply %k64, %big : tensor<2000xi64>
  %g:2 = "stablehlo.sort"(%wide, %n) ({
  ^bb0(%a: tensor<i64>, %c: tensor<i64>, %x: tensor<i32>, %y: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %c, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<2000xi64>, tensor<2000xi32>) -> (tensor<2000xi64>, tensor<2000xi32>)
  %wf = stablehlo.convert %wide : (tensor<2000xi64>) -> tensor<2000xf64>
  %e:2 = "stablehlo.sort"(%wf, %n) ({
  ^bb0(%a: tensor<f64>, %c: tensor<f64>, %x: tensor<i32>, %y: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %c, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<2000xf64>, tensor<2000xi32>) -> (tensor<2000xf64>, tensor<2000xi32>)
  check.expect_eq %g#1, %e#1 : tensor<2000xi32>
  %first = stablehlo.slice %s#0 [0:3] : (tensor<2000xi32>) -> tensor<3xi32>
  check.expect_eq_const %first, dense<[-500, -500, -499]> : tensor<3xi32>
  func.return
}

// -----

// lax.sort(num_keys=2) as JAX emits it: the first key canonicalised (-0 as +0, NaNs as
// one NaN, last) in total order, ties broken by the second; equal pairs keep their order.
func.func @two_keys_lexicographic() {
  %x = stablehlo.constant dense<[1.0, 0x7FC00000, -0.0, 1.0, 0.0, 0xFF800000, 1.0, 0xFFC00000]> : tensor<8xf32>
  %k = stablehlo.constant dense<[2, 1, 5, 1, 3, 0, 2, 0]> : tensor<8xi32>
  %i = stablehlo.iota dim = 0 : tensor<8xi32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r:3 = "stablehlo.sort"(%x, %k, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>, %e: tensor<i32>, %f: tensor<i32>):
    %1 = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %zero, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %b, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %zero, %b : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %nan, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %c, %d, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %11 = stablehlo.compare EQ, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %12 = stablehlo.and %11, %9 : tensor<i1>
    %13 = stablehlo.or %10, %12 : tensor<i1>
    stablehlo.return %13 : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<8xf32>, tensor<8xi32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>, tensor<8xi32>)
  check.expect_eq_const %r#2, dense<[5, 4, 2, 3, 0, 6, 7, 1]> : tensor<8xi32>
  check.expect_eq_const %r#1, dense<[0, 3, 5, 1, 2, 2, 0, 1]> : tensor<8xi32>
  func.return
}
