defmodule Kiln.NIF do
  @moduledoc false
  # The NIF (c_src/), loaded from priv/lib/libkiln_nif.so. Each function validates its
  # terms and answers {:error, message} for bad ones. When the library cannot be loaded,
  # the module still loads and every function answers {:error, why}.
  @on_load :load

  def load do
    path = Path.join(:code.priv_dir(:kiln), "lib/libkiln_nif")

    case :erlang.load_nif(String.to_charlist(path), 0) do
      :ok ->
        :ok

      {:error, {_, text}} ->
        :persistent_term.put({__MODULE__, :load_error}, "Kiln's NIF did not load: #{text}")
        :ok
    end
  end

  defp not_loaded do
    {:error, :persistent_term.get({__MODULE__, :load_error}, "Kiln's NIF is not loaded")}
  end

  def version, do: not_loaded()
  def client_open(_devices, _plugin_paths, _config_file, _ignore_env), do: not_loaded()
  def plugins_scan(_plugin_paths, _config_file), do: not_loaded()
  def compile(_client, _program, _name, _function, _device_index), do: not_loaded()
  def execute(_executable, _inputs), do: not_loaded()
end
