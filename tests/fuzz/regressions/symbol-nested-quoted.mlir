func.func @f() attributes {x = @a::@"b c", y = @"x"::@y} {
  return
}
