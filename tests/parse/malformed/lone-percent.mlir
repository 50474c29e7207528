// ERROR: expected a value name after '%'
%
