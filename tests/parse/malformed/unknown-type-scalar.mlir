// ERROR: unknown type, found 'flt'
func.func @f(%a: flt) {
  return
}
