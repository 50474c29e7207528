// jnp.linalg.qr(a)[1]: R from lapack_sgeqrf_ffi, and Q from lapack_sorgqr_ffi, which
// nothing reads: the cpu backend plans it (a malformed one would be an error) and runs no
// step for it (tests/backends/cpu/CMakeLists.txt: cpu.dead_lapack counts one LAPACK step).
// R of [[3, 0], [4, 5], [0, 0]] is [[-5, -4], [0, 3]] (LAPACK's signs).
func.func @main() -> tensor<2x2xf32> {
  %a = stablehlo.constant dense<[[3.0, 0.0], [4.0, 5.0], [0.0, 0.0]]> : tensor<3x2xf32>
  %f:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%a) {mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<2xf32>)
  %q = stablehlo.custom_call @lapack_sorgqr_ffi(%f#0, %f#1) {mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %s = stablehlo.slice %f#0 [0:2, 0:2] : (tensor<3x2xf32>) -> tensor<2x2xf32>
  %i = stablehlo.iota dim = 0 : tensor<2x2xi32>
  %j = stablehlo.iota dim = 1 : tensor<2x2xi32>
  %upper = stablehlo.compare LE, %i, %j, SIGNED : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi1>
  %z = stablehlo.constant dense<0.0> : tensor<2x2xf32>
  %r = stablehlo.select %upper, %s, %z : tensor<2x2xi1>, tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
