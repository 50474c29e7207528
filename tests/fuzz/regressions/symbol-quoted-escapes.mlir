func.func @"a\"b"() {
  return
}
