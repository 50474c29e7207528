// ERROR: expected an operation, found '}'
}
