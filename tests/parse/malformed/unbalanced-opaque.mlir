// ERROR: unbalanced '}' (expected '>')
func.func @f() attributes {x = #foo.bar<a<b>} {
  return
}
