defmodule Kiln.Application do
  @moduledoc false
  # Opens the application's client from its environment (config/runtime.exs has been read
  # by then) and logs the choice: the device used, and every plugin passed over with why.
  # A list that no plugin of can serve is logged as an error; the application still starts
  # and Kiln.load/2 answers that error.
  use Application
  require Logger

  @impl true
  def start(_type, _args) do
    env = Application.get_all_env(:kiln)
    opts = Keyword.take(env, [:devices, :plugin_paths, :config_file, :ignore_env])
    requested = inspect(Keyword.get(opts, :devices) || "default")

    case Kiln.Client.open(opts) do
      {:ok, client} ->
        for {name, reason} <- Kiln.Client.passed_over(client),
            do: Logger.warning("kiln: #{name} passed over: #{reason}")

        Logger.info("kiln: using #{Enum.join(client.devices, ", ")} (devices #{requested})")
        Kiln.put_client({:ok, client})

      {:error, message} ->
        Logger.error("kiln: no device of #{requested} can be used: #{message}")
        Kiln.put_client({:error, message})
    end

    Supervisor.start_link([], strategy: :one_for_one, name: Kiln.Supervisor)
  end
end
