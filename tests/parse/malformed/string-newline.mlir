// ERROR: unterminated string
func.func @f() attributes {note = "two
lines"} {
  return
}
