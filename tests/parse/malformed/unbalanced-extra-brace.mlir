// ERROR: expected an operation, found '}'
func.func @f() {
  return
}
}
