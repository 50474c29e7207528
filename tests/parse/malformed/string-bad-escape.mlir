// ERROR: unknown escape sequence in string
func.func @f() attributes {note = "a\qb"} {
  return
}
