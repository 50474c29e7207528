// ERROR: expected '{' to open a region, found end of input
module
