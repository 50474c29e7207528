defmodule Kiln.Tensor do
  @moduledoc """
  A tensor in host memory: dense row-major `data`, an element `type` and a `shape`.

  Types are atoms (`:f32`, `:f64`, `:f16`, `:bf16`, `:s8` ... `:s64`, `:u8` ... `:u64`,
  `:pred`, `:c64`, `:c128`, and StableHLO's small floats such as `:f8e4m3fn`); Nx's
  `{:f, 32}` style is accepted too. Shapes are tuples (`{1, 64}`; `{}` for a scalar).
  Every element takes a whole number of bytes in `data`, little-endian: `:pred` one byte
  (0 or 1), 2- and 4-bit integers and sub-byte floats one byte each.
  """

  @enforce_keys [:data, :type, :shape]
  defstruct [:data, :type, :shape]

  @type element_type :: atom | {atom, pos_integer}
  @type shape :: tuple | [non_neg_integer]
  @type t :: %__MODULE__{data: binary, type: atom, shape: tuple}

  # Nx's type names and Kiln's.
  @nx_types %{
    {:f, 8} => :f8e5m2,
    {:f, 16} => :f16,
    {:f, 32} => :f32,
    {:f, 64} => :f64,
    {:bf, 16} => :bf16,
    {:c, 64} => :c64,
    {:c, 128} => :c128,
    {:s, 2} => :s2,
    {:s, 4} => :s4,
    {:s, 8} => :s8,
    {:s, 16} => :s16,
    {:s, 32} => :s32,
    {:s, 64} => :s64,
    {:u, 2} => :u2,
    {:u, 4} => :u4,
    {:u, 8} => :u8,
    {:u, 16} => :u16,
    {:u, 32} => :u32,
    {:u, 64} => :u64
  }

  @doc "A tensor of `data` with element type `type` and shape `shape` (tuple or list)."
  @spec new(binary, element_type, shape) :: t
  def new(data, type, shape) when is_binary(data),
    do: %__MODULE__{data: data, type: type(type), shape: shape(shape)}

  @doc "The `{binary, type, shape}` form `Kiln.run/3` also takes and returns."
  @spec to_tuple(t) :: {binary, atom, tuple}
  def to_tuple(%__MODULE__{data: data, type: type, shape: shape}), do: {data, type, shape}

  @doc "A tensor from the `{binary, type, shape}` form."
  @spec from_tuple({binary, element_type, shape}) :: t
  def from_tuple({data, type, shape}), do: new(data, type, shape)

  @doc false
  # Inputs of Kiln.run as the NIF takes them; a term of the wrong form passes through, and
  # the NIF answers {:error, "input N: ..."} for it.
  def normalize({data, type, shape} = t) when is_atom(type) and is_tuple(shape) and is_binary(data), do: t
  def normalize(%__MODULE__{data: data, type: type, shape: shape}), do: {data, type(type), shape(shape)}
  def normalize({data, type, shape}), do: {data, type(type), shape(shape)}
  def normalize(other), do: other

  defp type(type) when is_atom(type), do: type
  defp type(type), do: Map.get(@nx_types, type, type)
  defp shape(shape) when is_list(shape), do: List.to_tuple(shape)
  defp shape(shape), do: shape
end
