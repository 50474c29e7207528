defmodule Kiln do
  @moduledoc """
  Runs StableHLO programs through Kiln, a compiler and runtime whose backends are plugins
  chosen when the application boots.

      {:ok, exe} = Kiln.load("digits.mlir")
      {:ok, [{logits, :f32, {1, 10}}]} = Kiln.run(exe, [{image, :f32, {1, 64}}])

  ## Choosing the device at boot

  The `:kiln` application opens one client when it starts, from its environment, so a
  release built once picks its backend from `config/runtime.exs`:

      # config/runtime.exs
      import Config
      config :kiln, devices: System.get_env("KILN_DEVICES", "cpu,interp")

  The first plugin of the list that can run on the machine is used; every one passed
  over is logged with its reason (`Logger.warning`), and the device used with
  `Logger.info`. The environment keys are the options of `Kiln.Client.open/1`
  (`:devices`, `:plugin_paths`, `:config_file`, `:ignore_env`). The package ships
  `libkiln.so`, every backend plugin of the Kiln build and the NIF in its `priv/lib/`;
  plugins built elsewhere (a CUDA one) go in `priv/kiln-plugins/`, searched first.

  ## Errors

  Every function answers `{:error, message}` with Kiln's message for bad input (a
  malformed program, inputs of the wrong shape or type, a missing plugin); none of them
  takes the VM down. Compiling happens on a dirty CPU scheduler, and so does running,
  except for an executable whose last run took under 100 µs: its runs stay on the calling
  process's scheduler, sparing the hop to a dirty one and back.
  """

  alias Kiln.{Client, Executable, Tensor}

  @typedoc "An input or output: the data, its element type and its shape."
  @type tensor :: {binary, Tensor.element_type(), Tensor.shape()} | Tensor.t()

  @client_key {__MODULE__, :client}

  @doc """
  Compiles a StableHLO program for the application's device (or the `:client` given).

  `source` is a path to a `.mlir` file (text, or the MLIR bytecode `jax.export` writes),
  or the program itself. A binary that holds no newline, `{` or NUL byte and does not start
  with MLIR bytecode's magic is taken as a path. The program is passed to Kiln unchanged.

  Options: `:client` (a `Kiln.Client`), `:function` (the entry function, default
  `"main"`), `:device` (the client's device index, default 0), `:name` (shown in error
  messages; default the path, or `"<program>"`).
  """
  @spec load(binary, keyword) :: {:ok, Executable.t()} | {:error, String.t()}
  def load(source, opts \\ [])

  def load(source, opts) when is_binary(source) and is_list(opts) do
    with {:ok, %Client{ref: client}} <- fetch_client(opts),
         {:ok, program, name} <- read_program(source, opts),
         {:ok, {ref, device, function, num_inputs, num_results}} <-
           Kiln.NIF.compile(client, program, name, opts[:function], Keyword.get(opts, :device, 0)) do
      {:ok,
       %Executable{
         ref: ref,
         device: device,
         function: function,
         num_inputs: num_inputs,
         num_results: num_results
       }}
    end
  end

  def load(_source, _opts), do: {:error, "load/2 takes a path or program binary and a keyword list"}

  @doc """
  Runs an executable on `inputs`, one per argument of its function, each a
  `{binary, type, shape}` tuple or a `Kiln.Tensor`. Answers the results in the same form:
  tuples (`{binary, :f32, {1, 10}}`), or `Kiln.Tensor`s when the inputs are tensors or
  `as: :tensor` is given (`as: :tuple` for tuples).
  """
  @spec run(Executable.t(), [tensor], keyword) :: {:ok, [tensor]} | {:error, String.t()}
  def run(executable, inputs, opts \\ [])

  def run(%Executable{ref: ref}, inputs, opts) when is_list(inputs) and is_list(opts) do
    case Kiln.NIF.execute(ref, Enum.map(inputs, &Tensor.normalize/1)) do
      {:ok, outputs} ->
        if Keyword.get_lazy(opts, :as, fn -> default_form(inputs) end) == :tensor,
          do:
            {:ok,
             Enum.map(outputs, &struct!(Tensor, data: elem(&1, 0), type: elem(&1, 1), shape: elem(&1, 2)))},
          else: {:ok, outputs}

      error ->
        error
    end
  end

  def run(_executable, _inputs, _opts),
    do: {:error, "run/3 takes a Kiln.Executable, a list of inputs and a keyword list"}

  @doc """
  Every backend plugin found (see `Kiln.Client.scan/1` for the options), whether it can
  run on this machine and, if not, why.

      {:ok, [%{name: "cpu", status: :ok, ...}, %{name: "cuda", status: :unavailable,
              reason: "no CUDA driver found", ...}]} = Kiln.devices()
  """
  @spec devices([Client.option()]) :: {:ok, [Client.report()]} | {:error, String.t()}
  def devices(opts \\ []), do: Client.scan(opts)

  @doc """
  The client the application opened at start, or why there is none (no plugin of the
  configured list could be used).
  """
  @spec client() :: {:ok, Client.t()} | {:error, String.t()}
  def client, do: :persistent_term.get(@client_key, {:error, "the :kiln application is not started"})

  @doc "The version of `libkiln.so` loaded (\"0.1.0\"), or why the NIF did not load."
  @spec version() :: String.t() | {:error, String.t()}
  def version, do: Kiln.NIF.version()

  @doc false
  def put_client(result), do: :persistent_term.put(@client_key, result)

  defp fetch_client(opts) do
    case Keyword.fetch(opts, :client) do
      {:ok, %Client{} = client} -> {:ok, client}
      {:ok, _} -> {:error, "the :client option must be a Kiln.Client"}
      :error -> client()
    end
  end

  defp read_program(source, opts) do
    if path?(source) do
      case File.read(source) do
        {:ok, program} -> {:ok, program, Keyword.get(opts, :name, source)}
        {:error, why} -> {:error, "cannot read #{source}: #{:file.format_error(why)}"}
      end
    else
      {:ok, source, opts[:name]}
    end
  end

  defp path?(<<"ML", 0xEF, "R", _::binary>>), do: false
  defp path?(source), do: byte_size(source) < 4096 and not String.contains?(source, ["\n", "{", <<0>>])

  defp default_form([%Tensor{} | _]), do: :tensor
  defp default_form(_), do: :tuple
end
