[inputs: ["{mix,.formatter}.exs", "{config,lib}/**/*.{ex,exs}"], line_length: 110]
