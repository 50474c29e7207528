defmodule DigitsServer do
  @moduledoc """
  Serves the digits classifier (examples/digits: a JAX model of scikit-learn's 8x8
  digits) on the device Kiln chose at boot from `config/runtime.exs`.

      {:ok, 2, logits} = DigitsServer.classify(image)   # 64 float32 pixels

  `main/0` boots the application, classifies the sample image shipped in `priv/` and prints
  the answer and the device: `bin/digits_server eval "DigitsServer.main()"`.
  """
  use GenServer
  require Logger

  @doc false
  def start_link(_), do: GenServer.start_link(__MODULE__, [], name: __MODULE__)

  @doc "The class (0-9) of an 8x8 image given as 64 little-endian float32 pixels, and the logits."
  @spec classify(binary) :: {:ok, 0..9, [float]} | {:error, String.t()}
  def classify(image) when byte_size(image) == 256 do
    # Runs in the caller's process: the executable may be used from many at once.
    with {:ok, [{logits, :f32, {1, 10}}]} <- Kiln.run(executable(), [{image, :f32, {1, 64}}]) do
      floats = for <<v::float-little-32 <- logits>>, do: v
      {:ok, floats |> Enum.with_index() |> Enum.max_by(&elem(&1, 0)) |> elem(1), floats}
    end
  end

  def classify(_image), do: {:error, "an image is 64 float32 pixels (256 bytes)"}

  @doc "The device the classifier runs on (\"cpu:0\")."
  @spec device() :: String.t()
  def device, do: executable().device

  @doc "Boots the application, classifies the sample image and prints the answer; halts with 1 on failure."
  def main do
    {:ok, _} = Application.ensure_all_started(:digits_server)
    {:ok, class, logits} = classify(read_npy(priv("input.npy")))
    expected = for <<v::float-little-32 <- read_npy(priv("expected.npy"))>>, do: v
    agrees = Enum.zip(logits, expected) |> Enum.all?(fn {a, b} -> abs(a - b) <= 1.0e-5 * max(1.0, abs(b)) end)

    IO.puts(
      "digits: class #{class} on #{device()} (#{if agrees, do: "matches", else: "DIFFERS FROM"} JAX's logits)"
    )

    unless class == 2 and agrees, do: System.halt(1)
  end

  @impl true
  def init(_) do
    case Kiln.load(priv("digits.mlir")) do
      {:ok, exe} ->
        Logger.info("digits_server: classifier compiled for #{exe.device}")
        :persistent_term.put({__MODULE__, :executable}, exe)
        {:ok, exe}

      {:error, message} ->
        {:stop, "cannot load the classifier: #{message}"}
    end
  end

  defp executable, do: :persistent_term.get({__MODULE__, :executable})
  defp priv(file), do: Path.join(:code.priv_dir(:digits_server), file)

  # The data of a little-endian float32 .npy file (format version 1).
  defp read_npy(path) do
    <<0x93, "NUMPY", 1, 0, len::little-16, _header::binary-size(len), data::binary>> = File.read!(path)
    data
  end
end
