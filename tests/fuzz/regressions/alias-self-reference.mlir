!t1 = tuple<!t1>
!t2 = tuple<!t1>
func.func @f(%a: !t2) {
  return
}
// -----
#a = #stablehlo.gather<offset_dims = [#a]>
func.func @f() attributes {x = #a} {
  return
}
