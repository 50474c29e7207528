// ERROR: expected '}' to close the region
module {
  func.func @f() {
    return
  }
