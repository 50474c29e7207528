// ERROR: expected an operation, found end of input
%0 =
