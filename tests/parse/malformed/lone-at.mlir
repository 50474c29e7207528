// ERROR: expected an identifier
@
