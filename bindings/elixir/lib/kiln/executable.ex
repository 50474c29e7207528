defmodule Kiln.Executable do
  @moduledoc """
  A program compiled for one device (`Kiln.load/2`); run it with `Kiln.run/3`.

  It holds a reference to Kiln's executable, released when the garbage collector frees
  the last copy of this struct; the executable keeps its client (and so its plugin)
  alive, so a client and its executables may be dropped in any order. One executable may
  be run from any number of processes at once.
  """

  @enforce_keys [:ref, :device, :function, :num_inputs, :num_results]
  defstruct [:ref, :device, :function, :num_inputs, :num_results]

  @typedoc "`device` is the device it runs on (`\"cpu:0\"`); `function` the entry function."
  @type t :: %__MODULE__{
          ref: reference,
          device: String.t(),
          function: String.t(),
          num_inputs: non_neg_integer,
          num_results: non_neg_integer
        }
end
