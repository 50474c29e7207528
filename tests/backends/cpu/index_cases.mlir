// Row gathers (x[indices], an embedding lookup) and row scatters (x.at[indices].add(u))
// that the cpu backend runs natively (dynamic_slice.c): gather indices out of range are
// clamped, scatter updates out of range skipped, as the spec says; repeated indices add up.

func.func @row_gather_clamped() {
  %x = stablehlo.constant dense<[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0], [20.0, 21.0, 22.0], [30.0, 31.0, 32.0]]> : tensor<4x3xf32>
  %i = stablehlo.constant dense<[[2], [0], [-5], [9], [3]]> : tensor<5x1xi32>
  %g = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<4x3xf32>, tensor<5x1xi32>) -> tensor<5x3xf32>
  check.expect_eq_const %g, dense<[[20.0, 21.0, 22.0], [0.0, 1.0, 2.0], [0.0, 1.0, 2.0], [30.0, 31.0, 32.0], [30.0, 31.0, 32.0]]> : tensor<5x3xf32>
  func.return
}

// -----

// Indices without an index vector dim, a 2-D batch, a rank-3 operand, unsigned indices.
func.func @row_gather_batched() {
  %x = stablehlo.iota dim = 0 : tensor<3x2x2xi64>
  %i = stablehlo.constant dense<[[1, 2], [7, 0]]> : tensor<2x2xui8>
  %g = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x2x2xi64>, tensor<2x2xui8>) -> tensor<2x2x2x2xi64>
  check.expect_eq_const %g, dense<[[[[1, 1], [1, 1]], [[2, 2], [2, 2]]], [[[2, 2], [2, 2]], [[0, 0], [0, 0]]]]> : tensor<2x2x2x2xi64>
  func.return
}

// -----

func.func @row_scatter_add_repeated_and_skipped() {
  %x = stablehlo.constant dense<[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]> : tensor<3x2xf32>
  %i = stablehlo.constant dense<[[1], [1], [-1], [3], [0]]> : tensor<5x1xi32>
  %u = stablehlo.constant dense<[[10.0, 20.0], [100.0, 200.0], [7.0, 7.0], [9.0, 9.0], [0.5, 0.25]]> : tensor<5x2xf32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3x2xf32>, tensor<5x1xi32>, tensor<5x2xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %r, dense<[[1.5, 1.25], [112.0, 222.0], [3.0, 3.0]]> : tensor<3x2xf32>
  func.return
}

// -----

// Scatters into a splat (the gradient of a gather: x.at[i].add(u) on zeros): the cpu backend
// stores no splat and starts each scatter's result filled with it (compile.c,
// splat_only_scattered): zeros read by two scatters (add, max), -inf (a segment_max's
// start), a splat constant of i32, a 2-byte f16 fill, and one splat that an add also reads
// (stored as before).
func.func @scatters_into_splats() {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %z = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
  %i = stablehlo.constant dense<[[1], [3], [1], [0]]> : tensor<4x1xi32>
  %u = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %u2 = stablehlo.constant dense<[[-1.0, -2.0], [3.0, -4.0], [5.0, -6.0], [-7.0, 8.0]]> : tensor<4x2xf32>
  %sum = "stablehlo.scatter"(%z, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %max = "stablehlo.scatter"(%z, %i, %u2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  check.expect_eq_const %sum, dense<[[7.0, 8.0], [6.0, 8.0], [0.0, 0.0], [3.0, 4.0]]> : tensor<4x2xf32>
  check.expect_eq_const %max, dense<[[0.0, 8.0], [5.0, 0.0], [0.0, 0.0], [3.0, 0.0]]> : tensor<4x2xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %n = stablehlo.broadcast_in_dim %ninf, dims = [] : (tensor<f32>) -> tensor<3x2xf32>
  %j = stablehlo.constant dense<[[2], [0], [2]]> : tensor<3x1xi32>
  %v = stablehlo.constant dense<[[1.0, 5.0], [2.0, 2.0], [4.0, -1.0]]> : tensor<3x2xf32>
  %segmax = "stablehlo.scatter"(%n, %j, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3x2xf32>, tensor<3x1xi32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %lo = stablehlo.constant dense<-1.0e30> : tensor<3x2xf32>
  %seen = stablehlo.maximum %segmax, %lo : tensor<3x2xf32>
  check.expect_eq_const %seen, dense<[[2.0, 2.0], [-1.0e30, -1.0e30], [4.0, 5.0]]> : tensor<3x2xf32>
  %sevens = stablehlo.constant dense<7> : tensor<5xi32>
  %k = stablehlo.constant dense<[[0], [4], [0], [2]]> : tensor<4x1xi32>
  %w = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %bins = "stablehlo.scatter"(%sevens, %k, %w) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5xi32>, tensor<4x1xi32>, tensor<4xi32>) -> tensor<5xi32>
  check.expect_eq_const %bins, dense<[11, 7, 11, 7, 9]> : tensor<5xi32>
  %half = stablehlo.constant dense<1.5> : tensor<f16>
  %h = stablehlo.broadcast_in_dim %half, dims = [] : (tensor<f16>) -> tensor<2x3xf16>
  %one = stablehlo.constant dense<[[1]]> : tensor<1x1xi32>
  %x = stablehlo.constant dense<[[2.0, 3.0, 4.0]]> : tensor<1x3xf16>
  %set = "stablehlo.scatter"(%h, %one, %x) ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    stablehlo.return %b : tensor<f16>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<2x3xf16>, tensor<1x1xi32>, tensor<1x3xf16>) -> tensor<2x3xf16>
  check.expect_eq_const %set, dense<[[1.5, 1.5, 1.5], [2.0, 3.0, 4.0]]> : tensor<2x3xf16>
  %twos = stablehlo.constant dense<2.0> : tensor<f32>
  %t = stablehlo.broadcast_in_dim %twos, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
  %tsum = "stablehlo.scatter"(%t, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %both = stablehlo.add %tsum, %t : tensor<4x2xf32>
  check.expect_eq_const %both, dense<[[11.0, 12.0], [10.0, 12.0], [4.0, 4.0], [7.0, 8.0]]> : tensor<4x2xf32>
  func.return
}

// -----

// More points than one block of the rows form's loop (64), i64 indices: -1, 0, 1, 2, 3
// repeated 26 times (-1 and 3 skipped).
func.func @row_scatter_add_i64_blocks() {
  %x = stablehlo.constant dense<0.0> : tensor<3x2xf32>
  %n = stablehlo.iota dim = 0 : tensor<130x1xi64>
  %five = stablehlo.constant dense<5> : tensor<130x1xi64>
  %one = stablehlo.constant dense<1> : tensor<130x1xi64>
  %m = stablehlo.remainder %n, %five : tensor<130x1xi64>
  %i = stablehlo.subtract %m, %one : tensor<130x1xi64>
  %u = stablehlo.constant dense<1.0> : tensor<130x2xf32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3x2xf32>, tensor<130x1xi64>, tensor<130x2xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %r, dense<[[26.0, 26.0], [26.0, 26.0], [26.0, 26.0]]> : tensor<3x2xf32>
  func.return
}

// -----

func.func @row_scatter_replace_i64() {
  %x = stablehlo.constant dense<[[1, 1], [2, 2]]> : tensor<2x2xi64>
  %i = stablehlo.constant dense<[1, 0, 1]> : tensor<3xui32>
  %u = stablehlo.constant dense<[[5, 6], [7, 8], [9, 10]]> : tensor<3x2xi64>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    stablehlo.return %b : tensor<i64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<2x2xi64>, tensor<3xui32>, tensor<3x2xi64>) -> tensor<2x2xi64>
  check.expect_eq_const %r, dense<[[7, 8], [9, 10]]> : tensor<2x2xi64>
  func.return
}

// -----

// A product of gathered rows, more rows gathered than the matrix has: the cpu backend
// computes the product of the matrix once and gathers its rows (canonicalize.c); clamped
// indices, a 2-D batch of points.
func.func @gathered_rows_times_matrix() {
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %w = stablehlo.constant dense<[[1.0, 0.0, 1.0, 2.0], [0.0, 1.0, 1.0, -1.0]]> : tensor<2x4xf32>
  %i = stablehlo.constant dense<[[[2], [0], [-4]], [[9], [1], [1]]]> : tensor<2x3x1xi32>
  %g = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 2>} : (tensor<3x2xf32>, tensor<2x3x1xi32>) -> tensor<2x3x2xf32>
  %r = stablehlo.dot_general %g, %w, contracting_dims = [2] x [0] : (tensor<2x3x2xf32>, tensor<2x4xf32>) -> tensor<2x3x4xf32>
  check.expect_eq_const %r, dense<[[[5.0, 6.0, 11.0, 4.0], [1.0, 2.0, 3.0, 0.0], [1.0, 2.0, 3.0, 0.0]], [[5.0, 6.0, 11.0, 4.0], [3.0, 4.0, 7.0, 2.0], [3.0, 4.0, 7.0, 2.0]]]> : tensor<2x3x4xf32>
  func.return
}

// -----

// The gathered rows on the right of the product.
func.func @matrix_times_gathered_rows() {
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %w = stablehlo.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0]]> : tensor<4x2xf32>
  %i = stablehlo.constant dense<[[1], [2], [2], [0], [7]]> : tensor<5x1xi32>
  %g = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>} : (tensor<3x2xf32>, tensor<5x1xi32>) -> tensor<5x2xf32>
  %r = stablehlo.dot_general %w, %g, contracting_dims = [1] x [1] : (tensor<4x2xf32>, tensor<5x2xf32>) -> tensor<4x5xf32>
  check.expect_eq_const %r, dense<[[3.0, 5.0, 5.0, 1.0, 5.0], [4.0, 6.0, 6.0, 2.0, 6.0], [7.0, 11.0, 11.0, 3.0, 11.0], [2.0, 4.0, 4.0, 0.0, 4.0]]> : tensor<4x5xf32>
  func.return
}

// -----

// No update points (an update dim of size 0), with and without unique_indices: the
// operand comes back unchanged.
func.func @scatter_no_points() {
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i = stablehlo.constant dense<> : tensor<0x1xi32>
  %u = stablehlo.constant dense<> : tensor<0x2xf32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true} : (tensor<2x2xf32>, tensor<0x1xi32>, tensor<0x2xf32>) -> tensor<2x2xf32>
  %s = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<2x2xf32>, tensor<0x1xi32>, tensor<0x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  check.expect_eq_const %s, dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// One element a point along one batch dim (a binary search's probes: gather.c's element
// loop): signed indices below 0 and past the end clamped, unsigned ones, and the index
// vector dim last (strided indices: every other element of a 2-column index array).
func.func @element_gather() {
  %t = stablehlo.constant dense<[10.0, 11.0, 12.0, 13.0, 14.0]> : tensor<5xf32>
  %i = stablehlo.constant dense<[[4], [0], [-3], [100], [2]]> : tensor<5x1xi32>
  %g = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<5xf32>, tensor<5x1xi32>) -> tensor<5x1xf32>
  check.expect_eq_const %g, dense<[[14.0], [10.0], [10.0], [14.0], [12.0]]> : tensor<5x1xf32>
  %u = stablehlo.constant dense<[3, 4294967295, 1]> : tensor<3xui32>
  %gu = "stablehlo.gather"(%t, %u) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<5xf32>, tensor<3xui32>) -> tensor<3xf32>
  check.expect_eq_const %gu, dense<[13.0, 14.0, 11.0]> : tensor<3xf32>
  %ti = stablehlo.constant dense<[7, -1, 5, 2]> : tensor<4xi32>
  %p = stablehlo.constant dense<[[0, 9], [3, 9], [-8, 9], [2, 9]]> : tensor<4x2xi32>
  %s = stablehlo.slice %p [0:4, 0:1] : (tensor<4x2xi32>) -> tensor<4x1xi32>
  %gi = "stablehlo.gather"(%ti, %s) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xi32>, tensor<4x1xi32>) -> tensor<4xi32>
  check.expect_eq_const %gi, dense<[7, 2, 7, 5]> : tensor<4xi32>
  func.return
}

// -----

// One element a point (a bincount, x.at[i].add(u) of a vector: scatter.c's element loop):
// updates whose index is below 0 or past the end skipped, repeated ones applied in order
// (i32 add, i64-indexed replace, a subtract through the scalar path), 200 points (several
// blocks of them); and a window of one element along a dim of one (the general walk, its
// elements combined a block at a time: f32 maximum).
func.func @element_scatter() {
  %x = stablehlo.constant dense<0> : tensor<4xi32>
  %i = stablehlo.constant dense<[[1], [1], [-1], [4], [3], [2147483647], [0]]> : tensor<7x1xi32>
  %u = stablehlo.constant dense<[1, 2, 3, 4, 5, 6, 7]> : tensor<7xi32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xi32>, tensor<7x1xi32>, tensor<7xi32>) -> tensor<4xi32>
  check.expect_eq_const %r, dense<[7, 3, 0, 5]> : tensor<4xi32>
  %xf = stablehlo.constant dense<[[1.0, 5.0, -2.0]]> : tensor<1x3xf32>
  %iu = stablehlo.constant dense<[2, 0, 7, 2, 1]> : tensor<5xui32>
  %uf = stablehlo.constant dense<[[-3.0], [4.0], [9.0], [-1.0], [0.5]]> : tensor<5x1xf32>
  %m = "stablehlo.scatter"(%xf, %iu, %uf) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>} : (tensor<1x3xf32>, tensor<5xui32>, tensor<5x1xf32>) -> tensor<1x3xf32>
  check.expect_eq_const %m, dense<[[4.0, 5.0, -1.0]]> : tensor<1x3xf32>
  %x8 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  %i8 = stablehlo.constant dense<[[2], [-9223372036854775808], [2], [0]]> : tensor<4x1xi64>
  %u8 = stablehlo.constant dense<[10, 20, 30, 40]> : tensor<4xi64>
  %p = "stablehlo.scatter"(%x8, %i8, %u8) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    stablehlo.return %b : tensor<i64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3xi64>, tensor<4x1xi64>, tensor<4xi64>) -> tensor<3xi64>
  check.expect_eq_const %p, dense<[40, 2, 30]> : tensor<3xi64>
  %q = "stablehlo.scatter"(%x8, %i8, %u8) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.subtract %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3xi64>, tensor<4x1xi64>, tensor<4xi64>) -> tensor<3xi64>
  check.expect_eq_const %q, dense<[-39, 2, -37]> : tensor<3xi64>
  %zero = stablehlo.constant dense<0> : tensor<7xi32>
  %n = stablehlo.iota dim = 0 : tensor<200x1xi32>
  %seven = stablehlo.constant dense<7> : tensor<200x1xi32>
  %bins = stablehlo.remainder %n, %seven : tensor<200x1xi32>
  %ones = stablehlo.constant dense<1> : tensor<200xi32>
  %h = "stablehlo.scatter"(%zero, %bins, %ones) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<7xi32>, tensor<200x1xi32>, tensor<200xi32>) -> tensor<7xi32>
  check.expect_eq_const %h, dense<[29, 29, 29, 29, 28, 28, 28]> : tensor<7xi32>
  func.return
}

// -----

// A histogram of 65,536 points into 61 bins (indices -3 to 63: those past either end
// skipped) with each order-free combiner: integer add, maximum (i8: every update below
// the operand, so a private copy's identity other than -128 shows), xor (ui16, si64
// indices), minimum (ui32: identity all ones) and i1 and (identity true). On a pool of two
// threads or more, scatter.c splits the points over private copies of the result and
// combines them; on one, the serial loop gives the same.
func.func @element_scatter_order_free() {
  %n = stablehlo.iota dim = 0 : tensor<65536x1xi32>
  %c67 = stablehlo.constant dense<67> : tensor<65536x1xi32>
  %c3 = stablehlo.constant dense<3> : tensor<65536x1xi32>
  %r67 = stablehlo.remainder %n, %c67 : tensor<65536x1xi32>
  %bins = stablehlo.subtract %r67, %c3 : tensor<65536x1xi32>
  %bins64 = stablehlo.convert %bins : (tensor<65536x1xi32>) -> tensor<65536x1xi64>
  %m = stablehlo.iota dim = 0 : tensor<65536xi64>
  %x100 = stablehlo.constant dense<100> : tensor<61xi32>
  %ones = stablehlo.constant dense<1> : tensor<65536xi32>
  %add = "stablehlo.scatter"(%x100, %bins, %ones) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<61xi32>, tensor<65536x1xi32>, tensor<65536xi32>) -> tensor<61xi32>
  check.expect_eq_const %add, dense<[1079, 1079, 1079, 1079, 1079, 1079, 1079, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078, 1078]> : tensor<61xi32>
  %c37 = stablehlo.constant dense<37> : tensor<65536xi64>
  %c100 = stablehlo.constant dense<100> : tensor<65536xi64>
  %c120 = stablehlo.constant dense<120> : tensor<65536xi64>
  %m37 = stablehlo.multiply %m, %c37 : tensor<65536xi64>
  %r100 = stablehlo.remainder %m37, %c100 : tensor<65536xi64>
  %v8 = stablehlo.subtract %r100, %c120 : tensor<65536xi64>
  %u8 = stablehlo.convert %v8 : (tensor<65536xi64>) -> tensor<65536xi8>
  %x8 = stablehlo.constant dense<-100> : tensor<61xi8>
  %max = "stablehlo.scatter"(%x8, %bins, %u8) ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %s = stablehlo.maximum %a, %b : tensor<i8>
    stablehlo.return %s : tensor<i8>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<61xi8>, tensor<65536x1xi32>, tensor<65536xi8>) -> tensor<61xi8>
  check.expect_eq_const %max, dense<-21> : tensor<61xi8>
  %c40503 = stablehlo.constant dense<40503> : tensor<65536xi64>
  %c65536 = stablehlo.constant dense<65536> : tensor<65536xi64>
  %mx = stablehlo.multiply %m, %c40503 : tensor<65536xi64>
  %rx = stablehlo.remainder %mx, %c65536 : tensor<65536xi64>
  %ux = stablehlo.convert %rx : (tensor<65536xi64>) -> tensor<65536xui16>
  %x16 = stablehlo.constant dense<4660> : tensor<61xui16>
  %xor = "stablehlo.scatter"(%x16, %bins64, %ux) ({
  ^bb0(%a: tensor<ui16>, %b: tensor<ui16>):
    %s = stablehlo.xor %a, %b : tensor<ui16>
    stablehlo.return %s : tensor<ui16>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<61xui16>, tensor<65536x1xi64>, tensor<65536xui16>) -> tensor<61xui16>
  check.expect_eq_const %xor, dense<[18036, 12383, 27682, 52085, 46552, 32931, 10486, 48089, 29979, 2585, 65151, 42993, 53603, 55057, 61231, 10697, 63531, 46089, 44207, 12625, 2019, 21233, 22271, 19033, 19035, 30105, 13503, 61489, 45507, 60305, 53263, 53353, 54347, 60009, 46607, 31377, 30403, 45617, 38847, 53401, 56411, 54361, 63487, 46577, 64739, 14161, 29103, 22025, 20011, 23241, 21807, 15121, 13667, 41201, 45183, 64537, 5403, 60121, 56127, 54577, 48003]> : tensor<61xui16>
  %c7919 = stablehlo.constant dense<7919> : tensor<65536xi64>
  %c1000003 = stablehlo.constant dense<1000003> : tensor<65536xi64>
  %c5 = stablehlo.constant dense<5> : tensor<65536xi64>
  %mm = stablehlo.multiply %m, %c7919 : tensor<65536xi64>
  %rm = stablehlo.remainder %mm, %c1000003 : tensor<65536xi64>
  %vm = stablehlo.add %rm, %c5 : tensor<65536xi64>
  %um = stablehlo.convert %vm : (tensor<65536xi64>) -> tensor<65536xui32>
  %x32 = stablehlo.constant dense<4000000000> : tensor<61xui32>
  %min = "stablehlo.scatter"(%x32, %bins, %um) ({
  ^bb0(%a: tensor<ui32>, %b: tensor<ui32>):
    %s = stablehlo.minimum %a, %b : tensor<ui32>
    stablehlo.return %s : tensor<ui32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<61xui32>, tensor<65536x1xi32>, tensor<65536xui32>) -> tensor<61xui32>
  check.expect_eq_const %min, dense<[46, 1666, 1581, 87, 1707, 213, 128, 43, 254, 169, 84, 295, 210, 125, 40, 251, 166, 81, 292, 207, 122, 333, 248, 459, 374, 289, 500, 415, 626, 541, 456, 667, 582, 497, 708, 623, 834, 749, 664, 875, 790, 1001, 916, 831, 1042, 957, 1168, 1083, 998, 1209, 1124, 1039, 1250, 1165, 1376, 1291, 1206, 1417, 1332, 1543, 1458]> : tensor<61xui32>
  %c5000 = stablehlo.constant dense<5000> : tensor<65536xi64>
  %c0 = stablehlo.constant dense<0> : tensor<65536xi64>
  %r5000 = stablehlo.remainder %m, %c5000 : tensor<65536xi64>
  %ub = stablehlo.compare NE, %r5000, %c0 : (tensor<65536xi64>, tensor<65536xi64>) -> tensor<65536xi1>
  %xb = stablehlo.constant dense<true> : tensor<61xi1>
  %and = "stablehlo.scatter"(%xb, %bins, %ub) ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %s = stablehlo.and %a, %b : tensor<i1>
    stablehlo.return %s : tensor<i1>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<61xi1>, tensor<65536x1xi32>, tensor<65536xi1>) -> tensor<61xi1>
  check.expect_eq_const %and, dense<[true, true, true, true, true, true, false, false, true, true, true, true, true, true, false, false, true, true, true, true, true, true, true, false, true, true, true, true, true, true, true, false, false, true, true, true, true, true, true, false, false, true, true, true, true, true, true, true, false, true, true, true, true, true, true, true, false, false, true, true, true]> : tensor<61xi1>
  // 8,192 bins (32 KiB: the private copies on the heap), indices -4 to 8,195: checked by
  // the histogram's sum and its sum weighted by the bin
  %c5i = stablehlo.constant dense<5> : tensor<65536x1xi64>
  %c8200 = stablehlo.constant dense<8200> : tensor<65536x1xi64>
  %c4 = stablehlo.constant dense<4> : tensor<65536x1xi64>
  %n64 = stablehlo.iota dim = 0 : tensor<65536x1xi64>
  %n5 = stablehlo.multiply %n64, %c5i : tensor<65536x1xi64>
  %r8200 = stablehlo.remainder %n5, %c8200 : tensor<65536x1xi64>
  %wide = stablehlo.subtract %r8200, %c4 : tensor<65536x1xi64>
  %z = stablehlo.constant dense<0> : tensor<8192xi64>
  %ones64 = stablehlo.constant dense<1> : tensor<65536xi64>
  %hist = "stablehlo.scatter"(%z, %wide, %ones64) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<8192xi64>, tensor<65536x1xi64>, tensor<65536xi64>) -> tensor<8192xi64>
  %k = stablehlo.iota dim = 0 : tensor<8192xi64>
  %hk = stablehlo.multiply %hist, %k : tensor<8192xi64>
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %total, %weighted = stablehlo.reduce(%hist init: %zero), (%hk init: %zero) across dimensions = [0] : (tensor<8192xi64>, tensor<8192xi64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
   reducer(%a: tensor<i64>, %c: tensor<i64>) (%b: tensor<i64>, %d: tensor<i64>) {
    %s = stablehlo.add %a, %c : tensor<i64>
    %t = stablehlo.add %b, %d : tensor<i64>
    stablehlo.return %s, %t : tensor<i64>, tensor<i64>
  }
  check.expect_eq_const %total, dense<65496> : tensor<i64>
  check.expect_eq_const %weighted, dense<268019616> : tensor<i64>
  func.return
}

// -----

// Float maximum and minimum are order-free too (the points split over private copies at
// -inf and +inf): each of 61 bins sees every value from -50 to 49, and signed zeros
// order -0 below +0 whichever arrives first.
func.func @element_scatter_float_max_min() {
  %n = stablehlo.iota dim = 0 : tensor<65536x1xi32>
  %c67 = stablehlo.constant dense<67> : tensor<65536x1xi32>
  %c3 = stablehlo.constant dense<3> : tensor<65536x1xi32>
  %r67 = stablehlo.remainder %n, %c67 : tensor<65536x1xi32>
  %bins = stablehlo.subtract %r67, %c3 : tensor<65536x1xi32>
  %m = stablehlo.iota dim = 0 : tensor<65536xi32>
  %c37 = stablehlo.constant dense<37> : tensor<65536xi32>
  %c100 = stablehlo.constant dense<100> : tensor<65536xi32>
  %c50 = stablehlo.constant dense<50> : tensor<65536xi32>
  %m37 = stablehlo.multiply %m, %c37 : tensor<65536xi32>
  %r100 = stablehlo.remainder %m37, %c100 : tensor<65536xi32>
  %vi = stablehlo.subtract %r100, %c50 : tensor<65536xi32>
  %v = stablehlo.convert %vi : (tensor<65536xi32>) -> tensor<65536xf32>
  %big = stablehlo.constant dense<1000.0> : tensor<61xf32>
  %min = "stablehlo.scatter"(%big, %bins, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.minimum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<61xf32>, tensor<65536x1xi32>, tensor<65536xf32>) -> tensor<61xf32>
  check.expect_eq_const %min, dense<-50.0> : tensor<61xf32>
  %small = stablehlo.constant dense<-1000.0> : tensor<61xf64>
  %v64 = stablehlo.convert %vi : (tensor<65536xi32>) -> tensor<65536xf64>
  %max = "stablehlo.scatter"(%small, %bins, %v64) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %s = stablehlo.maximum %a, %b : tensor<f64>
    stablehlo.return %s : tensor<f64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<61xf64>, tensor<65536x1xi32>, tensor<65536xf64>) -> tensor<61xf64>
  check.expect_eq_const %max, dense<49.0> : tensor<61xf64>
  %two = stablehlo.constant dense<2> : tensor<65536xi32>
  %odd = stablehlo.remainder %m, %two : tensor<65536xi32>
  %zi = stablehlo.constant dense<0> : tensor<65536xi32>
  %isodd = stablehlo.compare NE, %odd, %zi : (tensor<65536xi32>, tensor<65536xi32>) -> tensor<65536xi1>
  %pz = stablehlo.constant dense<0.0> : tensor<65536xf32>
  %nz = stablehlo.constant dense<-0.0> : tensor<65536xf32>
  %z = stablehlo.select %isodd, %nz, %pz : tensor<65536xi1>, tensor<65536xf32>
  %pinf = stablehlo.constant dense<0x7F800000> : tensor<61xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<61xf32>
  %zmin = "stablehlo.scatter"(%pinf, %bins, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.minimum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<61xf32>, tensor<65536x1xi32>, tensor<65536xf32>) -> tensor<61xf32>
  %zmax = "stablehlo.scatter"(%ninf, %bins, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<61xf32>, tensor<65536x1xi32>, tensor<65536xf32>) -> tensor<61xf32>
  %bmin = stablehlo.bitcast_convert %zmin : (tensor<61xf32>) -> tensor<61xi32>
  %bmax = stablehlo.bitcast_convert %zmax : (tensor<61xf32>) -> tensor<61xi32>
  check.expect_eq_const %bmin, dense<-2147483648> : tensor<61xi32>
  check.expect_eq_const %bmax, dense<0> : tensor<61xi32>
  func.return
}

// -----

// Row scatters with float maximum and minimum (scatter_combine.c's AVX2 loops: the vector
// instruction where no lane of a vector ties or is unordered, `pick` lane by lane where one
// does): rows of 11 f32 (a vector of 8, then 3 alone) and 5 f64 (4, then 1); in row 0 NaNs
// in the current value and in the update (the current one's payload first), zeros of both
// signs in both orders (-0 below +0), equal values, beside ordinary lanes, then a second
// update of the row that changes nothing but the NaN lanes' path; row 1 ordinary.
func.func @row_scatter_float_max_min_lanes() {
  %x = stablehlo.constant dense<[[0x3F800000, 0x80000000, 0x00000000, 0x7FC00001, 0x40400000, 0x40800000, 0xC0E00000, 0x41100000, 0x80000000, 0x7FC00001, 0x3FC00000], [0x3F800000, 0x40000000, 0x40400000, 0x40800000, 0x40A00000, 0x40C00000, 0x40E00000, 0x41000000, 0x41100000, 0x41200000, 0x41300000]]> : tensor<2x11xf32>
  %i = stablehlo.constant dense<[[0], [1], [0]]> : tensor<3x1xi32>
  %ux = stablehlo.constant dense<[[0x40000000, 0x00000000, 0x80000000, 0x40A00000, 0x7FC00002, 0x40800000, 0xC1000000, 0x41200000, 0x00000000, 0x3F800000, 0xC0200000], [0x41300000, 0x41200000, 0x41100000, 0x41000000, 0x40E00000, 0x40C00000, 0x40A00000, 0x40800000, 0x40400000, 0x40000000, 0x3F800000], [0xC2C80000, 0xC2C80000, 0xC2C80000, 0xC2C80000, 0xC2C80000, 0xC2C80000, 0xC2C80000, 0xC2C80000, 0xC2C80000, 0xC2C80000, 0xC2C80000]]> : tensor<3x11xf32>
  %un = stablehlo.constant dense<[[0x40000000, 0x00000000, 0x80000000, 0x40A00000, 0x7FC00002, 0x40800000, 0xC1000000, 0x41200000, 0x00000000, 0x3F800000, 0xC0200000], [0x41300000, 0x41200000, 0x41100000, 0x41000000, 0x40E00000, 0x40C00000, 0x40A00000, 0x40800000, 0x40400000, 0x40000000, 0x3F800000], [0x42C80000, 0x42C80000, 0x42C80000, 0x42C80000, 0x42C80000, 0x42C80000, 0x42C80000, 0x42C80000, 0x42C80000, 0x42C80000, 0x42C80000]]> : tensor<3x11xf32>
  %max = "stablehlo.scatter"(%x, %i, %ux) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<2x11xf32>, tensor<3x1xi32>, tensor<3x11xf32>) -> tensor<2x11xf32>
  %min = "stablehlo.scatter"(%x, %i, %un) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.minimum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<2x11xf32>, tensor<3x1xi32>, tensor<3x11xf32>) -> tensor<2x11xf32>
  %bmax = stablehlo.bitcast_convert %max : (tensor<2x11xf32>) -> tensor<2x11xi32>
  %bmin = stablehlo.bitcast_convert %min : (tensor<2x11xf32>) -> tensor<2x11xi32>
  check.expect_eq_const %bmax, dense<[[1073741824, 0, 0, 2143289345, 2143289346, 1082130432, -1059061760, 1092616192, 0, 2143289345, 1069547520], [1093664768, 1092616192, 1091567616, 1090519040, 1088421888, 1086324736, 1088421888, 1090519040, 1091567616, 1092616192, 1093664768]]> : tensor<2x11xi32>
  check.expect_eq_const %bmin, dense<[[1065353216, -2147483648, -2147483648, 2143289345, 2143289346, 1082130432, -1056964608, 1091567616, -2147483648, 2143289345, -1071644672], [1065353216, 1073741824, 1077936128, 1082130432, 1084227584, 1086324736, 1084227584, 1082130432, 1077936128, 1073741824, 1065353216]]> : tensor<2x11xi32>
  %y = stablehlo.constant dense<[[0x8000000000000000, 0x3FF0000000000000, 0x7FF8000000000001, 0x4000000000000000, 0x0000000000000000], [1.0, 5.0, 3.0, 7.0, 9.0]]> : tensor<2x5xf64>
  %j = stablehlo.constant dense<[[0], [1]]> : tensor<2x1xi32>
  %v = stablehlo.constant dense<[[0x0000000000000000, 0x3FF0000000000000, 0x4008000000000000, 0x7FF8000000000002, 0x8000000000000000], [2.0, 4.0, 6.0, 6.0, 10.0]]> : tensor<2x5xf64>
  %max64 = "stablehlo.scatter"(%y, %j, %v) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %s = stablehlo.maximum %a, %b : tensor<f64>
    stablehlo.return %s : tensor<f64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<2x5xf64>, tensor<2x1xi32>, tensor<2x5xf64>) -> tensor<2x5xf64>
  %min64 = "stablehlo.scatter"(%y, %j, %v) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %s = stablehlo.minimum %a, %b : tensor<f64>
    stablehlo.return %s : tensor<f64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<2x5xf64>, tensor<2x1xi32>, tensor<2x5xf64>) -> tensor<2x5xf64>
  %bmax64 = stablehlo.bitcast_convert %max64 : (tensor<2x5xf64>) -> tensor<2x5xi64>
  %bmin64 = stablehlo.bitcast_convert %min64 : (tensor<2x5xf64>) -> tensor<2x5xi64>
  check.expect_eq_const %bmax64, dense<[[0, 4607182418800017408, 9221120237041090561, 9221120237041090562, 0], [4611686018427387904, 4617315517961601024, 4618441417868443648, 4619567317775286272, 4621819117588971520]]> : tensor<2x5xi64>
  check.expect_eq_const %bmin64, dense<[[-9223372036854775808, 4607182418800017408, 9221120237041090561, 9221120237041090562, -9223372036854775808], [4607182418800017408, 4616189618054758400, 4613937818241073152, 4618441417868443648, 4621256167635550208]]> : tensor<2x5xi64>
  func.return
}

// -----

// One element a point along two batch dims (vmap of a binary search's probes: gather.c's
// element loop), the operand's batching dim first in the indices or second; clamped
// starts.
func.func @element_gather_two_batch_dims() {
  %t = stablehlo.constant dense<[[10.0, 11.0, 12.0, 13.0, 14.0], [20.0, 21.0, 22.0, 23.0, 24.0]]> : tensor<2x5xf32>
  %i = stablehlo.constant dense<[[[4], [0], [-3]], [[100], [2], [1]]]> : tensor<2x3x1xi32>
  %g = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<2x5xf32>, tensor<2x3x1xi32>) -> tensor<2x3x1xf32>
  check.expect_eq_const %g, dense<[[[14.0], [10.0], [10.0]], [[24.0], [22.0], [21.0]]]> : tensor<2x3x1xf32>
  %j = stablehlo.constant dense<[[[4], [0]], [[0], [3]], [[2], [9]]]> : tensor<3x2x1xui32>
  %h = "stablehlo.gather"(%t, %j) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], operand_batching_dims = [0], start_indices_batching_dims = [1], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<2x5xf32>, tensor<3x2x1xui32>) -> tensor<3x2x1xf32>
  check.expect_eq_const %h, dense<[[[14.0], [20.0]], [[10.0], [23.0]], [[12.0], [24.0]]]> : tensor<3x2x1xf32>
  func.return
}

// -----

// Gathers of single elements fuse into the loop that reads them (compile.c: the loop
// reads the operand at the clamped start indices it computes). Indices computed in the
// loop (iota * 2 - 3: -3 and 7 clamped), then used: a search step's shape.
func.func @element_gather_computed_indices() {
  %x = stablehlo.constant dense<[0.0, 10.0, 20.0, 30.0, 40.0]> : tensor<5xf32>
  %i = stablehlo.iota dim = 0 : tensor<6xi32>
  %two = stablehlo.constant dense<2> : tensor<6xi32>
  %three = stablehlo.constant dense<3> : tensor<6xi32>
  %i2 = stablehlo.multiply %i, %two : tensor<6xi32>
  %k = stablehlo.subtract %i2, %three : tensor<6xi32>
  %k1 = stablehlo.reshape %k : (tensor<6xi32>) -> tensor<6x1xi32>
  %g = "stablehlo.gather"(%x, %k1) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>} : (tensor<5xf32>, tensor<6x1xi32>) -> tensor<6xf32>
  %h = stablehlo.constant dense<0.5> : tensor<6xf32>
  %r = stablehlo.add %g, %h : tensor<6xf32>
  check.expect_eq_const %r, dense<[0.5, 0.5, 10.5, 30.5, 40.5, 40.5]> : tensor<6xf32>
  func.return
}

// -----

// The operand made by a loop of the same function (stored for the gather), indices past
// both ends.
func.func @element_gather_of_loop_result() {
  %i = stablehlo.iota dim = 0 : tensor<8xf32>
  %c = stablehlo.constant dense<3.0> : tensor<8xf32>
  %x = stablehlo.multiply %i, %c : tensor<8xf32>
  %k = stablehlo.constant dense<[7, 0, 3, 9, -2]> : tensor<5xi32>
  %g = "stablehlo.gather"(%x, %k) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>} : (tensor<8xf32>, tensor<5xi32>) -> tensor<5xf32>
  %d = stablehlo.add %g, %g : tensor<5xf32>
  check.expect_eq_const %d, dense<[42.0, 0.0, 18.0, 42.0, 0.0]> : tensor<5xf32>
  func.return
}

// -----

// Two start indices per point, mapped to the operand's dims in reverse order, the index
// vector first (index_vector_dim = 0), i8 indices clamped per dim.
func.func @element_gather_two_dims_vector_first() {
  %x = stablehlo.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]> : tensor<3x4xi32>
  %k = stablehlo.constant dense<[[1, 3, 9], [2, -1, 5]]> : tensor<2x3xi8>
  %g = "stablehlo.gather"(%x, %k) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 0>, slice_sizes = array<i64: 1, 1>} : (tensor<3x4xi32>, tensor<2x3xi8>) -> tensor<3xi32>
  check.expect_eq_const %g, dense<[21, 3, 23]> : tensor<3xi32>
  func.return
}

// -----

// Unsigned 64-bit indices above INT64_MAX clamp to the last element.
func.func @element_gather_huge_unsigned() {
  %x = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi64>
  %k = stablehlo.constant dense<[[18446744073709551615], [2], [9223372036854775808]]> : tensor<3x1xui64>
  %g = "stablehlo.gather"(%x, %k) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>} : (tensor<4xi64>, tensor<3x1xui64>) -> tensor<3xi64>
  check.expect_eq_const %g, dense<[8, 7, 8]> : tensor<3xi64>
  func.return
}

// -----

// Batching dims (take_along_axis under vmap): row b's own indices.
func.func @element_gather_batching_dims() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %k = stablehlo.constant dense<[[2, 0], [1, 7]]> : tensor<2x2xi32>
  %g = "stablehlo.gather"(%x, %k) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  %n = stablehlo.negate %g : tensor<2x2xf32>
  check.expect_eq_const %n, dense<[[-3.0, -1.0], [-5.0, -6.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// Start indices concatenated from vectors (x[i, j], take_along_axis): the gather's loop
// reads each index from its own vector (compile.c: the concatenation is not stored).
// Computed and constant vectors, clamped past both ends; the index vector first (i8, the
// operand's dims in reverse); vectors of one and two indices for a rank-3 operand; then the
// concatenations that are stored: one along another dim than the index vector's and one
// read twice.
func.func @element_gather_concatenated_indices() {
  %x = stablehlo.constant dense<[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]> : tensor<3x4xi32>
  %i = stablehlo.constant dense<[[2], [0], [-1], [5], [1]]> : tensor<5x1xi32>
  %io = stablehlo.iota dim = 0 : tensor<5x1xi32>
  %two = stablehlo.constant dense<2> : tensor<5x1xi32>
  %one = stablehlo.constant dense<1> : tensor<5x1xi32>
  %io2 = stablehlo.multiply %io, %two : tensor<5x1xi32>
  %j = stablehlo.subtract %io2, %one : tensor<5x1xi32>
  %ij = stablehlo.concatenate %i, %j, dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
  %g = "stablehlo.gather"(%x, %ij) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>} : (tensor<3x4xi32>, tensor<5x2xi32>) -> tensor<5xi32>
  check.expect_eq_const %g, dense<[20, 1, 3, 23, 13]> : tensor<5xi32>
  %a = stablehlo.constant dense<[[1, 3, 9]]> : tensor<1x3xi8>
  %b = stablehlo.constant dense<[[2, -1, 5]]> : tensor<1x3xi8>
  %ab = stablehlo.concatenate %a, %b, dim = 0 : (tensor<1x3xi8>, tensor<1x3xi8>) -> tensor<2x3xi8>
  %h = "stablehlo.gather"(%x, %ab) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 0>, slice_sizes = array<i64: 1, 1>} : (tensor<3x4xi32>, tensor<2x3xi8>) -> tensor<3xi32>
  %hn = stablehlo.negate %h : tensor<3xi32>
  check.expect_eq_const %hn, dense<[-21, -3, -23]> : tensor<3xi32>
  %y = stablehlo.iota dim = 0 : tensor<24xf32>
  %y3 = stablehlo.reshape %y : (tensor<24xf32>) -> tensor<2x3x4xf32>
  %p = stablehlo.constant dense<[[0], [1], [7]]> : tensor<3x1xui32>
  %qr = stablehlo.constant dense<[[2, 3], [0, 9], [1, 1]]> : tensor<3x2xui32>
  %pqr = stablehlo.concatenate %p, %qr, dim = 1 : (tensor<3x1xui32>, tensor<3x2xui32>) -> tensor<3x3xui32>
  %e = "stablehlo.gather"(%y3, %pqr) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1, 2], start_index_map = [0, 1, 2], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1, 1>} : (tensor<2x3x4xf32>, tensor<3x3xui32>) -> tensor<3xf32>
  check.expect_eq_const %e, dense<[11.0, 15.0, 17.0]> : tensor<3xf32>
  %r0 = stablehlo.constant dense<[[2, 1], [0, 3]]> : tensor<2x2xi32>
  %r1 = stablehlo.constant dense<[[1, 0], [9, -4]]> : tensor<2x2xi32>
  %rows = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>
  %f = "stablehlo.gather"(%x, %rows) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>} : (tensor<3x4xi32>, tensor<4x2xi32>) -> tensor<4xi32>
  check.expect_eq_const %f, dense<[21, 3, 10, 20]> : tensor<4xi32>
  %ij2 = stablehlo.concatenate %i, %j, dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
  %once = "stablehlo.gather"(%x, %ij2) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>} : (tensor<3x4xi32>, tensor<5x2xi32>) -> tensor<5xi32>
  %twice = "stablehlo.gather"(%x, %ij2) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>} : (tensor<3x4xi32>, tensor<5x2xi32>) -> tensor<5xi32>
  %sum = stablehlo.add %once, %twice : tensor<5xi32>
  check.expect_eq_const %sum, dense<[40, 2, 6, 46, 26]> : tensor<5xi32>
  func.return
}

// -----

// Take along an axis (a concatenation of an iota and the indices, one batch dim): row b's
// element at its index, clamped.
func.func @element_gather_take_along_axis() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %k = stablehlo.constant dense<[[2], [-3], [1]]> : tensor<3x1xi64>
  %rows = stablehlo.iota dim = 0 : tensor<3x1xi64>
  %rk = stablehlo.concatenate %rows, %k, dim = 1 : (tensor<3x1xi64>, tensor<3x1xi64>) -> tensor<3x2xi64>
  %g = "stablehlo.gather"(%x, %rk) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>} : (tensor<3x3xf32>, tensor<3x2xi64>) -> tensor<3xf32>
  %m = stablehlo.multiply %g, %g : tensor<3xf32>
  check.expect_eq_const %m, dense<[9.0, 16.0, 64.0]> : tensor<3xf32>
  func.return
}

// -----

// A gathered value read through a broadcast by many more points (stored once, not
// gathered again at each), and gathers of bf16 and i1 elements.
func.func @element_gather_broadcast_and_narrow_types() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %k = stablehlo.constant dense<[[3], [1]]> : tensor<2x1xi32>
  %g = "stablehlo.gather"(%x, %k) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>} : (tensor<4xf32>, tensor<2x1xi32>) -> tensor<2xf32>
  %b = stablehlo.broadcast_in_dim %g, dims = [0] : (tensor<2xf32>) -> tensor<2x4096xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%b init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4096xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %s, dense<[16384.0, 8192.0]> : tensor<2xf32>
  %y = stablehlo.constant dense<[1.5, 2.5, -3.0]> : tensor<3xbf16>
  %j = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
  %gy = "stablehlo.gather"(%y, %j) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>} : (tensor<3xbf16>, tensor<2x1xi32>) -> tensor<2xbf16>
  check.expect_eq_const %gy, dense<[-3.0, 1.5]> : tensor<2xbf16>
  %z = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %m = stablehlo.constant dense<[[1], [2], [0]]> : tensor<3x1xi32>
  %gz = "stablehlo.gather"(%z, %m) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>} : (tensor<3xi1>, tensor<3x1xi32>) -> tensor<3xi1>
  %nz = stablehlo.not %gz : tensor<3xi1>
  check.expect_eq_const %nz, dense<[true, false, false]> : tensor<3xi1>
  func.return
}

// -----

// A dynamic_slice read in place by the loop that uses it (compile.c: a GATHER node whose
// start indices are the same at every point, so a row is one vector load): starts past
// both ends clamp so the box fits, a dim the box spans whole takes no start, the starts
// computed in the loop (i - 3, i + 2), i32, u8 and i64 starts.
func.func @fused_dynamic_slice() {
  %x = stablehlo.iota dim = 0 : tensor<6x40xf32>
  %c = stablehlo.iota dim = 1 : tensor<6x40xf32>
  %hundred = stablehlo.constant dense<100.0> : tensor<6x40xf32>
  %x100 = stablehlo.multiply %x, %hundred : tensor<6x40xf32>
  %v = stablehlo.add %x100, %c : tensor<6x40xf32>
  %i = stablehlo.constant dense<4> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %lo = stablehlo.subtract %i, %three : tensor<i32>
  %hi = stablehlo.add %i, %two : tensor<i32>
  %col = stablehlo.constant dense<5> : tensor<ui8>
  %a = stablehlo.dynamic_slice %v, %lo, %lo, sizes = [2, 33] : (tensor<6x40xf32>, tensor<i32>, tensor<i32>) -> tensor<2x33xf32>
  %b = stablehlo.dynamic_slice %v, %hi, %hi, sizes = [2, 33] : (tensor<6x40xf32>, tensor<i32>, tensor<i32>) -> tensor<2x33xf32>
  %d = stablehlo.add %b, %a : tensor<2x33xf32>
  // rows 4..5 (6 clamps to 4), columns 6..38 (6 fits: 40 - 33 = 7); plus rows 1..2, columns 1..33
  check.expect_eq_const %d, dense<[[507.0, 509.0, 511.0, 513.0, 515.0, 517.0, 519.0, 521.0, 523.0, 525.0, 527.0, 529.0, 531.0, 533.0, 535.0, 537.0, 539.0, 541.0, 543.0, 545.0, 547.0, 549.0, 551.0, 553.0, 555.0, 557.0, 559.0, 561.0, 563.0, 565.0, 567.0, 569.0, 571.0], [707.0, 709.0, 711.0, 713.0, 715.0, 717.0, 719.0, 721.0, 723.0, 725.0, 727.0, 729.0, 731.0, 733.0, 735.0, 737.0, 739.0, 741.0, 743.0, 745.0, 747.0, 749.0, 751.0, 753.0, 755.0, 757.0, 759.0, 761.0, 763.0, 765.0, 767.0, 769.0, 771.0]]> : tensor<2x33xf32>
  %w = stablehlo.dynamic_slice %v, %col, %col, sizes = [6, 1] : (tensor<6x40xf32>, tensor<ui8>, tensor<ui8>) -> tensor<6x1xf32>
  %n = stablehlo.negate %w : tensor<6x1xf32>
  check.expect_eq_const %n, dense<[[-5.0], [-105.0], [-205.0], [-305.0], [-405.0], [-505.0]]> : tensor<6x1xf32>
  %m = stablehlo.constant dense<-9> : tensor<i64>
  %e = stablehlo.dynamic_slice %v, %m, %m, sizes = [1, 40] : (tensor<6x40xf32>, tensor<i64>, tensor<i64>) -> tensor<1x40xf32>
  %s = stablehlo.slice %e [0:1, 36:40] : (tensor<1x40xf32>) -> tensor<1x4xf32>
  %t = stablehlo.abs %s : tensor<1x4xf32>
  check.expect_eq_const %t, dense<[[36.0, 37.0, 38.0, 39.0]]> : tensor<1x4xf32>
  func.return
}

// -----

// Element scatters of two coordinates (x.at[i, j].add(u), .max(u)): each index pair picks one
// operand element; a pair with either coordinate outside is skipped; repeats combine; the
// index columns may map to the operand dims in either order.
func.func @element_scatter_two_coordinates() {
  %i = stablehlo.constant dense<[[0, 0], [4, 6], [2, 3], [2, 3], [-1, 2], [3, 7], [5, 0], [1, -2], [4, 0], [0, 6], [2, 3], [3, 3]]> : tensor<12x2xi32>
  %u = stablehlo.constant dense<[1.5, 2.0, -3.0, 4.0, 100.0, 100.0, 100.0, 100.0, 0.25, -1.0, 8.0, 0.5]> : tensor<12xf32>
  %z = stablehlo.constant dense<0.0> : tensor<5x7xf32>
  %add = "stablehlo.scatter"(%z, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>} : (tensor<5x7xf32>, tensor<12x2xi32>, tensor<12xf32>) -> tensor<5x7xf32>
  check.expect_eq_const %add, dense<[[ 1.5 ,  0.  ,  0.  ,  0.  ,  0.  ,  0.  , -1.  ], [ 0.  ,  0.  ,  0.  ,  0.  ,  0.  ,  0.  ,  0.  ], [ 0.  ,  0.  ,  0.  ,  9.  ,  0.  ,  0.  ,  0.  ], [ 0.  ,  0.  ,  0.  ,  0.5 ,  0.  ,  0.  ,  0.  ], [ 0.25,  0.  ,  0.  ,  0.  ,  0.  ,  0.  ,  2.  ]]> : tensor<5x7xf32>
  %m1 = stablehlo.constant dense<-1.0> : tensor<5x7xf32>
  %i64 = stablehlo.convert %i : (tensor<12x2xi32>) -> tensor<12x2xi64>
  %max = "stablehlo.scatter"(%m1, %i64, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>} : (tensor<5x7xf32>, tensor<12x2xi64>, tensor<12xf32>) -> tensor<5x7xf32>
  check.expect_eq_const %max, dense<[[ 1.5 , -1.  , -1.  , -1.  , -1.  , -1.  , -1.  ], [-1.  , -1.  , -1.  , -1.  , -1.  , -1.  , -1.  ], [-1.  , -1.  , -1.  ,  8.  , -1.  , -1.  , -1.  ], [-1.  , -1.  , -1.  ,  0.5 , -1.  , -1.  , -1.  ], [ 0.25, -1.  , -1.  , -1.  , -1.  , -1.  ,  2.  ]]> : tensor<5x7xf32>
  %zt = stablehlo.constant dense<0.0> : tensor<7x5xf32>
  %addt = "stablehlo.scatter"(%zt, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 1>} : (tensor<7x5xf32>, tensor<12x2xi32>, tensor<12xf32>) -> tensor<7x5xf32>
  check.expect_eq_const %addt, dense<[[ 1.5 ,  0.  ,  0.  ,  0.  ,  0.25], [ 0.  ,  0.  ,  0.  ,  0.  ,  0.  ], [ 0.  ,  0.  ,  0.  ,  0.  ,  0.  ], [ 0.  ,  0.  ,  9.  ,  0.5 ,  0.  ], [ 0.  ,  0.  ,  0.  ,  0.  ,  0.  ], [ 0.  ,  0.  ,  0.  ,  0.  ,  0.  ], [-1.  ,  0.  ,  0.  ,  0.  ,  2.  ]]> : tensor<7x5xf32>
  func.return
}

// -----

// Concatenations of slices (jnp.roll, fftshift, a rotary embedding's halves) read the
// slices where they lie in their operand (concat.c): along the first dim (one run a
// slice), a middle dim and the last (a run per row), in i32 and f16; against the same
// values sliced out of the operand concatenated with itself. Slices the concatenation
// cannot read so (a negated half, one slice read twice, a slice that cuts a dim after
// the concatenated one) are copied first, and give the same values.
func.func @concat_reads_slices() {
  %i = stablehlo.iota dim = 0 : tensor<6x40x9xi32>
  %j = stablehlo.iota dim = 1 : tensor<6x40x9xi32>
  %k = stablehlo.iota dim = 2 : tensor<6x40x9xi32>
  %c1000 = stablehlo.constant dense<1000> : tensor<6x40x9xi32>
  %c10 = stablehlo.constant dense<10> : tensor<6x40x9xi32>
  %i1000 = stablehlo.multiply %i, %c1000 : tensor<6x40x9xi32>
  %j10 = stablehlo.multiply %j, %c10 : tensor<6x40x9xi32>
  %ij = stablehlo.add %i1000, %j10 : tensor<6x40x9xi32>
  %x = stablehlo.add %ij, %k : tensor<6x40x9xi32>
  %r0_a = stablehlo.slice %x [4:6, 0:40, 0:9] : (tensor<6x40x9xi32>) -> tensor<2x40x9xi32>
  %r0_b = stablehlo.slice %x [0:4, 0:40, 0:9] : (tensor<6x40x9xi32>) -> tensor<4x40x9xi32>
  %r0 = stablehlo.concatenate %r0_a, %r0_b, dim = 0 : (tensor<2x40x9xi32>, tensor<4x40x9xi32>) -> tensor<6x40x9xi32>
  %r0_xx = stablehlo.concatenate %x, %x, dim = 0 : (tensor<6x40x9xi32>, tensor<6x40x9xi32>) -> tensor<12x40x9xi32>
  %r0_want = stablehlo.slice %r0_xx [4:10, 0:40, 0:9] : (tensor<12x40x9xi32>) -> tensor<6x40x9xi32>
  check.expect_eq %r0, %r0_want : tensor<6x40x9xi32>
  %r1_a = stablehlo.slice %x [0:6, 37:40, 0:9] : (tensor<6x40x9xi32>) -> tensor<6x3x9xi32>
  %r1_b = stablehlo.slice %x [0:6, 0:37, 0:9] : (tensor<6x40x9xi32>) -> tensor<6x37x9xi32>
  %r1 = stablehlo.concatenate %r1_a, %r1_b, dim = 1 : (tensor<6x3x9xi32>, tensor<6x37x9xi32>) -> tensor<6x40x9xi32>
  %r1_xx = stablehlo.concatenate %x, %x, dim = 1 : (tensor<6x40x9xi32>, tensor<6x40x9xi32>) -> tensor<6x80x9xi32>
  %r1_want = stablehlo.slice %r1_xx [0:6, 37:77, 0:9] : (tensor<6x80x9xi32>) -> tensor<6x40x9xi32>
  check.expect_eq %r1, %r1_want : tensor<6x40x9xi32>
  %r2_a = stablehlo.slice %x [0:6, 0:40, 5:9] : (tensor<6x40x9xi32>) -> tensor<6x40x4xi32>
  %r2_b = stablehlo.slice %x [0:6, 0:40, 0:5] : (tensor<6x40x9xi32>) -> tensor<6x40x5xi32>
  %r2 = stablehlo.concatenate %r2_a, %r2_b, dim = 2 : (tensor<6x40x4xi32>, tensor<6x40x5xi32>) -> tensor<6x40x9xi32>
  %r2_xx = stablehlo.concatenate %x, %x, dim = 2 : (tensor<6x40x9xi32>, tensor<6x40x9xi32>) -> tensor<6x40x18xi32>
  %r2_want = stablehlo.slice %r2_xx [0:6, 0:40, 5:14] : (tensor<6x40x18xi32>) -> tensor<6x40x9xi32>
  check.expect_eq %r2, %r2_want : tensor<6x40x9xi32>
  %h = stablehlo.convert %x : (tensor<6x40x9xi32>) -> tensor<6x40x9xf16>
  %h1_a = stablehlo.slice %h [0:6, 23:40, 0:9] : (tensor<6x40x9xf16>) -> tensor<6x17x9xf16>
  %h1_b = stablehlo.slice %h [0:6, 0:23, 0:9] : (tensor<6x40x9xf16>) -> tensor<6x23x9xf16>
  %h1 = stablehlo.concatenate %h1_a, %h1_b, dim = 1 : (tensor<6x17x9xf16>, tensor<6x23x9xf16>) -> tensor<6x40x9xf16>
  %h1_xx = stablehlo.concatenate %h, %h, dim = 1 : (tensor<6x40x9xf16>, tensor<6x40x9xf16>) -> tensor<6x80x9xf16>
  %h1_want = stablehlo.slice %h1_xx [0:6, 23:63, 0:9] : (tensor<6x80x9xf16>) -> tensor<6x40x9xf16>
  check.expect_eq %h1, %h1_want : tensor<6x40x9xf16>
  %n_hi = stablehlo.slice %x [0:6, 0:40, 5:9] : (tensor<6x40x9xi32>) -> tensor<6x40x4xi32>
  %n_neg = stablehlo.negate %n_hi : tensor<6x40x4xi32>
  %n_lo = stablehlo.slice %x [0:6, 0:40, 0:5] : (tensor<6x40x9xi32>) -> tensor<6x40x5xi32>
  %rot = stablehlo.concatenate %n_neg, %n_lo, dim = 2 : (tensor<6x40x4xi32>, tensor<6x40x5xi32>) -> tensor<6x40x9xi32>
  %nx = stablehlo.negate %x : tensor<6x40x9xi32>
  %nxx = stablehlo.concatenate %nx, %x, dim = 2 : (tensor<6x40x9xi32>, tensor<6x40x9xi32>) -> tensor<6x40x18xi32>
  %rot_want = stablehlo.slice %nxx [0:6, 0:40, 5:14] : (tensor<6x40x18xi32>) -> tensor<6x40x9xi32>
  check.expect_eq %rot, %rot_want : tensor<6x40x9xi32>
  %tw = stablehlo.slice %x [0:6, 10:20, 0:9] : (tensor<6x40x9xi32>) -> tensor<6x10x9xi32>
  %tw2 = stablehlo.concatenate %tw, %tw, dim = 1 : (tensor<6x10x9xi32>, tensor<6x10x9xi32>) -> tensor<6x20x9xi32>
  %tw_a = stablehlo.slice %r1_xx [0:6, 10:20, 0:9] : (tensor<6x80x9xi32>) -> tensor<6x10x9xi32>
  %tw_b = stablehlo.slice %r1_xx [0:6, 50:60, 0:9] : (tensor<6x80x9xi32>) -> tensor<6x10x9xi32>
  %tw_want = stablehlo.concatenate %tw_a, %tw_b, dim = 1 : (tensor<6x10x9xi32>, tensor<6x10x9xi32>) -> tensor<6x20x9xi32>
  check.expect_eq %tw2, %tw_want : tensor<6x20x9xi32>
  %p_a = stablehlo.slice %x [0:6, 0:40, 0:3] : (tensor<6x40x9xi32>) -> tensor<6x40x3xi32>
  %p_b = stablehlo.slice %x [0:6, 0:5, 3:6] : (tensor<6x40x9xi32>) -> tensor<6x5x3xi32>
  %p = stablehlo.concatenate %p_a, %p_b, dim = 1 : (tensor<6x40x3xi32>, tensor<6x5x3xi32>) -> tensor<6x45x3xi32>
  %p_t = stablehlo.transpose %p, dims = [0, 2, 1] : (tensor<6x45x3xi32>) -> tensor<6x3x45xi32>
  %p_x = stablehlo.transpose %x, dims = [0, 2, 1] : (tensor<6x40x9xi32>) -> tensor<6x9x40xi32>
  %p_xa = stablehlo.slice %p_x [0:6, 0:3, 0:40] : (tensor<6x9x40xi32>) -> tensor<6x3x40xi32>
  %p_xb = stablehlo.slice %p_x [0:6, 3:6, 0:5] : (tensor<6x9x40xi32>) -> tensor<6x3x5xi32>
  %p_want = stablehlo.concatenate %p_xa, %p_xb, dim = 2 : (tensor<6x3x40xi32>, tensor<6x3x5xi32>) -> tensor<6x3x45xi32>
  check.expect_eq %p_t, %p_want : tensor<6x3x45xi32>
  func.return
}

// -----

// Stacks (jnp.stack, jnp.array of values): a concatenation of pieces one long along the
// joined dim fuses into its readers as a select among its pieces (compile.c: small_stack).
// Scalars stacked and added to; vectors stacked along the last dim (a stored piece among
// computed ones) and along the first (a sort's result, stored, as a piece); booleans; f16;
// a stack in a loop's body; and 17 pieces, more than a loop selects among (a concatenation
// step). The barriers keep the values from being folded at compile time.
func.func @stacks() {
  %x = stablehlo.constant dense<[1.5, -2.0, 4.0]> : tensor<3xf32>
  %xb = stablehlo.optimization_barrier %x : tensor<3xf32>
  %s0 = stablehlo.slice %xb [0:1] : (tensor<3xf32>) -> tensor<1xf32>
  %s1 = stablehlo.slice %xb [1:2] : (tensor<3xf32>) -> tensor<1xf32>
  %s2 = stablehlo.slice %xb [2:3] : (tensor<3xf32>) -> tensor<1xf32>
  %a = stablehlo.reshape %s0 : (tensor<1xf32>) -> tensor<f32>
  %b = stablehlo.reshape %s1 : (tensor<1xf32>) -> tensor<f32>
  %c = stablehlo.reshape %s2 : (tensor<1xf32>) -> tensor<f32>
  %ab = stablehlo.multiply %a, %b : tensor<f32>
  %bc = stablehlo.add %b, %c : tensor<f32>
  %ca = stablehlo.subtract %c, %a : tensor<f32>
  %p0 = stablehlo.broadcast_in_dim %ab, dims = [] : (tensor<f32>) -> tensor<1xf32>
  %p1 = stablehlo.broadcast_in_dim %bc, dims = [] : (tensor<f32>) -> tensor<1xf32>
  %p2 = stablehlo.broadcast_in_dim %ca, dims = [] : (tensor<f32>) -> tensor<1xf32>
  %st = stablehlo.concatenate %p0, %p1, %p2, dim = 0 : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
  %r1 = stablehlo.add %st, %xb : tensor<3xf32>
  check.expect_eq_const %r1, dense<[-1.5, 0.0, 6.5]> : tensor<3xf32>
  %v = stablehlo.iota dim = 0 : tensor<4xi32>
  %vb = stablehlo.optimization_barrier %v : tensor<4xi32>
  %ten = stablehlo.constant dense<10> : tensor<4xi32>
  %w = stablehlo.multiply %vb, %ten : tensor<4xi32>
  %vr = stablehlo.reshape %vb : (tensor<4xi32>) -> tensor<4x1xi32>
  %wr = stablehlo.broadcast_in_dim %w, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
  %vw = stablehlo.concatenate %vr, %wr, %vr, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x3xi32>
  %io = stablehlo.iota dim = 1 : tensor<4x3xi32>
  %r2 = stablehlo.add %vw, %io : tensor<4x3xi32>
  check.expect_eq_const %r2, dense<[[0, 1, 2], [1, 11, 3], [2, 21, 4], [3, 31, 5]]> : tensor<4x3xi32>
  %u = stablehlo.constant dense<[3.0, -1.0]> : tensor<2xf32>
  %srt = "stablehlo.sort"(%u) ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %lt = stablehlo.compare LT, %l, %r, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<2xf32>) -> tensor<2xf32>
  %srow = stablehlo.reshape %srt : (tensor<2xf32>) -> tensor<1x2xf32>
  %half = stablehlo.constant dense<0.5> : tensor<2xf32>
  %hs = stablehlo.multiply %srt, %half : tensor<2xf32>
  %hrow = stablehlo.broadcast_in_dim %hs, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
  %rows = stablehlo.concatenate %hrow, %srow, dim = 0 : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  %neg = stablehlo.negate %rows : tensor<2x2xf32>
  check.expect_eq_const %neg, dense<[[0.5, -1.5], [1.0, -3.0]]> : tensor<2x2xf32>
  %gt0 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %gt1 = stablehlo.compare GT, %b, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %q0 = stablehlo.broadcast_in_dim %gt0, dims = [] : (tensor<i1>) -> tensor<1xi1>
  %q1 = stablehlo.broadcast_in_dim %gt1, dims = [] : (tensor<i1>) -> tensor<1xi1>
  %qs = stablehlo.concatenate %q0, %q1, %q0, dim = 0 : (tensor<1xi1>, tensor<1xi1>, tensor<1xi1>) -> tensor<3xi1>
  %on = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %off = stablehlo.constant dense<[4, 5, 6]> : tensor<3xi32>
  %pick = stablehlo.select %qs, %on, %off : tensor<3xi1>, tensor<3xi32>
  check.expect_eq_const %pick, dense<[1, 5, 3]> : tensor<3xi32>
  %ah = stablehlo.convert %a : (tensor<f32>) -> tensor<f16>
  %ch = stablehlo.convert %c : (tensor<f32>) -> tensor<f16>
  %h0 = stablehlo.broadcast_in_dim %ah, dims = [] : (tensor<f16>) -> tensor<1x1xf16>
  %h1 = stablehlo.broadcast_in_dim %ch, dims = [] : (tensor<f16>) -> tensor<1x1xf16>
  %hh = stablehlo.concatenate %h1, %h0, dim = 1 : (tensor<1x1xf16>, tensor<1x1xf16>) -> tensor<1x2xf16>
  %hsq = stablehlo.multiply %hh, %hh : tensor<1x2xf16>
  check.expect_eq_const %hsq, dense<[[16.0, 2.25]]> : tensor<1x2xf16>
  %y0 = stablehlo.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %i0c = stablehlo.constant dense<0> : tensor<i32>
  %i0 = stablehlo.optimization_barrier %i0c : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %fone = stablehlo.constant dense<1.0> : tensor<f32>
  %two = stablehlo.constant dense<2.0> : tensor<f32>
  %yl:2 = stablehlo.while(%y = %y0, %i = %i0) : tensor<2xf32>, tensor<i32>
    cond {
      %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %e0 = stablehlo.slice %y [0:1] : (tensor<2xf32>) -> tensor<1xf32>
      %e1 = stablehlo.slice %y [1:2] : (tensor<2xf32>) -> tensor<1xf32>
      %y0s = stablehlo.reshape %e0 : (tensor<1xf32>) -> tensor<f32>
      %y1s = stablehlo.reshape %e1 : (tensor<1xf32>) -> tensor<f32>
      %n0 = stablehlo.add %y1s, %fone : tensor<f32>
      %n1 = stablehlo.multiply %y0s, %two : tensor<f32>
      %b0 = stablehlo.broadcast_in_dim %n0, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %b1 = stablehlo.broadcast_in_dim %n1, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %ny = stablehlo.concatenate %b0, %b1, dim = 0 : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %ny, %i1 : tensor<2xf32>, tensor<i32>
    }
  check.expect_eq_const %yl#0, dense<[3.0, 6.0]> : tensor<2xf32>
  %k = stablehlo.iota dim = 0 : tensor<17xi64>
  %kb = stablehlo.optimization_barrier %k : tensor<17xi64>
  %k0 = stablehlo.slice %kb [0:1] : (tensor<17xi64>) -> tensor<1xi64>
  %k5 = stablehlo.slice %kb [5:6] : (tensor<17xi64>) -> tensor<1xi64>
  %many = stablehlo.concatenate %k5, %k0, %k5, %k0, %k5, %k0, %k5, %k0, %k5, %k0, %k5, %k0, %k5, %k0, %k5, %k0, %k5, dim = 0 : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<17xi64>
  %mk = stablehlo.add %many, %kb : tensor<17xi64>
  check.expect_eq_const %mk, dense<[5, 1, 7, 3, 9, 5, 11, 7, 13, 9, 15, 11, 17, 13, 19, 15, 21]> : tensor<17xi64>
  func.return
}

// -----

// Replacing updates of one element a point through the typed by-index loops
// (scatter_combine.c: replace_by), each storage width with i32 indices: repeated indices
// keep the last update, indices below 0 or past the end drop theirs (`.at[i].set(v,
// mode="drop")`); and index pairs into a matrix (the two-coordinate loop).
func.func @element_scatter_replace() {
  %i = stablehlo.constant dense<[[2], [0], [-1], [2], [5], [1], [0]]> : tensor<7x1xi32>
  %x1 = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi8>
  %u1 = stablehlo.constant dense<[10, 20, 30, 40, 50, 60, 70]> : tensor<7xi8>
  %r1 = "stablehlo.scatter"(%x1, %i, %u1) ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    stablehlo.return %b : tensor<i8>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xi8>, tensor<7x1xi32>, tensor<7xi8>) -> tensor<4xi8>
  check.expect_eq_const %r1, dense<[70, 60, 40, 4]> : tensor<4xi8>
  %x2 = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xbf16>
  %u2 = stablehlo.constant dense<[0.5, 1.5, 2.5, -3.5, 4.5, 5.5, -6.5]> : tensor<7xbf16>
  %r2 = "stablehlo.scatter"(%x2, %i, %u2) ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    stablehlo.return %b : tensor<bf16>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xbf16>, tensor<7x1xi32>, tensor<7xbf16>) -> tensor<4xbf16>
  check.expect_eq_const %r2, dense<[-6.5, 5.5, -3.5, 4.0]> : tensor<4xbf16>
  %x4 = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %u4 = stablehlo.constant dense<[0.25, 1.25, 2.25, 3.25, 4.25, 5.25, 6.25]> : tensor<7xf32>
  %r4 = "stablehlo.scatter"(%x4, %i, %u4) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4xf32>, tensor<7x1xi32>, tensor<7xf32>) -> tensor<4xf32>
  check.expect_eq_const %r4, dense<[6.25, 5.25, 3.25, 4.0]> : tensor<4xf32>
  %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf64>
  %ij = stablehlo.constant dense<[[1, 2], [0, 0], [1, 2], [2, 0], [0, -1], [1, 0]]> : tensor<6x2xi32>
  %uv = stablehlo.constant dense<[10.0, 20.0, 30.0, 40.0, 50.0, 60.0]> : tensor<6xf64>
  %r8 = "stablehlo.scatter"(%m, %ij, %uv) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    stablehlo.return %b : tensor<f64>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>} : (tensor<2x3xf64>, tensor<6x2xi32>, tensor<6xf64>) -> tensor<2x3xf64>
  check.expect_eq_const %r8, dense<[[20.0, 2.0, 3.0], [60.0, 5.0, 30.0]]> : tensor<2x3xf64>
  func.return
}

// -----

// A segment sum whose ids are in order (scatter.c: rows_sorted): its points are split over
// the pool where the id changes, so that each row's updates are still added in order by
// one thread; the updates mix +-2^24 with quarters, so any other order gives other sums.
// Ids run from -1 (dropped) to 298, past the 290 rows (dropped), 56 or 55 points a row, a
// chunk's nominal start inside a row. Then the first 8,000 points with the last id 0 (found
// out of order at the very end: the serial loop; 64,000 update elements, too few for
// private copies).
func.func @segment_sum_sorted_split() {
  %p = stablehlo.iota dim = 0 : tensor<16384x8xi32>
  %k = stablehlo.iota dim = 1 : tensor<16384x8xi32>
  %c5 = stablehlo.constant dense<5> : tensor<16384x8xi32>
  %c10 = stablehlo.constant dense<10> : tensor<16384x8xi32>
  %c0 = stablehlo.constant dense<0> : tensor<16384x8xi32>
  %c1 = stablehlo.constant dense<1> : tensor<16384x8xi32>
  %r5 = stablehlo.remainder %p, %c5 : tensor<16384x8xi32>
  %r10 = stablehlo.remainder %p, %c10 : tensor<16384x8xi32>
  %e5 = stablehlo.compare EQ, %r5, %c0 : (tensor<16384x8xi32>, tensor<16384x8xi32>) -> tensor<16384x8xi1>
  %e10 = stablehlo.compare EQ, %r10, %c0 : (tensor<16384x8xi32>, tensor<16384x8xi32>) -> tensor<16384x8xi1>
  %big = stablehlo.constant dense<16777216.0> : tensor<16384x8xf32>
  %nbig = stablehlo.negate %big : tensor<16384x8xf32>
  %k1 = stablehlo.add %k, %c1 : tensor<16384x8xi32>
  %kf = stablehlo.convert %k1 : (tensor<16384x8xi32>) -> tensor<16384x8xf32>
  %q = stablehlo.constant dense<0.25> : tensor<16384x8xf32>
  %small = stablehlo.multiply %kf, %q : tensor<16384x8xf32>
  %pm = stablehlo.select %e10, %big, %nbig : tensor<16384x8xi1>, tensor<16384x8xf32>
  %u = stablehlo.select %e5, %pm, %small : tensor<16384x8xi1>, tensor<16384x8xf32>
  %i = stablehlo.iota dim = 0 : tensor<16384x1xi32>
  %c300 = stablehlo.constant dense<300> : tensor<16384x1xi32>
  %cp = stablehlo.constant dense<16384> : tensor<16384x1xi32>
  %one = stablehlo.constant dense<1> : tensor<16384x1xi32>
  %i300 = stablehlo.multiply %i, %c300 : tensor<16384x1xi32>
  %d = stablehlo.divide %i300, %cp : tensor<16384x1xi32>
  %ids = stablehlo.subtract %d, %one : tensor<16384x1xi32>
  %x = stablehlo.constant dense<0.5> : tensor<290x8xf32>
  %s = "stablehlo.scatter"(%x, %ids, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<290x8xf32>, tensor<16384x1xi32>, tensor<16384x8xf32>) -> tensor<290x8xf32>
  check.expect_eq_const %s, dense<[[-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [7.0, 12.0, 39.0, 44.0, 51.0, 76.0, 83.0, 88.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [7.0, 12.0, 39.0, 44.0, 51.0, 76.0, 83.0, 88.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [7.0, 12.0, 39.0, 44.0, 51.0, 76.0, 83.0, 88.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [7.0, 12.0, 39.0, 44.0, 51.0, 76.0, 83.0, 88.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [7.0, 12.0, 39.0, 44.0, 51.0, 76.0, 83.0, 88.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [7.0, 12.0, 39.0, 44.0, 51.0, 76.0, 83.0, 88.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [7.0, 12.0, 39.0, 44.0, 51.0, 76.0, 83.0, 88.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [7.0, 12.0, 39.0, 44.0, 51.0, 76.0, 83.0, 88.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0]]> : tensor<290x8xf32>
  %zero = stablehlo.constant dense<0> : tensor<1x1xi32>
  %c7999 = stablehlo.constant dense<7999> : tensor<i32>
  %cz = stablehlo.constant dense<0> : tensor<i32>
  %ids8k = stablehlo.slice %ids [0:8000, 0:1] : (tensor<16384x1xi32>) -> tensor<8000x1xi32>
  %u8k = stablehlo.slice %u [0:8000, 0:8] : (tensor<16384x8xf32>) -> tensor<8000x8xf32>
  %ids2 = stablehlo.dynamic_update_slice %ids8k, %zero, %c7999, %cz : (tensor<8000x1xi32>, tensor<1x1xi32>, tensor<i32>, tensor<i32>) -> tensor<8000x1xi32>
  %s2 = "stablehlo.scatter"(%x, %ids2, %u8k) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<290x8xf32>, tensor<8000x1xi32>, tensor<8000x8xf32>) -> tensor<290x8xf32>
  check.expect_eq_const %s2, dense<[[-16777211.0, -16777206.0, -16777176.0, -16777171.0, -16777166.0, -16777136.0, -16777131.0, -16777126.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777140.0, -16777133.0, -16777128.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777280.0, 16777290.0, 16777300.0, 16777302.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777177.0, -16777172.0, -16777167.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777282.0, 16777292.0, 16777302.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777177.0, -16777171.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777284.0, 16777292.0, 16777300.0, 16777302.0], [-16777210.0, -16777204.0, -16777177.0, -16777172.0, -16777166.0, -16777138.0, -16777133.0, -16777128.0], [16777216.0, 16777228.0, 16777236.0, 16777240.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777173.0, -16777167.0, -16777140.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777236.0, 16777240.0, 16777282.0, 16777292.0, 16777302.0, 16777304.0], [-16777210.0, -16777204.0, -16777178.0, -16777172.0, -16777167.0, -16777142.0, -16777135.0, -16777130.0], [16777220.0, 16777228.0, 16777240.0, 16777240.0, 16777284.0, 16777292.0, 16777304.0, 16777304.0], [-16777209.0, -16777204.0, -16777177.0, -16777172.0, -16777165.0, -16777140.0, -16777133.0, -16777128.0], [5.0, 12.0, 23.0, 24.0, 69.0, 76.0, 87.0, 88.0], [16777216.0, 16777226.0, 16777236.0, 16777236.0, 16777284.0, 16777294.0, 16777304.0, 16777304.0], [-16777211.0, -16777206.0, -16777178.0, -16777173.0, -16777168.0, -16777140.0, -16777135.0, -16777130.0], [16777216.0, 16777226.0, 16777236.0, 16777240.0, 16777286.0, 16777294.0, 16777302.0, 16777304.0], [-16777213.0, -16777210.0, -16777198.0, -16777195.0, -16777193.0, -16777180.0, -16777178.0, -16777176.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]]> : tensor<290x8xf32>
  func.return
}

// -----

// Float sums and products of unsorted segments, 16,384 points of 8 into 64 rows (scatter.c's
// private copies, their grouping fixed by the shapes: REGROUP_CHUNKS): halves (sums) and
// 2, 0.5, -1 (products) whose every grouping gives the same value; ids -1, 64 and 65
// dropped. Row 5 starts at -0 and gets only -0 updates, row 6 starts at -0 (3 for the
// product) and gets none: both stay -0 (a copy starting at +0 would make +0) and 3.
func.func @segment_sum_prod_regrouped() {
  %p = stablehlo.iota dim = 0 : tensor<16384x1xi32>
  %c37 = stablehlo.constant dense<37> : tensor<16384x1xi32>
  %c67 = stablehlo.constant dense<67> : tensor<16384x1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<16384x1xi32>
  %c6 = stablehlo.constant dense<6> : tensor<16384x1xi32>
  %cm1 = stablehlo.constant dense<-1> : tensor<16384x1xi32>
  %p37 = stablehlo.multiply %p, %c37 : tensor<16384x1xi32>
  %r67 = stablehlo.remainder %p37, %c67 : tensor<16384x1xi32>
  %ids0 = stablehlo.subtract %r67, %c1 : tensor<16384x1xi32>
  %is6 = stablehlo.compare EQ, %ids0, %c6 : (tensor<16384x1xi32>, tensor<16384x1xi32>) -> tensor<16384x1xi1>
  %ids = stablehlo.select %is6, %cm1, %ids0 : tensor<16384x1xi1>, tensor<16384x1xi32>
  %pu = stablehlo.iota dim = 0 : tensor<16384x8xi32>
  %ku = stablehlo.iota dim = 1 : tensor<16384x8xi32>
  %c7 = stablehlo.constant dense<7> : tensor<16384x8xi32>
  %c3 = stablehlo.constant dense<3> : tensor<16384x8xi32>
  %c5 = stablehlo.constant dense<5> : tensor<16384x8xi32>
  %pk = stablehlo.add %pu, %ku : tensor<16384x8xi32>
  %r7 = stablehlo.remainder %pk, %c7 : tensor<16384x8xi32>
  %m3 = stablehlo.subtract %r7, %c3 : tensor<16384x8xi32>
  %m3f = stablehlo.convert %m3 : (tensor<16384x8xi32>) -> tensor<16384x8xf32>
  %half = stablehlo.constant dense<0.5> : tensor<16384x8xf32>
  %val = stablehlo.multiply %m3f, %half : tensor<16384x8xf32>
  %idsb = stablehlo.broadcast_in_dim %ids, dims = [0, 1] : (tensor<16384x1xi32>) -> tensor<16384x8xi32>
  %is5 = stablehlo.compare EQ, %idsb, %c5 : (tensor<16384x8xi32>, tensor<16384x8xi32>) -> tensor<16384x8xi1>
  %nzu = stablehlo.constant dense<-0.0> : tensor<16384x8xf32>
  %u = stablehlo.select %is5, %nzu, %val : tensor<16384x8xi1>, tensor<16384x8xf32>
  %row = stablehlo.iota dim = 0 : tensor<64x8xi32>
  %rowf = stablehlo.convert %row : (tensor<64x8xi32>) -> tensor<64x8xf32>
  %q = stablehlo.constant dense<0.25> : tensor<64x8xf32>
  %xq = stablehlo.multiply %rowf, %q : tensor<64x8xf32>
  %r5 = stablehlo.constant dense<5> : tensor<64x8xi32>
  %r6 = stablehlo.constant dense<6> : tensor<64x8xi32>
  %at5 = stablehlo.compare EQ, %row, %r5 : (tensor<64x8xi32>, tensor<64x8xi32>) -> tensor<64x8xi1>
  %at6 = stablehlo.compare EQ, %row, %r6 : (tensor<64x8xi32>, tensor<64x8xi32>) -> tensor<64x8xi1>
  %at56 = stablehlo.or %at5, %at6 : tensor<64x8xi1>
  %nzx = stablehlo.constant dense<-0.0> : tensor<64x8xf32>
  %x = stablehlo.select %at56, %nzx, %xq : tensor<64x8xi1>, tensor<64x8xf32>
  %sum = "stablehlo.scatter"(%x, %ids, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x8xf32>, tensor<16384x1xi32>, tensor<16384x8xf32>) -> tensor<64x8xf32>
  %bsum = stablehlo.bitcast_convert %sum : (tensor<64x8xf32>) -> tensor<64x8xi32>
  check.expect_eq_const %bsum, dense<[[0, 0, 0, 0, 0, 0, 0, 0], [-1086324736, -1080033280, 1071644672, 1067450368, 1061158912, 1048576000, -1098907648, -1086324736], [1056964608, 1056964608, 1056964608, 1056964608, 1056964608, 1056964608, 1056964608, 1056964608], [1061158912, 1048576000, -1098907648, -1086324736, 1074790400, 1071644672, 1067450368, 1061158912], [1065353216, 1065353216, 1065353216, 1065353216, 1065353216, 1065353216, 1065353216, 1065353216], [-2147483648, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648], [-2147483648, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648, -2147483648], [1071644672, 1071644672, 1071644672, 1071644672, 1071644672, 1071644672, 1071644672, 1071644672], [1080033280, 1077936128, 1075838976, 1073741824, 1069547520, 1065353216, 1056964608, 1080033280], [1074790400, 1074790400, 1074790400, 1074790400, 1074790400, 1074790400, 1074790400, 1074790400], [1069547520, 1065353216, 1082130432, 1080033280, 1077936128, 1075838976, 1073741824, 1069547520], [1076887552, 1076887552, 1076887552, 1076887552, 1076887552, 1076887552, 1076887552, 1076887552], [1077936128, 1075838976, 1073741824, 1069547520, 1083179008, 1082130432, 1080033280, 1077936128], [1078984704, 1078984704, 1078984704, 1078984704, 1078984704, 1078984704, 1078984704, 1078984704], [1080033280, 1080033280, 1080033280, 1080033280, 1080033280, 1080033280, 1080033280, 1080033280], [1082654720, 1081081856, 1078984704, 1076887552, 1074790400, 1084751872, 1083703296, 1082654720], [1082130432, 1082130432, 1082130432, 1082130432, 1082130432, 1082130432, 1082130432, 1082130432], [1085800448, 1084751872, 1083703296, 1082654720, 1081081856, 1078984704, 1076887552, 1085800448], [1083179008, 1083179008, 1083179008, 1083179008, 1083179008, 1083179008, 1083179008, 1083179008], [1081081856, 1078984704, 1086849024, 1085800448, 1084751872, 1083703296, 1082654720, 1081081856], [1084227584, 1084227584, 1084227584, 1084227584, 1084227584, 1084227584, 1084227584, 1084227584], [1084751872, 1084751872, 1084751872, 1084751872, 1084751872, 1084751872, 1084751872, 1084751872], [1084227584, 1083179008, 1082130432, 1088421888, 1087373312, 1086324736, 1085276160, 1084227584], [1085800448, 1085800448, 1085800448, 1085800448, 1085800448, 1085800448, 1085800448, 1085800448], [1087373312, 1086324736, 1085276160, 1084227584, 1083179008, 1089470464, 1088421888, 1087373312], [1086849024, 1086849024, 1086849024, 1086849024, 1086849024, 1086849024, 1086849024, 1086849024], [1090519040, 1089470464, 1088421888, 1087373312, 1086324736, 1085276160, 1084227584, 1090519040], [1087897600, 1087897600, 1087897600, 1087897600, 1087897600, 1087897600, 1087897600, 1087897600], [1086324736, 1085276160, 1091043328, 1090519040, 1089470464, 1088421888, 1087373312, 1086324736], [1085800448, 1091305472, 1090781184, 1089994752, 1088946176, 1087897600, 1086849024, 1085800448], [1089470464, 1089470464, 1089470464, 1089470464, 1089470464, 1089470464, 1089470464, 1089470464], [1088946176, 1087897600, 1086849024, 1091829760, 1091305472, 1090781184, 1089994752, 1088946176], [1090519040, 1090519040, 1090519040, 1090519040, 1090519040, 1090519040, 1090519040, 1090519040], [1091305472, 1090781184, 1089994752, 1088946176, 1087897600, 1092354048, 1091829760, 1091305472], [1091043328, 1091043328, 1091043328, 1091043328, 1091043328, 1091043328, 1091043328, 1091043328], [1092878336, 1092354048, 1091829760, 1091305472, 1090781184, 1089994752, 1088946176, 1092878336], [1091567616, 1091567616, 1091567616, 1091567616, 1091567616, 1091567616, 1091567616, 1091567616], [1091829760, 1091829760, 1091829760, 1091829760, 1091829760, 1091829760, 1091829760, 1091829760], [1090519040, 1093664768, 1093140480, 1092616192, 1092091904, 1091567616, 1091043328, 1090519040], [1092354048, 1092354048, 1092354048, 1092354048, 1092354048, 1092354048, 1092354048, 1092354048], [1092091904, 1091567616, 1091043328, 1094189056, 1093664768, 1093140480, 1092616192, 1092091904], [1092878336, 1092878336, 1092878336, 1092878336, 1092878336, 1092878336, 1092878336, 1092878336], [1093664768, 1093140480, 1092616192, 1092091904, 1091567616, 1094713344, 1094189056, 1093664768], [1093402624, 1093402624, 1093402624, 1093402624, 1093402624, 1093402624, 1093402624, 1093402624], [1093664768, 1093664768, 1093664768, 1093664768, 1093664768, 1093664768, 1093664768, 1093664768], [1094975488, 1094451200, 1093926912, 1093402624, 1092878336, 1092354048, 1095499776, 1094975488], [1094189056, 1094189056, 1094189056, 1094189056, 1094189056, 1094189056, 1094189056, 1094189056], [1092878336, 1096024064, 1095499776, 1094975488, 1094451200, 1093926912, 1093402624, 1092878336], [1094713344, 1094713344, 1094713344, 1094713344, 1094713344, 1094713344, 1094713344, 1094713344], [1094451200, 1093926912, 1093402624, 1096548352, 1096024064, 1095499776, 1094975488, 1094451200], [1095237632, 1095237632, 1095237632, 1095237632, 1095237632, 1095237632, 1095237632, 1095237632], [1095499776, 1095499776, 1095499776, 1095499776, 1095499776, 1095499776, 1095499776, 1095499776], [1095761920, 1095237632, 1094713344, 1094189056, 1097334784, 1096810496, 1096286208, 1095761920], [1096024064, 1096024064, 1096024064, 1096024064, 1096024064, 1096024064, 1096024064, 1096024064], [1097334784, 1096810496, 1096286208, 1095761920, 1095237632, 1094713344, 1097859072, 1097334784], [1096548352, 1096548352, 1096548352, 1096548352, 1096548352, 1096548352, 1096548352, 1096548352], [1095237632, 1098383360, 1097859072, 1097334784, 1096810496, 1096286208, 1095761920, 1095237632], [1097072640, 1097072640, 1097072640, 1097072640, 1097072640, 1097072640, 1097072640, 1097072640], [1096810496, 1096286208, 1095761920, 1098907648, 1098383360, 1097859072, 1097334784, 1096810496], [1096548352, 1096024064, 1099038720, 1098645504, 1098121216, 1097596928, 1097072640, 1096548352], [1097859072, 1097859072, 1097859072, 1097859072, 1097859072, 1097859072, 1097859072, 1097859072], [1098121216, 1097596928, 1097072640, 1096548352, 1099300864, 1099038720, 1098645504, 1098121216], [1098383360, 1098383360, 1098383360, 1098383360, 1098383360, 1098383360, 1098383360, 1098383360], [1099300864, 1099038720, 1098645504, 1098121216, 1097596928, 1097072640, 1099563008, 1099300864]]> : tensor<64x8xi32>
  %c3p = stablehlo.constant dense<3> : tensor<16384x8xi32>
  %r3 = stablehlo.remainder %pu, %c3p : tensor<16384x8xi32>
  %z = stablehlo.constant dense<0> : tensor<16384x8xi32>
  %o = stablehlo.constant dense<1> : tensor<16384x8xi32>
  %is0 = stablehlo.compare EQ, %r3, %z : (tensor<16384x8xi32>, tensor<16384x8xi32>) -> tensor<16384x8xi1>
  %is1 = stablehlo.compare EQ, %r3, %o : (tensor<16384x8xi32>, tensor<16384x8xi32>) -> tensor<16384x8xi1>
  %two = stablehlo.constant dense<2.0> : tensor<16384x8xf32>
  %neg = stablehlo.constant dense<-1.0> : tensor<16384x8xf32>
  %hv = stablehlo.select %is1, %half, %neg : tensor<16384x8xi1>, tensor<16384x8xf32>
  %v = stablehlo.select %is0, %two, %hv : tensor<16384x8xi1>, tensor<16384x8xf32>
  %ones = stablehlo.constant dense<1.0> : tensor<64x8xf32>
  %threes = stablehlo.constant dense<3.0> : tensor<64x8xf32>
  %x2 = stablehlo.select %at6, %threes, %ones : tensor<64x8xi1>, tensor<64x8xf32>
  %prod = "stablehlo.scatter"(%x2, %ids, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<64x8xf32>, tensor<16384x1xi32>, tensor<16384x8xf32>) -> tensor<64x8xf32>
  check.expect_eq_const %prod, dense<[[2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5], [3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5], [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [-2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -2.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<64x8xf32>
  func.return
}
