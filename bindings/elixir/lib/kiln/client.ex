defmodule Kiln.Client do
  @moduledoc """
  A Kiln client: the backend plugin chosen from an ordered device list, with fallback.

  The application opens one at start from its environment (see `Kiln`); `open/1` opens
  others. Like executables, a client is released when the garbage collector frees the
  last copy of it, and may be used from any number of processes at once.
  """

  @enforce_keys [:ref, :plugin, :devices, :selection]
  defstruct [:ref, :plugin, :devices, :selection]

  @typedoc """
  What happened to one plugin: `status` is `:ok` when it was chosen (or, in a scan, can
  run here), otherwise why not (`:not_found`, `:unavailable`, ...) with `reason` in words.
  """
  @type report :: %{
          name: String.t(),
          path: String.t(),
          status: atom,
          reason: String.t(),
          description: String.t()
        }

  @typedoc "`plugin`: the chosen plugin's name; `devices`: its devices; `selection`: the plugins tried, in order."
  @type t :: %__MODULE__{ref: reference, plugin: String.t(), devices: [String.t()], selection: [report]}

  @typedoc """
  * `:devices` - the device list, tried in order: `"cuda,cpu"` or `["cuda", "cpu"]` (names
    may be atoms). `nil`: Kiln's default, `"cpu,interp"`.
  * `:plugin_paths` - folders searched for `libkiln-NAME.so` before the one next to
    `libkiln.so`. `nil`: `priv/kiln-plugins` of this application (for plugins built
    elsewhere and copied into a release).
  * `:config_file` - a Kiln config file (`devices = ...`, `plugin_path = ...`).
  * `:ignore_env` - when true, the `KILN_DEVICE` environment variable does not override
    the list.
  """
  @type option ::
          {:devices, String.t() | [String.t() | atom] | nil}
          | {:plugin_paths, [Path.t()] | nil}
          | {:config_file, Path.t() | nil}
          | {:ignore_env, boolean}

  @doc """
  Opens a client: loads the first plugin of the device list that can run on this machine.
  Fails with every plugin tried and its reason when none can.

      {:ok, client} = Kiln.Client.open(devices: "cuda,cpu")
      client.plugin                 #=> "cpu"
      Kiln.Client.passed_over(client) #=> [{"cuda", "no plugin found (...)"}]
  """
  @spec open([option]) :: {:ok, t} | {:error, String.t()}
  def open(opts \\ []) when is_list(opts) do
    with {:ok, devices} <- devices(Keyword.get(opts, :devices)),
         {:ok, {ref, plugin, names, selection}} <-
           Kiln.NIF.client_open(devices, plugin_paths(opts), opts[:config_file], opts[:ignore_env] == true) do
      {:ok, %__MODULE__{ref: ref, plugin: plugin, devices: names, selection: selection}}
    end
  end

  @doc "The plugins passed over before the chosen one, each with its reason."
  @spec passed_over(t) :: [{String.t(), String.t()}]
  def passed_over(%__MODULE__{selection: selection}),
    do: for(%{status: status} = r when status != :ok <- selection, do: {r.name, r.reason})

  @doc """
  Every plugin found in the folders the options name (`:plugin_paths`, `:config_file`,
  then `kiln-plugins/` next to `libkiln.so`), each loaded and probed: whether it can run
  here and, if not, why. The device list is not used.
  """
  @spec scan([option]) :: {:ok, [report]} | {:error, String.t()}
  def scan(opts \\ []) when is_list(opts), do: Kiln.NIF.plugins_scan(plugin_paths(opts), opts[:config_file])

  defp plugin_paths(opts),
    do: Keyword.get(opts, :plugin_paths) || [Path.join(:code.priv_dir(:kiln), "kiln-plugins")]

  defp devices(nil), do: {:ok, nil}
  defp devices(list) when is_binary(list), do: {:ok, list}

  defp devices(list) when is_list(list) do
    if Enum.all?(list, &(is_binary(&1) or is_atom(&1))),
      do: {:ok, Enum.map_join(list, ",", &to_string/1)},
      else: {:error, "devices must be a string or a list of names"}
  end

  defp devices(_), do: {:error, "devices must be a string or a list of names"}
end
