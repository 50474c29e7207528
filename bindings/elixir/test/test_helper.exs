defmodule Kiln.TestNpy do
  @moduledoc false
  # The data and shape of a little-endian float32 .npy file (format version 1).
  def read!(path) do
    <<0x93, "NUMPY", 1, 0, len::little-16, header::binary-size(len), data::binary>> = File.read!(path)
    [_, dims] = Regex.run(~r/'shape': \(([^)]*)\)/, header)
    shape = dims |> String.split(",", trim: true) |> Enum.map(&(&1 |> String.trim() |> String.to_integer()))
    {data, :f32, List.to_tuple(shape)}
  end

  def floats(data), do: for(<<v::float-little-32 <- data>>, do: v)
end

ExUnit.start()
