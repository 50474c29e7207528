// ERROR: unknown type, found 'f33'
func.func @f(%a: tensor<2xf33>) {
  return
}
